"""English auxiliaries with the wrong verb form, and the verb lexicon of the grammar rules.

Found without a parser, from word patterns whose every match is an error whatever the topic:

- a modal, or "do" with "not", before an inflected verb ("can starts", "will gets",
  "should not drives", "didn't went", "will been");
- "have", "has", "had" before "being" or a simple past that is no participle ("have
  came", `words/past_only.txt`), or "had not" before a bare verb ("had not sign");
- a form of "be" before a bare verb that is never a noun ("is propose"), or before a verb
  whose past form the text uses and a passive "by" ("were mark unsafe by the inspector");
- a relative pronoun right after its noun with a verb of the other number ("the two who
  struggles", "a plan which include").

The subjects with the wrong verb are `grammar_subjects`' rules; both read verbs with
`base_verb` and `s_form` (a word is a verb when listed or when the text uses its "-ed"
form).
"""

from __future__ import annotations

from .lexicon import NUMBER_WORDS, ORDINAL_WORDS, STOP, word_map, word_set

BARE_VERBS = word_set("bare_verbs")
COMMON_VERBS = word_set("common_verbs")
PAST_ONLY = word_set("past_only")
SAME_PAST = word_set("same_past")
PLURAL_AGREEING = word_set("plural_agreeing")
SINGULAR_S = word_set("singular_s")
IRREGULAR_BASES = frozenset(word_map("irregular_past").values()) - SAME_PAST
MODALS = frozenset(
    ["will", "would", "can", "could", "should", "must", "shall", "might", "may", "cannot"]
)
DO_NOT = frozenset(["doesn't", "didn't", "don't"])
DO = frozenset(["do", "does", "did"])
ADVERBS = frozenset(
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
PLURAL_BE = frozenset(["are", "were", "have", "aren't", "weren't", "haven't"])
SINGULAR_BE = frozenset(["is", "was", "has", "isn't", "wasn't", "hasn't", "does", "doesn't"])
BE = frozenset(["is", "are", "was", "were", "am", "been", "being"])
HAVE = frozenset(["have", "has", "had", "haven't", "hasn't", "hadn't"])
_PARTICIPLE_IS_BARE = frozenset(["come", "become", "run", "overcome"])
_PLURAL_ANTECEDENTS = frozenset(
    ["two", "three", "four", "five", "those", "these", "people", "others", "many", "several"]
)
SINGULAR_PRONOUNS = frozenset(["he", "she", "it"])
PLURAL_PRONOUNS = frozenset(["i", "you", "we", "they"])
_NUMBERISH = frozenset(NUMBER_WORDS) | frozenset(ORDINAL_WORDS)


def verb_after(toks: list[str], j: int) -> int:
    """The index of the verb after position `j`, skipping one adverb (or -1)."""
    if j < len(toks) and toks[j] in ADVERBS - {"not"}:
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


def s_form(v: str, vocabulary: set[str]) -> bool:
    """Whether `v` is a verb's "-s" form ("needs", "goes", "carries")."""
    if v in _S_WORDS or v in SINGULAR_S or not v.isalpha() or len(v) < 4 or not v.endswith("s"):
        return False
    if v.endswith(("ss", "us", "is")):
        return False
    bases = (v[:-1], v[:-2] if v.endswith("es") else "", v[:-3] + "y" if v.endswith("ies") else "")
    return any(b and b not in STOP and base_verb(b, vocabulary) for b in bases)


def join_words(tokens: list[str]) -> str:
    """Tokens as the words at fault, written as in text ("Josh, the agent, explain")."""
    return " ".join(tokens).replace(" ,", ",")


def singular_head(h: str) -> bool:
    """Whether `h` can head a singular noun phrase: no plural, collective or partitive."""
    return (
        len(h) >= 3
        and h.islower()
        and not h.endswith(("s", "ed", "ing", "ly", "est"))
        and h not in PLURAL_AGREEING
        and h not in _NUMBERISH
        and h not in ("present", "absent")  # inverted: "Present were Ann and Bob"
    )


def plural_head(h: str, vocabulary: set[str]) -> bool:
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
    if j < len(toks) and toks[j] in ADVERBS:
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
    if j < len(toks) and toks[j] in ADVERBS:
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
    plural = ante in _PLURAL_ANTECEDENTS or plural_head(ante, vocabulary)
    if plural and s_form(v, vocabulary):
        return [f"{ante} {toks[i]} {v}"]
    if singular_head(ante) and ante.isalpha() and v in BARE_VERBS and toks[i] != "that":
        return [f"{ante} {toks[i]} {v}"]
    return []


def _after_be(toks: list[str], i: int, vocabulary: set[str]) -> list[str]:
    """A form of "be" before a bare verb ("is propose", "were mark unsafe by")."""
    j = verb_after(toks, i + 1)
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


def auxiliary_errors(toks: list[str], i: int, vocabulary: set[str]) -> list[str]:
    """The errors of an auxiliary or a relative pronoun at `i` with the verb after it."""
    t = toks[i]
    nxt = toks[i + 1] if i + 1 < len(toks) else ""
    if t in MODALS or (t in DO and nxt in ("not", "n't")) or t in DO_NOT:
        return _after_modal(toks, i, vocabulary)
    if t in HAVE:
        return _after_have(toks, i)
    if t in BE:
        return _after_be(toks, i, vocabulary)
    if t in ("who", "which", "that"):
        return _relative_errors(toks, i, vocabulary)
    return []
