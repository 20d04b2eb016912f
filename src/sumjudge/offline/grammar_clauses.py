"""English agreement errors across a clause: relatives after a comma, joined subjects, idioms.

Found without a parser, from patterns whose every match is an error whatever the topic:

- a relative "which" or "who" after a comma and a singular noun, with a bare verb ("the
  second step, which sit below"): after a comma "which" may stand for the whole clause,
  but that is singular too, so a bare verb is wrong either way (not after a list joined by
  "and": "the printer and the scanner, which need");
- two noun phrases each with its own determiner, joined by "and", as the subject of "is",
  "was" or "has" ("the printer and the scanner is"); a second conjunct without a
  determiner may be one thing named twice ("our CEO and founder is") or a compound
  modifier ("the sales and marketing team is"), so it is left alone;
- a singular subject's second verb, bare after "and" or "but" ("Ann was late but need
  help"), when the first verb is finite and no "to", modal or bare verb comes between
  (those govern a bare verb: "made the team stop and think");
- a determined singular noun before a verb that is never a noun, ending the clause,
  anywhere in the sentence ("after the restart the router reconnect."), unless a verb of
  perception or causing precedes it ("let the router reconnect") or "and" joins two
  subjects;
- "last" or "next" after a preposition before a plural unit of time ending the phrase
  ("of last years", "for next weeks");
- a plural noun and "are" or "were" ending the clause ("no bags are;"; not before a
  colon, which opens a list) where no wh-word, "as", "than" or "way" before makes it a
  clause of its own ("as they are");
- a fixed phrase with a wrong word (`words/wrong_phrases.txt`: "under the way",
  "discuss about").

`and_clause` tells `grammar_subjects` where "and" without a comma opens a new clause, so
its subject is checked like any other ("the rate is fixed and the quote were ...").
"""

from __future__ import annotations

from .grammar_verbs import (
    ADVERBS,
    BARE_VERBS,
    BE,
    COMMON_VERBS,
    DO,
    HAVE,
    MODALS,
    SINGULAR_BE,
    join_words,
    singular_head,
)
from .lexicon import STOP, word_set

_TIME_UNITS = frozenset(["days", "weeks", "months", "years", "quarters", "decades"])
_BEFORE_TIME = frozenset(["of", "from", "since", "for", "until", "in", "over", "during"])
# a verb of perception or causing takes an object and a bare verb ("saw the pump stop")
_CAUSATIVES = frozenset(
    [
        *("let", "lets", "make", "makes", "made", "help", "helps", "helped", "have", "has"),
        *("had", "see", "sees", "saw", "watch", "watched", "hear", "heard", "get", "got", "to"),
    ]
)
# words that make "... are." a clause of its own ("where they are", "the way things are")
_OPEN_CLAUSE = frozenset(
    [
        *("what", "where", "who", "how", "whoever", "whatever", "wherever", "however"),
        *("which", "as", "than", "way", "here", "there", "whether", "if", "whom", "whose", "why"),
    ]
)
_FINITE_FIRST = frozenset(["is", "was", "were", "are", "has", "had"])
_SCAN_STOP = frozenset(["to", "that", "which", "who", "when", "because", "if", "while"])

WRONG_PHRASES = tuple(tuple(p.split()) for p in word_set("wrong_phrases"))
# determiners that make each conjunct one thing ("the X and the Y"); "each", "every" and
# "no" take a singular verb over a joined subject ("every man and woman is"), so not them
_OWN_DETERMINERS = frozenset(["the", "this", "that", "his", "her", "its", "our", "their", "my"])
_BOUNDARIES = frozenset([",", ";", ":", "(", ")", "-", "•", "*", "."])
_FINITE = BE | HAVE | MODALS | DO | frozenset(["does", "did"])


def clause_errors(raw: list[str], toks: list[str]) -> list[str]:
    """The relative, joined-subject and fixed-phrase errors of one tokenised sentence.

    Args:
        raw: The sentence's tokens as written (capitals mark names).
        toks: The same tokens in lower case.
    """
    out: list[str] = []
    for i, t in enumerate(toks):
        if t in ("which", "who") and i >= 2 and toks[i - 1] == ",":
            out += _relative_after_comma(raw, toks, i)
        if t in _OWN_DETERMINERS and (i == 0 or toks[i - 1] in _BOUNDARIES):
            out += _joined_subject(raw, toks, i)
        elif t in ("the", "this", "his", "her", "its", "our", "their", "my") and i > 0:
            out += _subject_before_end(raw, toks, i)
        nxt = toks[i + 1] if i + 1 < len(toks) else ""
        after = toks[i + 2] if i + 2 < len(toks) else ""
        time = t in ("last", "next") and i > 0 and toks[i - 1] in _BEFORE_TIME
        # ("of last years'" is a possessive: no error)
        ends = after == "" or (after in _BOUNDARIES and after not in ("'", "’"))
        if time and nxt in _TIME_UNITS and ends:
            out.append(f"{t} {nxt}")
        # (not before ":", which opens a list: "the results are: ...")
        if t in ("are", "were") and i > 0 and (nxt in (";", ".") or nxt == ""):
            ante = toks[i - 1]
            plural = ante.endswith("s") and ante.isalpha() and len(ante) > 3 and ante not in STOP
            if plural and not _OPEN_CLAUSE & set(toks[:i]):
                out.append(f"{ante} {t}{nxt}")
    return out + phrase_errors(toks)


_PP_OPENERS = frozenset(["at", "of", "in", "on", "for", "with", "from", "about"])
_OBJECT_WORDS = frozenset(["the", "a", "an", "this", "his", "her", "its", "our", "their", "my"])


def bare_after_preposition(toks: list[str], j: int) -> int:
    """The index of a never-noun bare verb after a short prepositional phrase at `j`, or -1.

    "the alert at 95% give": the phrase at `j` holds up to four words, numbers or "%"; the
    verb comes after a word of it (not right after the preposition or an article, where
    it would be a noun: "the cost of repair").
    """
    if j < 0 or toks[j] not in _PP_OPENERS:
        return -1
    for m in range(j + 2, min(len(toks), j + 6)):
        t, before = toks[m], toks[m - 1]
        after = toks[m + 1] if m + 1 < len(toks) else ""
        if t in BARE_VERBS and before not in _OBJECT_WORDS:
            return m if after not in BE | HAVE | {"and", "or"} else -1
        if not (t.isalnum() or t == "%") or (t in STOP and t not in _OBJECT_WORDS):
            return -1
    return -1


def coordinated_bare(raw: list[str], toks: list[str], j: int) -> list[str]:
    """A singular subject's second verb, bare after "and"/"but": "was late but need help".

    `j` is the subject's first verb; it must be finite ("is", "was", "had"...). Scanning
    stops at punctuation, "to", a modal, a relative or a bare verb: those govern a bare
    verb of their own ("was asked to stay and help", "made the team stop and think").
    """
    if j < 0 or toks[j] not in _FINITE_FIRST:
        return []
    for k in range(j + 1, min(len(toks) - 1, j + 9)):
        t = toks[k]
        if not t.isalnum() or t in _SCAN_STOP or t in MODALS or t in BARE_VERBS:
            return []
        if t in COMMON_VERBS:
            return []
        if t in ("and", "but"):
            v, after = toks[k + 1], toks[k + 2] if k + 2 < len(toks) else ""
            verb = v in BARE_VERBS or (v in COMMON_VERBS and after.isalpha() and after not in STOP)
            if verb and raw[k + 1][:1].islower():
                return [f"{t} {v}"]
            return []
    return []


def _subject_before_end(raw: list[str], toks: list[str], i: int) -> list[str]:
    """A noun and a never-noun verb ending the clause: "after it the router reconnect."."""
    if toks[i - 1] in _CAUSATIVES or toks[i - 1] in MODALS or toks[i - 1] in ("and", "or"):
        return []
    k = _phrase_end(toks, i + 1)
    if k == i + 1 or k + 1 >= len(toks) + 1 or k >= len(toks):
        return []
    head, v = toks[k - 1], toks[k]
    nxt = toks[k + 1] if k + 1 < len(toks) else ""
    if raw[k - 1][:1].isupper() or not singular_head(head) or v not in BARE_VERBS:
        return []
    if nxt not in ("", ".", ";", "!", "?"):
        return []
    return [join_words(raw[i : k + 1])]


def phrase_errors(toks: list[str]) -> list[str]:
    """The fixed phrases with a wrong word in a sentence's lower-case tokens."""
    out: list[str] = []
    for phrase in WRONG_PHRASES:
        n = len(phrase)
        if any(tuple(toks[k : k + n]) == phrase for k in range(len(toks) - n + 1)):
            out.append(" ".join(phrase))
    return out


def _relative_after_comma(raw: list[str], toks: list[str], i: int) -> list[str]:
    """A singular noun, a comma, "which"/"who", a bare verb: "the step, which sit below"."""
    ante, ante_raw = toks[i - 2], raw[i - 2]
    if not ante.isalpha() or ante_raw[:1].isupper() or not singular_head(ante) or ante in STOP:
        return []  # a name ("Leeds United, who play") may take a plural verb
    for t in reversed(toks[: i - 2]):  # a list before the comma: "the A and the B, which"
        if t in _BOUNDARIES:
            break
        if t in ("and", "or"):
            return []
    j = i + 1
    if j < len(toks) and toks[j] in ADVERBS - {"not"}:
        j += 1
    v = toks[j] if j < len(toks) else ""
    if v in BARE_VERBS or (v in COMMON_VERBS and not v.endswith(("s", "ed"))):
        return [join_words(raw[i - 2 : j + 1])]
    return []


def _joined_subject(raw: list[str], toks: list[str], i: int) -> list[str]:
    """Two determined noun phrases, "and", a singular verb: "the printer and the scanner is"."""
    first = _phrase_end(toks, i + 1)
    if first == i + 1 or first >= len(toks) or toks[first] != "and":
        return []
    if first + 1 >= len(toks) or toks[first + 1] not in _OWN_DETERMINERS:
        return []
    second = _phrase_end(toks, first + 2)
    if second == first + 2 or second >= len(toks):
        return []
    heads = (toks[first - 1], toks[second - 1])
    if any(raw[k][:1].isupper() for k in (first - 1, second - 1)):
        return []  # a name ends a phrase: "the Smith and the Jones" is no common noun pair
    if not all(h.isalpha() and len(h) >= 3 for h in heads):
        return []
    v = toks[second]
    return [join_words(raw[i : second + 1])] if v in SINGULAR_BE else []


def _phrase_end(toks: list[str], k: int) -> int:
    """Past up to three modifiers and a head noun from `k`: where the phrase stops."""
    start = k
    while k < len(toks) and k - start < 4:
        t = toks[k]
        if not t.isalpha() or t in STOP or t in _FINITE or t in ADVERBS or t in BARE_VERBS:
            break
        k += 1
    return k


def and_clause(toks: list[str], i: int) -> bool:
    """Whether "and" before `i` (no comma) joins a new clause to a clause with a verb.

    The words since the last punctuation hold a finite auxiliary ("is", "has", "will")
    with two or more words after it: "the rate is fixed at 5% and the quote were ...";
    "Ann and Ben are" has no verb before "and", so the two are one subject.
    """
    if i < 4 or toks[i - 1] != "and":
        return False
    for n, k in enumerate(range(i - 2, -1, -1)):
        t = toks[k]
        in_number = t == "," and toks[k - 1].isdigit() and toks[k + 1].isdigit()
        if t in _BOUNDARIES and not in_number:  # "$38,000" is one number
            break
        if t in _FINITE:
            return n >= 2
    return False
