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
  have", "she still have", "so he were");
- a modal before an inflected verb ("can starts", "will starting", "should not drives"),
  the inflected verb's base being a word of the summary or the source;
- a count above one before a singular noun that ends its phrase ("two day was", "90
  ticket on", "within ten minute."), the noun's plural used in the summary or the source;
- "going" before a bare verb without "to" ("is going be");
- verb forms that are no English word ("bringed", `words/wrong_forms.txt`).

English only: the patterns are English words, and other languages are left alone.
"""

from __future__ import annotations

import re

from .lexicon import word_set
from .text import words

BARE_VERBS = word_set("bare_verbs")
WRONG_FORMS = word_set("wrong_forms")
_MODALS = frozenset(["will", "would", "can", "could", "should", "must", "shall"])
_GOING_BARE = frozenset(["be", "have", "get", "do", "make", "take", "send", "start", "give"])
# words ending in "s" that are not a verb's third person ("will always", "can perhaps")
_S_WORDS = frozenset(["always", "perhaps", "sometimes", "afterwards", "nevertheless", "thus"])
_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)?|[^\w\s]")
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
    out: list[str] = [w for w in ws if w in WRONG_FORMS]
    out += _modal_errors(ws, vocabulary) + _count_errors(sent, vocabulary)
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
        elif w in _SUBJECT_VERB and (i == 0 or ws[i - 1] in _CLAUSE_START):
            verb = after if nxt in _ADVERBS else nxt
            if verb in _SUBJECT_VERB[w] or (w in ("he", "she", "it") and verb == "were"):
                out.append(f"{w} {nxt}" + (f" {after}" if nxt in _ADVERBS else ""))
        elif w == "going" and nxt in _GOING_BARE and i > 0 and ws[i - 1] in _BE:
            out.append(f"{w} {nxt}")
    return out


def _modal_errors(ws: list[str], vocabulary: set[str]) -> list[str]:
    """A modal before an inflected verb ("can starts", "will starting", "should not drives")."""
    out: list[str] = []
    for i, w in enumerate(ws[:-1]):
        if w not in _MODALS:
            continue
        j = i + 2 if ws[i + 1] in ("not", *_ADVERBS) and i + 2 < len(ws) else i + 1
        v = ws[j]
        if v in _S_WORDS or not v.isalpha() or len(v) < 4:
            continue
        inflected = v.endswith("s") and not v.endswith(("ss", "us", "is")) and v[:-1] in vocabulary
        inflected = inflected or (v.endswith("ing") and len(v) > 5 and v[:-3] in vocabulary)
        if inflected:
            out.append(" ".join(ws[i : j + 1]))
    return out


def _count_errors(sent: str, vocabulary: set[str]) -> list[str]:
    """A count above one before a singular noun ending its phrase ("two day was")."""
    toks = _TOKEN.findall(sent.lower())
    out: list[str] = []
    for i, t in enumerate(toks[:-1]):
        n = _small_count(t)
        if n is None or n < 2 or (i > 0 and toks[i - 1] in (".", ",", "-", "/", ":")):
            continue
        noun = toks[i + 1]
        nxt = toks[i + 2] if i + 2 < len(toks) else ""
        plural = noun + ("es" if noun.endswith(("s", "x", "ch", "sh")) else "s")
        ends = nxt in _AFTER_HEAD or nxt == "" or (len(nxt) == 1 and not nxt.isalnum())
        if noun.isalpha() and not noun.endswith("s") and plural in vocabulary and ends:
            out.append(f"{t} {noun}")
    return out


def _small_count(t: str) -> int | None:
    if t.isdigit() and len(t) <= 4:
        return int(t)
    return {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}.get(t)
