"""English subjects with a verb of the wrong number, found at the start of a clause.

- a person's name or "he", "she", "it" with a bare verb ("Ibrahim write", "she pay",
  "Josh, the agent, explain") or with "are", "were", "have" ("Marco have"); "I", "you",
  "we", "they" with a verb in "-s" ("they needs"); a pronoun with a bare "be" ("until it
  be fixed");
- a singular noun phrase with "are", "were", "have" or a bare "be" ("the rear light are",
  "the estimate be"), or with a verb that is never a noun (`words/bare_verbs.txt`: "the
  plan include"); a plural noun phrase with "is", "was", "has" or such a verb in "-s"
  ("the help articles goes").

A clause start is the sentence's start or a word that opens a clause ("because", "so",
"but"...): a noun phrase after a verb or a preposition is an object, and inverted or
subjunctive clauses ("at the heart of it are", "if it were", "that he pay") are left
alone. Persons are given (`grammar.persons_of`: speakers, titled and introduced names, and
names used with "is"/"was" only); other names (teams, companies: British English gives
them plural verbs) are never checked. `verb_form_errors` adds `grammar_verbs`' auxiliary
errors: it is the English verb rules' entry point. `KnownWords` is what every English rule
knows beyond the sentence it reads: the words and names of the summary and its source.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from .grammar_clauses import and_clause, bare_after_preposition, clause_errors, coordinated_bare
from .grammar_verbs import (
    ADVERBS,
    BARE_VERBS,
    BE,
    HAVE,
    MODALS,
    PLURAL_BE,
    PLURAL_PRONOUNS,
    SINGULAR_BE,
    SINGULAR_PRONOUNS,
    auxiliary_errors,
    base_verb,
    join_words,
    plural_head,
    s_form,
    singular_head,
    verb_after,
)
from .lexicon import STOP

_OPENERS = frozenset(
    [
        "because",
        "since",
        "although",
        "though",
        "while",
        "when",
        "so",
        "but",
        "until",
        "unless",
        "once",
        "whereas",
        "as",
        "if",
        "before",
        "after",
        "that",
    ]
)


_SUBJUNCTIVE = {"were": frozenset(["if", "as", "though", "wish"]), "bare": frozenset(["that"])}


_DETERMINERS = frozenset(
    [
        "the",
        "a",
        "an",
        "this",
        "his",
        "her",
        "its",
        "our",
        "their",
        "my",
        "your",
        "each",
        "every",
        "another",
    ]
)


_STOP_ADJECTIVES = frozenset(["new", "same", "other", "own", "whole", "main", "next", "last"])


_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*|[^\w\s]")


@dataclass(frozen=True)
class KnownWords:
    """What the English rules know beyond one sentence: the summary's and its source's words.

    Made once per summary (`grammar.grammar_errors`) and read by every sentence's rules.

    Attributes:
        vocabulary: Lower-case words of the summary and its source (a noun's plural there
            shows that it is a countable noun; a verb's "-ed" form, that a word is a verb).
        persons: Lower-case names of the people of the source (`grammar.persons_of`).
        names: Lower-case proper names of the source and summary (a team or a company:
            never a subject checked for its number).
    """

    vocabulary: set[str]
    persons: frozenset[str] = frozenset()
    names: frozenset[str] = frozenset()

    @cached_property
    def all_names(self) -> frozenset[str]:
        """Every name, of a person or not: a capitalised word no rule reads as a noun."""
        return self.names | self.persons


def verb_form_errors(sent: str, known: KnownWords) -> list[str]:
    """The verb-form errors of one sentence, each as the words at fault ("she pay").

    Args:
        sent: The sentence, as written (capitals mark names).
        known: The words and names of the summary and its source.
    """
    raw = [t.replace("’", "'") for t in _TOKEN.findall(sent)]
    toks = [t.lower() for t in raw]
    out: list[str] = []
    for i, t in enumerate(toks):
        out += auxiliary_errors(toks, i, known.vocabulary)
        if _clause_start(toks, i) or and_clause(toks, i):
            out += _subject(raw, toks, i, known)
        elif i > 0 and toks[i - 1] in ("and", "or") and t in _DETERMINERS:
            out += _noun_subject(raw, toks, i, known, False)
    return out + clause_errors(raw, toks)


def _clause_start(toks: list[str], i: int) -> bool:
    if i == 0 or toks[i - 1] in (";", ":", "-", "•", "*", "(") or toks[i - 1] in _OPENERS:
        return True
    # "and"/"or" after a comma and a clause of some words: a new clause, not a list of
    # subjects ("Ann, Bob, and Carol are")
    if toks[i - 1] not in ("and", "or") or i < 2 or toks[i - 2] != ",":
        return False
    chunk = 0
    for t in reversed(toks[: i - 2]):
        if t in (",", ";", ":"):
            break
        chunk += 1
    return chunk >= 4


def _subject(raw: list[str], toks: list[str], i: int, known: KnownWords) -> list[str]:
    """An error of the subject starting a clause at `i` with its verb, or []."""
    vocabulary, persons = known.vocabulary, known.persons
    t = toks[i]
    opener = toks[i - 1] if i > 0 else ""
    if t in SINGULAR_PRONOUNS | PLURAL_PRONOUNS:
        j = verb_after(toks, i + 1)
        v = toks[j] if j >= 0 else ""
        wrong = (
            (t in SINGULAR_PRONOUNS and opener not in _SUBJUNCTIVE["bare"])
            and (base_verb(v, vocabulary, True) or v == "be")
        ) or (t in PLURAL_PRONOUNS and s_form(v, vocabulary))
        second = coordinated_bare(raw, toks, j) if t in SINGULAR_PRONOUNS else []
        return ([" ".join(toks[i : j + 1])] if wrong else []) + second
    if raw[i][:1].isupper() and t in persons:
        k = i + 1
        while k < len(toks) and raw[k][:1].isupper() and toks[k] in persons:
            k += 1  # "Leila Haddad"
        k = _after_apposition(toks, k)
        j = verb_after(toks, k)
        v = toks[j] if j >= 0 else ""
        were_ok = v in ("were", "weren't") and opener in _SUBJUNCTIVE["were"]
        wrong = (v in PLURAL_BE | {"am"} and not were_ok) or (
            opener not in _SUBJUNCTIVE["bare"] and base_verb(v, vocabulary, True)
        )
        return ([join_words(raw[i : j + 1])] if wrong else []) + coordinated_bare(raw, toks, j)
    return _noun_subject(raw, toks, i, known, True)


def _after_apposition(toks: list[str], k: int) -> int:
    """Past an apposition after a name ("Josh, the agent, explain"): where the verb starts."""
    if k + 2 >= len(toks) or toks[k] != "," or toks[k + 1] not in _DETERMINERS:
        return k
    for m in range(k + 2, min(len(toks), k + 7)):
        if toks[m] == ",":
            return m + 1
        if not toks[m].isalnum():
            break
    return k


def _noun_subject(
    raw: list[str], toks: list[str], i: int, known: KnownWords, clause_start: bool
) -> list[str]:
    """A noun phrase starting a clause at `i` ("the rear light are") with a wrong verb."""
    opener = toks[i - 1] if i > 0 else ""
    if not (clause_start or (opener in ("and", "or") and toks[i] in _DETERMINERS)):
        return []  # ("and the estimate be": a bare "be" is wrong after any subject)
    start = i + 1 if toks[i] in _DETERMINERS else i
    # a phrase without a determiner only at the start of a sentence, or a name before a
    # common noun after a clause-joining "and" ("and Acme renewal quote were")
    named = opener == "and" and raw[i][:1].isupper() and raw[i + 1 : i + 2] != []
    if named and not raw[i + 1][:1].islower():
        named = False
    if start == i and i > 0 and opener not in (";", ":", "-", "•", "*") and not named:
        return []
    k = start
    while k < len(toks) and k - start < 5 and _in_phrase(toks[k]):
        if k > start and (_verb_only(toks[k]) or toks[k].endswith("ed")):
            break  # the verb ends the phrase
        k += 1
    if k == start or k >= len(toks):
        return []
    head, head_raw = toks[k - 1], raw[k - 1]
    if not head.isalpha() or (head_raw[:1].isupper() and k - 1 > 0) or head in known.all_names:
        return []  # a name or a number ends the phrase
    j = verb_after(toks, k)
    v = toks[j] if j >= 0 else ""
    after = toks[j + 1] if 0 <= j < len(toks) - 1 else ""
    words = join_words(raw[start : j + 1]) if j >= 0 else ""
    m = bare_after_preposition(toks, j) if clause_start and singular_head(head) else -1
    if m > 0 and opener not in _SUBJUNCTIVE["bare"]:  # "the alert at 95% give"
        return [join_words(raw[start : m + 1])]
    if plural_head(head, known.vocabulary) and clause_start:
        return [words] if v in SINGULAR_BE or (v.endswith("s") and _verb_only(v)) else []
    if not singular_head(head):
        return []
    if v in ("were", "weren't") and opener in _SUBJUNCTIVE["were"]:
        return []
    if v == "be" and opener not in ("that", "whether", "if"):
        return [words]
    if not clause_start:
        return []
    if v in PLURAL_BE:
        return [words]
    # a bare verb that is never a noun ("the plan include"), unless a verb follows it
    # ("the customer send button is ...": then the word was part of the phrase)
    bare = v in BARE_VERBS and opener not in _SUBJUNCTIVE["bare"]
    if bare and after not in BE | HAVE | {"and", "or"}:
        return [words]
    return []


def _verb_only(w: str) -> bool:
    """A verb that is never a noun, bare or in "-s" ("include", "includes", "goes")."""
    if w in BARE_VERBS or w in ("goes", "does", "has"):
        return True
    return w.endswith("s") and (w[:-1] in BARE_VERBS or (w.endswith("es") and w[:-2] in BARE_VERBS))


def _in_phrase(low: str) -> bool:
    """Whether a token can be part of a noun phrase (a modifier or its head)."""
    if (low in STOP and low not in _STOP_ADJECTIVES) or low in ADVERBS or low in MODALS:
        return False
    if low in BE or low in HAVE:
        return False
    return low.isalnum() and not (low in PLURAL_PRONOUNS or low in SINGULAR_PRONOUNS)
