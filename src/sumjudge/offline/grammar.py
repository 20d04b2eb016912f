"""Agreement errors in English: word pairs no fluent writer produces, found without a parser.

Each rule is a short pattern whose every match is an error, whatever the topic:

- "their" for "there" before a form of "be" ("Their is many ...");
- "there is/was" before a plural quantifier ("there is many customers");
- a plural quantifier before a singular noun that heads its phrase ("many customer which
  ...": the next word is a verb, a relative pronoun, a preposition or the end, so the noun
  is not a modifier as in "many customer accounts"; the noun's plural is used in the
  summary or the source, so it is a countable noun);
- a form of "be" before a bare verb that is never an adjective or a noun
  ("is still depend on", `words/bare_verbs.txt`);
- a subject pronoun with the wrong verb form at the start of a clause ("they is", "he
  have", "it don't").

English only: the patterns are English words, and other languages are left alone.
"""

from __future__ import annotations

from .lexicon import word_set
from .text import words

BARE_VERBS = word_set("bare_verbs")
_BE = frozenset(["is", "are", "was", "were", "am", "be"])
_BE_SINGULAR = frozenset(["is", "was", "has", "does", "doesn't", "isn't", "wasn't", "hasn't"])
_QUANTIFIERS = frozenset(
    [
        "many",
        "several",
        "few",
        "various",
        "numerous",
        "multiple",
        "these",
        "those",
        "both",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "twelve",
    ]
)
# a word after the head noun of a phrase: a verb, a relative pronoun, a preposition
_AFTER_HEAD = frozenset(
    [
        "which",
        "that",
        "who",
        "is",
        "are",
        "was",
        "were",
        "has",
        "have",
        "had",
        "do",
        "does",
        "will",
        "would",
        "can",
        "could",
        "should",
        "still",
        "also",
        "in",
        "on",
        "at",
        "of",
        "for",
        "with",
        "from",
        "by",
        "and",
        "or",
        "but",
    ]
)
_ADVERBS = frozenset(["still", "also", "now", "already", "currently", "not", "always", "often"])
_SUBJECT_VERB = {
    "they": frozenset(["is", "was", "has", "does", "doesn't", "isn't", "wasn't", "hasn't"]),
    "we": frozenset(["is", "was", "has", "does", "doesn't", "isn't", "wasn't", "hasn't"]),
    "he": frozenset(["are", "have", "do", "don't", "aren't", "haven't", "am"]),
    "she": frozenset(["are", "have", "do", "don't", "aren't", "haven't", "am"]),
    "it": frozenset(["are", "have", "do", "don't", "aren't", "haven't", "am"]),
    "i": frozenset(["is", "are", "has", "does", "doesn't", "isn't", "aren't", "hasn't"]),
}
# before a subject pronoun: its verb may follow it correctly in a question or after a
# modal ("does he have", "should it be"), so only a sentence start or a conjunction counts
_CLAUSE_START = frozenset(["and", "but", "so", "because", "when", "since", "although"])


def _plural_forms(w: str) -> tuple[str, ...]:
    if w.endswith("y") and len(w) > 2 and w[-2] not in "aeiou":
        return (w[:-1] + "ies",)
    if w.endswith(("s", "x", "ch", "sh")):
        return (w + "es",)
    return (w + "s",)


def agreement_errors(sent: str, vocabulary: set[str]) -> list[str]:
    """The agreement errors of one sentence, each as the words at fault ("many customer").

    Args:
        sent: The sentence.
        vocabulary: Words the summary and its source use (a noun's plural is looked up
            there, to know the word is a countable noun).
    """
    ws = words(sent)
    out: list[str] = []
    for i, w in enumerate(ws):
        nxt = ws[i + 1] if i + 1 < len(ws) else ""
        after = ws[i + 2] if i + 2 < len(ws) else ""
        if w == "their" and nxt in _BE:
            out.append(f"{w} {nxt}")
        elif w == "there" and nxt in _BE_SINGULAR and after in _QUANTIFIERS - {"these", "those"}:
            out.append(f"{nxt} {after}")
        elif (
            w in _QUANTIFIERS
            and nxt.isalpha()
            and not nxt.endswith("s")
            and any(p in vocabulary for p in _plural_forms(nxt))
            and (after in _AFTER_HEAD or after == "")
            and (i == 0 or ws[i - 1] not in ("a", "the", "of"))
        ):
            out.append(f"{w} {nxt}")
        elif w in _BE and (nxt in BARE_VERBS or (nxt in _ADVERBS and after in BARE_VERBS)):
            out.append(f"{w} {nxt}" + (f" {after}" if nxt in _ADVERBS else ""))
        elif (
            w in _SUBJECT_VERB
            and nxt in _SUBJECT_VERB[w]
            and (i == 0 or ws[i - 1] in _CLAUSE_START)
        ):
            out.append(f"{w} {nxt}")
    return out
