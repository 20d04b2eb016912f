"""English verb-form errors: a subject with the wrong verb form, an auxiliary with the wrong form.

Found without a parser, from word patterns whose every match is an error whatever the topic:

- a subject at the start of a clause with a verb of the wrong number: a person's name or
  "he", "she", "it" with a bare verb ("Ibrahim write", "she pay") or with "are", "were",
  "have"; "I", "you", "we", "they" with a verb in "-s" ("they needs"); a singular noun
  phrase with "are", "were", "have" or a bare "be" ("the rear light are", "the estimate
  be"), or with a verb that is never a noun (`words/bare_verbs.txt`: "the plan include");
  a plural noun phrase with "is", "was", "has" ("the help articles goes");
- a subject pronoun with a bare "be" ("until it be fixed");
- a form of "be" before a bare verb that is never a noun ("is propose"), or before a verb
  whose past form the text uses and a passive "by" ("were mark unsafe by the inspector");
- "have", "has", "had" before "being" or a simple past that is no participle ("have came",
  `words/past_only.txt`);
- a modal, or "do" with "not", before an inflected verb ("can starts", "will gets",
  "should not drives", "didn't went", "will been").

A clause start is the sentence's start or a word that opens a clause ("because", "so",
"but"...): a noun phrase after a verb or a preposition is an object, and inverted or
subjunctive clauses ("at the heart of it are", "if it were", "that he pay") are left alone.
What is a person: a speaker of the source, or a name after a title or introduced ("this is
Valerie"). Team and company names are not, since British English gives them plural verbs.
"""

from __future__ import annotations

import re

from .lexicon import NUMBER_WORDS, ORDINAL_WORDS, STOP, word_map, word_set

BARE_VERBS = word_set("bare_verbs")
COMMON_VERBS = word_set("common_verbs")
PAST_ONLY = word_set("past_only")
SAME_PAST = word_set("same_past")
PLURAL_AGREEING = word_set("plural_agreeing")
SINGULAR_S = word_set("singular_s")
IRREGULAR_BASES = frozenset(word_map("irregular_past").values()) - SAME_PAST
_MODALS = frozenset(
    ["will", "would", "can", "could", "should", "must", "shall", "might", "may", "cannot"]
)
_DO_NOT = frozenset(["doesn't", "didn't", "don't"])
_DO = frozenset(["do", "does", "did"])
_ADVERBS = frozenset(
    [
        "still",
        "also",
        "now",
        "already",
        "currently",
        "not",
        "always",
        "often",
        "just",
        "never",
        "only",
        "partly",
        "usually",
        "then",
        "really",
        "even",
        "actually",
        "normally",
    ]
)
# words ending in "s" that are not a verb's third person ("will always", "can perhaps")
_S_WORDS = frozenset(["always", "perhaps", "sometimes", "afterwards", "nevertheless", "thus"])
_PLURAL_BE = frozenset(["are", "were", "have", "aren't", "weren't", "haven't"])
_SINGULAR_BE = frozenset(["is", "was", "has", "isn't", "wasn't", "hasn't", "does", "doesn't"])
_BE = frozenset(["is", "are", "was", "were", "am", "been", "being"])
_HAVE = frozenset(["have", "has", "had", "haven't", "hasn't", "hadn't"])
# words that open a clause, so that a subject follows (a comma only with a conjunction:
# "the manager and the agent are" has one plural subject)
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
# after these a singular "were" is a subjunctive ("if it were", "as though it were") and
# after "that" a bare verb is one ("asked that he pay")
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
# stop words that are adjectives inside a noun phrase ("the new printer")
_STOP_ADJECTIVES = frozenset(["new", "same", "other", "own", "whole", "main", "next", "last"])
_PARTICIPLE_IS_BARE = frozenset(["come", "become", "run", "overcome"])
_PLURAL_ANTECEDENTS = frozenset(
    ["two", "three", "four", "five", "those", "these", "people", "others", "many", "several"]
)
_SINGULAR_PRONOUNS = frozenset(["he", "she", "it"])
_PLURAL_PRONOUNS = frozenset(["i", "you", "we", "they"])
_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*|[^\w\s]")
_NUMBERISH = frozenset(NUMBER_WORDS) | frozenset(ORDINAL_WORDS)


def verb_form_errors(
    sent: str,
    vocabulary: set[str],
    persons: frozenset[str] = frozenset(),
    names: frozenset[str] = frozenset(),
) -> list[str]:
    """The verb-form errors of one sentence, each as the words at fault ("she pay").

    Args:
        sent: The sentence, as written (capitals mark names).
        vocabulary: Lower-case words of the summary and its source (a verb's "-ed" form
            there shows that a word is a verb).
        persons: Lower-case names of the people in the source.
        names: Lower-case proper names of the source and summary (a team or a company:
            never a subject checked for its number).
    """
    raw = [t.replace("’", "'") for t in _TOKEN.findall(sent)]
    toks = [t.lower() for t in raw]
    out: list[str] = []
    for i, t in enumerate(toks):
        nxt = toks[i + 1] if i + 1 < len(toks) else ""
        if t in _MODALS or (t in _DO and nxt in ("not", "n't")) or t in _DO_NOT:
            out += _after_modal(toks, i, vocabulary)
        elif t in _HAVE:
            out += _after_have(toks, i)
        elif t in _BE:
            out += _after_be(toks, i, vocabulary)
        elif t in ("who", "which", "that"):
            out += _relative_errors(toks, i, vocabulary)
        if _clause_start(toks, i):
            out += _subject(raw, toks, i, vocabulary, persons, names | persons)
        elif i > 0 and toks[i - 1] in ("and", "or") and t in _DETERMINERS:
            out += _noun_subject(raw, toks, i, vocabulary, names | persons, False)
    return out


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


def _verb_after(toks: list[str], j: int) -> int:
    """The index of the verb after position `j`, skipping one adverb (or -1)."""
    if j < len(toks) and toks[j] in _ADVERBS - {"not"}:
        j += 1
    return j if j < len(toks) else -1


def base_verb(v: str, vocabulary: set[str], after_subject: bool = False) -> bool:
    """Whether `v` is a verb's bare form: listed, or its "-ed" form is in the text.

    `after_subject`: `v` follows a subject (a person, "she"), where a noun cannot stand,
    so a frequent verb (`words/common_verbs.txt`) or its "-s" form in the text is enough.
    """
    if not v.isalpha() or len(v) < 3 or v in STOP or v in SAME_PAST or v.endswith("ing"):
        return False
    if v in BARE_VERBS or v in IRREGULAR_BASES or (after_subject and v in COMMON_VERBS):
        return True
    if v.endswith("s") or (v.endswith("ed") and not v.endswith("eed")):  # ("need")
        return False
    forms = (v + "ed", v + "d", v + v[-1] + "ed", v[:-1] + "ied", v + "es")
    if any(f in vocabulary for f in forms):
        return True
    loose = (v + "s", v + "ing", v[:-1] + "ing" if v.endswith("e") else "")
    return after_subject and any(f and f in vocabulary for f in loose)


def _s_form(v: str, vocabulary: set[str]) -> bool:
    """Whether `v` is a verb's "-s" form ("needs", "goes", "carries")."""
    if v in _S_WORDS or v in SINGULAR_S or not v.isalpha() or len(v) < 4 or not v.endswith("s"):
        return False
    if v.endswith(("ss", "us", "is")):
        return False
    bases = (v[:-1], v[:-2] if v.endswith("es") else "", v[:-3] + "y" if v.endswith("ies") else "")
    return any(b and b not in STOP and base_verb(b, vocabulary) for b in bases)


def _subject(
    raw: list[str],
    toks: list[str],
    i: int,
    vocabulary: set[str],
    persons: frozenset[str],
    names: frozenset[str],
) -> list[str]:
    """An error of the subject starting a clause at `i` with its verb, or []."""
    t = toks[i]
    opener = toks[i - 1] if i > 0 else ""
    if t in _SINGULAR_PRONOUNS | _PLURAL_PRONOUNS:
        j = _verb_after(toks, i + 1)
        v = toks[j] if j >= 0 else ""
        wrong = (
            (t in _SINGULAR_PRONOUNS and opener not in _SUBJUNCTIVE["bare"])
            and (base_verb(v, vocabulary, True) or v == "be")
        ) or (t in _PLURAL_PRONOUNS and _s_form(v, vocabulary))
        return [" ".join(toks[i : j + 1])] if wrong else []
    if raw[i][:1].isupper() and t in persons:
        k = i + 1
        while k < len(toks) and raw[k][:1].isupper() and toks[k] in persons:
            k += 1  # "Leila Haddad"
        k = _after_apposition(toks, k)
        j = _verb_after(toks, k)
        v = toks[j] if j >= 0 else ""
        were_ok = v in ("were", "weren't") and opener in _SUBJUNCTIVE["were"]
        wrong = (v in _PLURAL_BE | {"am"} and not were_ok) or (
            opener not in _SUBJUNCTIVE["bare"] and base_verb(v, vocabulary, True)
        )
        return [_join(raw[i : j + 1])] if wrong else []
    return _noun_subject(raw, toks, i, vocabulary, names, True)


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
    raw: list[str],
    toks: list[str],
    i: int,
    vocabulary: set[str],
    names: frozenset[str],
    clause_start: bool,
) -> list[str]:
    """A noun phrase starting a clause at `i` ("the rear light are") with a wrong verb."""
    opener = toks[i - 1] if i > 0 else ""
    if not (clause_start or (opener in ("and", "or") and toks[i] in _DETERMINERS)):
        return []  # ("and the estimate be": a bare "be" is wrong after any subject)
    start = i + 1 if toks[i] in _DETERMINERS else i
    if start == i and i > 0 and opener not in (";", ":", "-", "•", "*"):
        return []  # a phrase without a determiner only at the start of a sentence
    k = start
    while k < len(toks) and k - start < 5 and _in_phrase(toks[k]):
        if k > start and (_verb_only(toks[k]) or toks[k].endswith("ed")):
            break  # the verb ends the phrase
        k += 1
    if k == start or k >= len(toks):
        return []
    head, head_raw = toks[k - 1], raw[k - 1]
    if not head.isalpha() or (head_raw[:1].isupper() and k - 1 > 0) or head in names:
        return []  # a name or a number ends the phrase
    j = _verb_after(toks, k)
    v = toks[j] if j >= 0 else ""
    after = toks[j + 1] if 0 <= j < len(toks) - 1 else ""
    words = _join(raw[start : j + 1]) if j >= 0 else ""
    if _plural_head(head, vocabulary) and clause_start:
        return [words] if v in _SINGULAR_BE or (v.endswith("s") and _verb_only(v)) else []
    if not _singular_head(head):
        return []
    if v in ("were", "weren't") and opener in _SUBJUNCTIVE["were"]:
        return []
    if v == "be" and opener not in ("that", "whether", "if"):
        return [words]
    if not clause_start:
        return []
    if v in _PLURAL_BE:
        return [words]
    # a bare verb that is never a noun ("the plan include"), unless a verb follows it
    # ("the customer send button is ...": then the word was part of the phrase)
    bare = v in BARE_VERBS and opener not in _SUBJUNCTIVE["bare"]
    if bare and after not in _BE | _HAVE | {"and", "or"}:
        return [words]
    return []


def _join(tokens: list[str]) -> str:
    """Tokens as the words at fault, written as in text ("Josh, the agent, explain")."""
    return " ".join(tokens).replace(" ,", ",")


def _verb_only(w: str) -> bool:
    """A verb that is never a noun, bare or in "-s" ("include", "includes", "goes")."""
    if w in BARE_VERBS or w in ("goes", "does", "has"):
        return True
    return w.endswith("s") and (w[:-1] in BARE_VERBS or (w.endswith("es") and w[:-2] in BARE_VERBS))


def _in_phrase(low: str) -> bool:
    """Whether a token can be part of a noun phrase (a modifier or its head)."""
    if (low in STOP and low not in _STOP_ADJECTIVES) or low in _ADVERBS or low in _MODALS:
        return False
    if low in _BE or low in _HAVE:
        return False
    return low.isalnum() and not (low in _PLURAL_PRONOUNS or low in _SINGULAR_PRONOUNS)


def _singular_head(h: str) -> bool:
    return (
        len(h) >= 3
        and h.islower()
        and not h.endswith(("s", "ed", "ing", "ly", "est"))
        and h not in PLURAL_AGREEING
        and h not in _NUMBERISH
        and h not in ("present", "absent")  # inverted: "Present were Ann and Bob"
    )


def _plural_head(h: str, vocabulary: set[str]) -> bool:
    """A regular plural noun ("articles") whose singular the text uses."""
    if not h.endswith("s") or h.endswith(("ss", "us", "is", "ics")) or h in SINGULAR_S:
        return False
    if len(h) < 4:
        return False
    return h[:-1] in vocabulary or (h.endswith("es") and h[:-2] in vocabulary)


def _after_modal(toks: list[str], i: int, vocabulary: set[str]) -> list[str]:
    """A modal (or "do not") before an inflected verb ("can starts", "didn't went")."""
    j = i + 1
    if j < len(toks) and toks[j] in ("not", "n't"):
        j += 1
    if j < len(toks) and toks[j] in _ADVERBS:
        j += 1
    if j >= len(toks):
        return []
    v = toks[j]
    if v in _S_WORDS or not v.isalpha() or len(v) < 4:
        return []
    # after a modal the word is a verb: its base in the text is enough to know the form
    wrong = v == "been" or v in PAST_ONLY
    s_form = v.endswith("s") and not v.endswith(("ss", "us", "is"))
    wrong = wrong or (s_form and v[:-1] in vocabulary)
    wrong = wrong or (v.endswith("ing") and len(v) > 5 and v[:-3] in vocabulary)
    wrong = wrong or (v.endswith("ed") and v + "s" not in vocabulary and _past(v, vocabulary))
    return [" ".join(toks[i : j + 1])] if wrong else []


def _past(v: str, vocabulary: set[str]) -> bool:
    """Whether `v` is a regular past form of a verb of the text ("reconnected")."""
    if len(v) < 6:
        return False
    bases = (v[:-1], v[:-2], v[:-3] if v[-3] == v[-4] else "", v[:-3] + "y")
    return any(len(b) >= 4 and b in vocabulary for b in bases)


def _after_have(toks: list[str], i: int) -> list[str]:
    """A "have" before "being" or a past that is no participle ("have partly came")."""
    j = i + 1
    if j < len(toks) and toks[j] in _ADVERBS:
        j += 1
    if j < len(toks) and (toks[j] == "being" or toks[j] in PAST_ONLY):
        return [" ".join(toks[i : j + 1])]
    # "had not sign": after "have not" a verb's participle, not its bare form (unless the
    # two are one: "have not come", "had not put")
    v = toks[j] if j < len(toks) else ""
    negated = j > i + 1 and toks[j - 1] in ("not", "never")
    if negated and v in BARE_VERBS | COMMON_VERBS and v not in _PARTICIPLE_IS_BARE | SAME_PAST:
        return [" ".join(toks[i : j + 1])]
    return []


def _relative_errors(toks: list[str], i: int, vocabulary: set[str]) -> list[str]:
    """A relative pronoun right after a noun, with a verb of the wrong number.

    "the two who struggles", "customers that needs", "a plan that include" (no comma
    before the pronoun: after one, "which" may stand for the whole clause).
    """
    if i == 0 or i + 1 >= len(toks):
        return []
    ante, v = toks[i - 1], toks[i + 1]
    plural = ante in _PLURAL_ANTECEDENTS or _plural_head(ante, vocabulary)
    if plural and _s_form(v, vocabulary):
        return [f"{ante} {toks[i]} {v}"]
    if _singular_head(ante) and ante.isalpha() and v in BARE_VERBS and toks[i] != "that":
        return [f"{ante} {toks[i]} {v}"]
    return []


def _after_be(toks: list[str], i: int, vocabulary: set[str]) -> list[str]:
    """A form of "be" before a bare verb ("is propose", "were mark unsafe by")."""
    j = _verb_after(toks, i + 1)
    if j < 0 or toks[i] in ("been", "being"):
        return []
    v = toks[j]
    if v in BARE_VERBS or (v in PAST_ONLY and v != "did"):
        return [" ".join(toks[i : j + 1])]
    # a passive with its agent: "was protect by", "are delay until Thursday by"
    rest = toks[j + 1 : j + 5]
    by = "by" in rest and all(w.isalnum() for w in rest[: rest.index("by")])
    if by and v not in IRREGULAR_BASES and base_verb(v, vocabulary):
        return [" ".join(toks[i : j + 1])]
    return []
