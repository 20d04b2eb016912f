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
    return out + phrase_errors(toks)


def phrase_errors(toks: list[str]) -> list[str]:
    """The fixed phrases with a wrong word in a sentence's lower-case tokens."""
    out: list[str] = []
    for phrase in WRONG_PHRASES:
        n = len(phrase)
        if any(tuple(toks[k : k + n]) == phrase for k in range(len(toks) - n + 1)):
            out.append(" ".join(phrase))
    return out


def _relative_after_comma(raw: list[str], toks: list[str], i: int) -> list[str]:
    """ "the step, which sit below": a singular noun, a comma, "which"/"who", a bare verb."""
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
    """ "the printer and the scanner is": two determined noun phrases and a singular verb."""
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
