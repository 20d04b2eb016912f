"""Agreement errors in English: word pairs no fluent writer produces, found without a parser.

Each rule is a short pattern whose every match is an error, whatever the topic:

- "their" for "there" before a form of "be" ("Their is many ...");
- "there is/was" before a plural quantifier ("there is many customers");
- a plural quantifier before a singular noun that heads its phrase ("many customer which
  ...": the next word is a verb, a relative pronoun, a preposition or the end, so the noun
  is not a modifier as in "many customer accounts"; the noun's plural is used in the
  summary or the source, so it is a countable noun);
- a subject pronoun with the wrong verb form at the start of a clause ("they is", "he
  have", "she still have", "so he were");
- a count above one before a singular noun that ends its phrase ("two day was", "90
  ticket on", "within ten minute.", "four daily main is"), the noun's plural used in the
  summary or the source; not after a name ("Falcon 9 rocket": a model's number);
- a singular determiner before a plural noun ("this months", "per platforms", "a
  two-minutes restart"), the noun's singular used in the summary or the source;
- a double comparative ("more lower", "the most best", "a more cheap quote");
- "going" before a bare verb without "to" ("is going be");
- verb forms that are no English word ("bringed", `words/wrong_forms.txt`);
- the verb-form errors of `grammar_verbs` (a subject or an auxiliary with the wrong form).

`grammar_errors` applies these to English summaries and `grammar_id`'s rules to
Indonesian ones; other languages are left alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from .grammar_id import indonesian_errors
from .grammar_subjects import KnownWords, verb_form_errors
from .grammar_verbs import BARE_VERBS, IRREGULAR_BASES, SINGULAR_S, base_verb
from .lexicon import FRACTION_WORDS, MONTHS, ORDINAL_WORDS, STOP, TITLES, word_set
from .text import words

WRONG_FORMS = word_set("wrong_forms")
_GOING_BARE = frozenset(["be", "have", "get", "do", "make", "take", "send", "start", "give"])
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
_AFTER_HEAD = word_set("after_head")
_ADVERBS = frozenset(["still", "also", "now", "already", "currently", "not", "always", "often"])
_SUBJECT_VERB = {
    "they": frozenset(["is", "was", "has", "does", "doesn't", "isn't", "wasn't", "hasn't"]),
    "we": frozenset(["is", "was", "has", "does", "doesn't", "isn't", "wasn't", "hasn't"]),
    "he": frozenset(["are", "have", "do", "don't", "aren't", "haven't", "am"]),
    "she": frozenset(["are", "have", "do", "don't", "aren't", "haven't", "am"]),
    "it": frozenset(["are", "have", "do", "don't", "aren't", "haven't", "am"]),
    "i": frozenset(["is", "are", "has", "does", "doesn't", "isn't", "aren't", "hasn't"]),
}
COMPARATIVES = word_set("comparatives")
SHORT_ADJECTIVES = word_set("short_adjectives")
# words between "a" and a plural that make it right ("a few days", "a couple weeks")
_NOT_MODIFIERS = word_set("plural_quantities")
# prepositions that never take "of" ("despite of", "above of the policy")
_NOT_BEFORE_OF = frozenset(["despite", "above", "during", "within", "until", "towards"])
_PREPOSITIONS = frozenset(["in", "on", "at", "for", "with", "from", "by", "to", "about"])
_COUNT_WORDS = frozenset(["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"])
# before a subject pronoun: its verb may follow it correctly in a question or after a
# modal ("does he have", "should it be"), so only a sentence start or a conjunction counts
_CLAUSE_START = frozenset(["and", "but", "so", "because", "when", "since", "although"])


def _plural_forms(w: str) -> tuple[str, ...]:
    if w.endswith("y") and len(w) > 2 and w[-2] not in "aeiou":
        return (w[:-1] + "ies",)
    if w.endswith(("s", "x", "ch", "sh")):
        return (w + "es",)
    return (w + "s",)


#: Fluency is poor (1) with two or more language errors and one per this many sentences.
SENTENCES_PER_ERROR = 10


def garbled(n_errors: int, n_sentences: int) -> bool:
    """Whether language errors make a summary's fluency poor: two or more, at a rate.

    Language errors are grammar errors and broken sentences. At least one per
    `SENTENCES_PER_ERROR` sentences: two in a summary of up to 20 sentences, three in one
    of 30; one slip in a long summary leaves it fair. Monotone in the errors, and
    explained by their count.
    """
    return n_errors >= 2 and n_errors * SENTENCES_PER_ERROR >= n_sentences


def grammar_errors(
    sents: Sequence[str],
    vocabulary: set[str],
    language: str,
    persons: frozenset[str] = frozenset(),
    names: frozenset[str] = frozenset(),
) -> list[list[str]]:
    """The grammar errors of each sentence of a summary, each as the words at fault.

    Args:
        sents: The summary's sentences.
        vocabulary: Lower-case words the summary and its source use.
        language: The summary's language ("en", "id"; others get no errors).
        persons: Lower-case names of the people of the source (`grammar_verbs`).
        names: Lower-case proper names of the source and summary.
    """
    known = KnownWords(vocabulary, persons, names)
    if language == "id":
        return [indonesian_errors(s, known.all_names) for s in sents]
    if language != "en":
        return [[] for _ in sents]
    return [agreement_errors(s, known) for s in sents]


def agreement_errors(sent: str, known: KnownWords) -> list[str]:
    """The grammar errors of one English sentence, each as the words at fault ("many customer").

    Args:
        sent: The sentence.
        known: The words and names of the summary and its source.
    """
    vocabulary = known.vocabulary
    ws = words(sent)
    out: list[str] = [w for w in ws if w in WRONG_FORMS]
    out += _count_errors(sent, vocabulary) + _number_errors(sent, vocabulary)
    for i, w in enumerate(ws):
        nxt = ws[i + 1] if i + 1 < len(ws) else ""
        after = ws[i + 2] if i + 2 < len(ws) else ""
        before = ws[i - 1] if i > 0 else ""
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
            and before not in ("a", "the")
            and (before != "of" or w in ("these", "those"))
        ):
            out.append(f"{w} {nxt}")
        elif w in _SUBJECT_VERB and (i == 0 or before in _CLAUSE_START):
            verb = after if nxt in _ADVERBS else nxt
            if verb in _SUBJECT_VERB[w] or (w in ("he", "she", "it") and verb == "were"):
                out.append(f"{w} {nxt}" + (f" {after}" if nxt in _ADVERBS else ""))
        elif w == "of" and before in _NOT_BEFORE_OF:
            out.append(f"{before} of")
        elif w == "on" and nxt in MONTHS and not (after[:1].isdigit() or after in ORDINAL_WORDS):
            out.append(f"on {nxt}")  # "on June" (a day is "on", a month "in")
        elif (w == "going" and nxt in _GOING_BARE and before in _BE) or (
            w in ("more", "most") and _double_comparative(ws, i)
        ):
            out.append(f"{w} {nxt}")
    out += verb_form_errors(sent, known)
    # one error found by two rules ("two day" is a count and a quantifier) is one error
    return list(dict.fromkeys(out))


def _double_comparative(ws: list[str], i: int) -> bool:
    """A double comparative: "more lower", "most best", "a more cheap quote"."""
    nxt = ws[i + 1] if i + 1 < len(ws) else ""
    if nxt in COMPARATIVES:
        return True
    return nxt in SHORT_ADJECTIVES and i > 0 and ws[i - 1] in ("a", "an", "the", "much", "far")


def _number_errors(sent: str, vocabulary: set[str]) -> list[str]:
    """A singular determiner before a plural noun ("this months", "a two-minutes restart")."""
    toks = _TOKEN.findall(sent.lower())
    out: list[str] = []
    for i, t in enumerate(toks[:-1]):
        noun = toks[i + 1]
        nxt = toks[i + 2] if i + 2 < len(toks) else ""
        if t in ("this", "per") and _regular_plural(noun, vocabulary, t == "per"):
            # "this" before a verb in "-s" is a subject ("this helps."): only a plural
            # that is no verb of the text, ending its phrase, is an error
            ends = nxt == "" or not nxt.isalnum() or t == "per"
            if ends and (t == "per" or not base_verb(noun[:-1], vocabulary)):
                out.append(f"{t} {noun}")
        elif t in ("a", "an"):
            out += _article_plural(toks, i, vocabulary)
        elif (t.isdigit() or t in _COUNT_WORDS) and i > 0 and toks[i - 1] in ("a", "an"):
            # "a two-minutes restart": a count joined to a plural noun before another noun
            unit = toks[i + 2] if i + 2 < len(toks) else ""
            after = toks[i + 3] if i + 3 < len(toks) else ""
            if noun == "-" and _regular_plural(unit, vocabulary, True) and after.isalpha():
                out.append(f"a {t}-{unit}")
    return out


def _article_plural(toks: list[str], i: int, vocabulary: set[str]) -> list[str]:
    """An article, up to two modifiers and a plural noun ending its phrase ("a status notes").

    The plural is no "-s" form of a verb of the text ("a vendor works on").
    """
    for k in (i + 1, i + 2, i + 3):
        w = toks[k] if k < len(toks) else ""
        nxt = toks[k + 1] if k + 1 < len(toks) else ""
        if k > i + 1 and _regular_plural(w, vocabulary):
            # not before "." or ",": "..., an official says." is a verb
            ends = nxt in _PREPOSITIONS or nxt in (";", ":", ")")
            verb = w[:-1] in STOP or w[:-1] in IRREGULAR_BASES or base_verb(w[:-1], vocabulary)
            if ends and not verb:
                return [" ".join(toks[i : k + 1])]
            return []
        plural_like = w.endswith("s") and not w.endswith(("ss", "us", "is"))
        if not w.isalpha() or plural_like or w in STOP or w in _NOT_MODIFIERS:
            return []
    return []


def _regular_plural(w: str, vocabulary: set[str], plain: bool = False) -> bool:
    """A regular plural noun ("months") whose singular the text uses; no fraction ("thirds").

    `plain`: where only a noun can stand ("per ...", "a two-...s restart") the singular
    need not be in the text.
    """
    if not w.isalpha() or not w.endswith("s") or w.endswith(("ss", "us", "is")) or len(w) < 4:
        return False
    if w in FRACTION_WORDS or w[:-1] in FRACTION_WORDS or w in SINGULAR_S:
        return False
    return plain or w[:-1] in vocabulary


def _count_errors(sent: str, vocabulary: set[str]) -> list[str]:
    """A count above one before a singular noun ending its phrase ("two day was").

    One modifier may come between ("four daily main is"). A number after a name is part
    of it ("Falcon 9 rocket", "Windows 10 laptop"), and one after punctuation is a part
    of a bigger number, a date or a version.
    """
    raw = _TOKEN.findall(sent)
    toks = [t.lower() for t in raw]
    out: list[str] = []
    for i, t in enumerate(toks[:-1]):
        n = _small_count(t)
        # digits after punctuation are part of a bigger number ("1,840"), a count in words never
        if n is None or n < 2 or (i > 0 and t.isdigit() and not toks[i - 1].isalpha()):
            continue
        if i > 0 and raw[i - 1][:1].isupper():
            continue
        for k in (i + 1, i + 2):  # the noun, or a modifier and then the noun
            noun = toks[k] if k < len(toks) else ""
            nxt = toks[k + 1] if k + 1 < len(toks) else ""
            named = k + 1 < len(raw) and raw[k][:1].isupper() and raw[k + 1][:1].islower()
            if k == i + 1 and named:
                continue  # a name before the noun: "two Leeds role remains"
            plural = noun + ("es" if noun.endswith(("s", "x", "ch", "sh")) else "s")
            ends = nxt in _AFTER_HEAD or nxt == "" or (len(nxt) == 1 and not nxt.isalnum())
            ends = ends or _verb_s(nxt)
            if noun.isalpha() and not noun.endswith("s") and plural in vocabulary and ends:
                out.append(" ".join(toks[i : k + 1]))
                break
            if not noun.isalpha() or noun.endswith("s") or noun in _AFTER_HEAD:
                break
            if plural in vocabulary:  # a countable noun: not a modifier ("two year old")
                break
    return out


def _verb_s(w: str) -> bool:
    """A verb in "-s" that is never a noun ("remains", "includes"): the phrase before ends."""
    return w.endswith("s") and (w[:-1] in BARE_VERBS or (w.endswith("es") and w[:-2] in BARE_VERBS))


def _small_count(t: str) -> int | None:
    if t.isdigit() and len(t) <= 4:
        return int(t)
    return {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}.get(t)


_ROLES = word_set("roles")
_TITLED = re.compile(r"(?<![\w'])(?i:" + "|".join(sorted(TITLES)) + r")\.?\s+([A-Z][a-z]+)")
_SINGULAR_NAME = re.compile(r"\b([A-Z][a-z]+)\s+(?:is|was|has|does|isn't|wasn't|hasn't|doesn't)\b")
# not after "and" or a comma: "Ann and Felix were" is a joined subject, no plural name
_PLURAL_NAME = re.compile(
    r"(?<!and )(?<!, )\b([A-Z][a-z]+)\s+(?:are|were|have|aren't|weren't|haven't)\b"
)
_INTRODUCED = re.compile(r"\b(?:[Tt]his is|[Mm]y name is|I'm|I am)\s+([A-Z][a-z]+)")


@lru_cache(maxsize=16)
def persons_of(text: str, speakers: frozenset[str]) -> frozenset[str]:
    """Lower-case names of the people of a source: its speakers, titled and introduced names.

    Role words ("Agent:") are no names. Cached: a source's summaries share the answer.
    """
    out = {w.strip(".").lower() for s in speakers for w in s.split()}
    out |= {m.group(1).lower() for m in _TITLED.finditer(text)}
    out |= {m.group(1).lower() for m in _INTRODUCED.finditer(text)}
    return frozenset(out - TITLES - _ROLES - STOP) | singular_names(text)


def singular_names(text: str) -> frozenset[str]:
    """Lower-case names the text uses with a singular verb ("Felix was"), never a plural one.

    A name never written in lower case, so a capitalised common word at a sentence's start
    ("Budget is tight") is none.
    """
    found = {m.group(1).lower() for m in _SINGULAR_NAME.finditer(text)}
    # a team or a company with plural verbs too ("Liverpool are"): no single person
    plural = {m.group(1).lower() for m in _PLURAL_NAME.finditer(text)}
    return frozenset(found - plural - _lower_words(text) - STOP - TITLES)


_LOWER_WORD = re.compile(r"(?<![\w'’-])[a-z][a-z]+(?![\w-])")


@lru_cache(maxsize=16)
def _lower_words(text: str) -> frozenset[str]:
    return frozenset(_LOWER_WORD.findall(text))


def proper_names(
    source: str, source_names: frozenset[str], summary_names: set[str]
) -> frozenset[str]:
    """Lower-case names that the source and summary never write in lower case.

    A capitalised word at the start of a sentence is taken for a name by `entities.names`
    ("Current spend is ..."); written in lower case elsewhere ("the current plan") it is a
    common word, and its phrase is checked.
    """
    return frozenset((source_names | summary_names) - _lower_words(source))
