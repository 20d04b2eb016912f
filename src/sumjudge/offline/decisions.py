"""How a clause states a decision: its contrary words, its chosen and turned-down options.

`polarity` reads a summary clause against the source clause it restates; this module gives
it the readings of decision wording that plain negation misses:

- contrary words (`words/contraries.txt`), single words or phrases ("turned_down",
  "on_time", "only_if"): approve / reject, keep / cancel, waive / charge, on time / late;
- a choice between two options ("X rather than Y", "X instead of Y", "instead of Y, X",
  "chose X over Y", "X daripada Y"):
  X is asserted and Y turned down, so "Y" reads as a negated clause ("Let's switch instead
  of cancelling" says "not cancelling"); and two choices that name the same options the
  other way round ("frozen rather than cancelled" / "cancelled rather than frozen");
- words matched across inflection: the light English stem, irregular past forms ("gave" is
  "give") and Indonesian affixes ("diajukan" and "mengajukan" are one verb).
"""

from __future__ import annotations

import re
from functools import lru_cache

from .lexicon import word_map, word_pairs
from .text import alike, content_of, words

CONTRARIES = word_pairs("contraries")
# each pair's sides as single words and as phrases ("turned down"), matched in word order
_SINGLE = tuple(tuple(frozenset(w for w in side if "_" not in w) for side in p) for p in CONTRARIES)
_PHRASES = tuple(
    tuple(
        re.compile(r"\b(?:" + "|".join(re.escape(w.replace("_", " ")) for w in ph) + r")\b")
        if (ph := [w for w in side if "_" in w])
        else None
        for side in p
    )
    for p in CONTRARIES
)
# each phrase's words: a phrase is searched for only in a clause holding all of them
_PHRASE_WORDS = tuple(
    tuple(tuple(frozenset(w.split("_")) for w in side if "_" in w) for side in p)
    for p in CONTRARIES
)
# the words of the contrary entries ("turned_down" as "turned" and "down")
CONTRARY_WORDS = frozenset(
    part for pair in CONTRARIES for side in pair for w in side for part in w.split("_")
)
PAST = word_map("irregular_past")
# where a sentence's clauses part (a comma, a dash, a conjunction), en and id
CLAUSE = re.compile(
    r",\s+|;\s+|:\s+|\s+[-–—]\s+|\s+(?:and|but|because|so|while|which|who|although|whereas|"
    r"even\s+though|though|despite|dan|tetapi|namun|karena|sehingga|walaupun|meskipun)\s+"
)
# "X rather than Y", "X instead of Y": Y is the option turned down
# (and Indonesian "daripada"; "over" after a verb of choosing: "chose A over B")
_CHOICE = re.compile(r"\s*,?\s+\b(?:rather\s+than|instead\s+of|daripada)\s+", re.IGNORECASE)
_LEADING_CHOICE = re.compile(r"^\s*(?:rather\s+than|instead\s+of|daripada)\s+", re.IGNORECASE)
_CHOSEN_OVER = re.compile(
    r"\b(?:cho(?:se|ose|oses|osing|sen)|opt(?:s|ed)?\s+for|prefer(?:s|red)?|pick(?:s|ed)?|"
    r"select(?:s|ed)?|went\s+with|go(?:es)?\s+with)\b.*?(\s+over\s+)",
    re.IGNORECASE,
)
# Indonesian verbs and nouns share a root under their affixes: di-/meN-/peN-/ber-/ter-,
# -kan/-an/-nya ("diajukan", "mengajukan", "pengajuan")
_ID_PREFIX = re.compile(r"^(?:di|ter|ber|meng|peng|mem|pem|men|pen|me|pe)(?=[a-z]{4,})")
_ID_SUFFIX = re.compile(r"(?<=[a-z]{4})(?:kan|nya|an)$")


# "in" said of a thing kept in a plan ("the API is in.", "(in, ...)", "stays in", "is in
# for Q3"): read as
# "in scope", the side of a decision opposite "deferred" (`words/contraries.txt`)
_KEPT_IN = re.compile(
    r"(?:\(|\b(?:is|are|was|were|be|stays?|stayed|remains?|remained|kept|keeps?)\s+)in\b"
    r"(?=\s*(?:[,.;:)]|$)|\s+for\s)",
    re.IGNORECASE,
)


def kept_in(text: str) -> str:
    """A text with a thing's "in" as "in scope" ("Mobile (in, as planned)": "in scope")."""
    return _KEPT_IN.sub(lambda m: m.group(0) + " scope", text)


def contrary_sides(ws: list[str]) -> frozenset[tuple[int, int]]:
    """The (contrary pair, side) of every contrary word or phrase among the words `ws`."""
    present = CONTRARY_WORDS.intersection(ws)
    if not present:
        return frozenset()  # (most clauses)
    joined = " ".join(ws)
    out: set[tuple[int, int]] = set()
    for k, (single, phrases) in enumerate(zip(_SINGLE, _PHRASES, strict=True)):
        for side in (0, 1):
            ph = phrases[side]
            if not single[side].isdisjoint(present) or (
                ph is not None
                and any(parts <= present for parts in _PHRASE_WORDS[k][side])
                and ph.search(joined)
            ):
                out.add((k, side))
    return frozenset(out)


def negation_scope(ws: list[str], negs: list[int]) -> set[str]:
    """The content words the negations at `negs` bear on.

    The first content word after each ("not offered", "won't be any charge", "agreed not to
    move"), and the first after an "any" it governs: "any" marks the negated object ("not
    asking for any increase" denies the increase, not only the asking).
    """
    out: set[str] = set()
    for i in negs:
        out |= set(content_of(ws[i + 1 : i + 5])[:1])
        after = ws[i + 1 : i + 5]
        if "any" in after:
            out |= set(content_of(after[after.index("any") + 1 :] + ws[i + 5 : i + 7])[:1])
    return out


def base_forms(ws: list[str]) -> list[str]:
    """The words with irregular past forms as their base verb ("gave" -> "give")."""
    return [PAST.get(w, w) for w in ws]


@lru_cache(maxsize=50_000)
def root(w: str) -> str:
    """A word without Indonesian affixes ("mengajukan" -> "ajuk"), else the word itself."""
    r = _ID_SUFFIX.sub("", _ID_PREFIX.sub("", w))
    return r if len(r) >= 4 else w


@lru_cache(maxsize=65536)  # pure, and asked for the same pairs of words again and again
def same_word(a: str, b: str) -> bool:
    """Whether two content stems are forms of one word (`text.alike`, or one root)."""
    return alike(a, b) or root(a) == root(b)


def shared_words(a: frozenset[str], b: frozenset[str]) -> set[str]:
    """The words of `a` that have a form in `b` (exact first: most are)."""
    return {w for w in a if w in b or any(same_word(w, x) for x in b)}


def choice(text: str) -> tuple[str, str]:
    """A clause split into what it asserts and the option it turns down ("" when none).

    "the page ships in 4.12 rather than moving to 4.13" -> ("the page ships in 4.12",
    "moving to 4.13"); "instead of cancelling" -> ("", "cancelling").
    """
    if m := _LEADING_CHOICE.match(text):
        return "", text[m.end() :]
    head, sep, tail = _split_once(text)
    return (head, tail) if sep else (text, "")


def _split_once(text: str) -> tuple[str, str, str]:
    m = _CHOICE.search(text)
    if m is None:
        over = _CHOSEN_OVER.search(text)
        if over is None:
            return text, "", ""
        return text[: over.start(1)], over.group(1), text[over.end(1) :]
    return text[: m.start()], m.group(0), text[m.end() :]


def chosen_and_turned_down(text: str) -> tuple[tuple[str, ...], str] | None:
    """The content words either side of "rather than" / "instead of", or None.

    The option chosen is among the last three content words before the phrase (the verb
    may come before its object: "pause the membership rather than cancel it"), the one
    turned down is the first content word after it: "frozen rather than cancelled" ->
    (("frozen",), "cancell").
    """
    head, tail = choice(text)
    if not head or not tail:
        return None
    before = content_of(base_forms(words(head)))
    after = content_of(base_forms(words(tail)))
    if not before or not after:
        return None
    return tuple(before[-3:]), after[0]


def swapped(summary: tuple[tuple[str, ...], str], source: tuple[tuple[str, ...], str]) -> bool:
    """Whether two choices name the same two options the other way round."""
    (s_yes, s_no), (t_yes, t_no) = summary, source
    return (
        any(same_word(x, t_no) for x in s_yes)
        and any(same_word(s_no, y) for y in t_yes)
        and not same_word(s_no, t_no)
        and not any(same_word(s_no, x) for x in s_yes)  # ("X rather than X" says nothing)
    )


RELATIONS = word_pairs("relations")


def relation_sides(ws: list[str]) -> frozenset[tuple[int, int, str]]:
    """The (relation pair, side, a thing after it) of the relation words among `ws`.

    "fixed before release" -> {(0, 0, "release")}: the first two content words of the four
    after the relation word (a name may come first: "more than Ingrid's policy"); a
    relation word with none after it is not read.
    """
    out: set[tuple[int, int, str]] = set()
    for i, w in enumerate(ws):
        for k, pair in enumerate(RELATIONS):
            for side in (0, 1):
                if w in pair[side]:
                    out |= {(k, side, x) for x in content_of(ws[i + 1 : i + 5])[:2]}
    return frozenset(out)


def opposite_relation(
    s: frozenset[tuple[int, int, str]], t: frozenset[tuple[int, int, str]]
) -> bool:
    """Whether `s` puts a thing on one side of a relation and `t` on the other, only."""
    return any(
        k == k2
        and side != side2
        and same_word(x, y)
        and not any(k3 == k and side3 == side and same_word(x, z) for k3, side3, z in t)
        and not any(k3 == k and side3 == side2 and same_word(x, z) for k3, side3, z in s)
        for k, side, x in s
        for k2, side2, y in t
    )
