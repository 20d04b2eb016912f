"""A sentence read as clauses: what each asserts, negates, and which decision words it uses.

`polarity` pairs a summary's clauses with the source's; this module reads one clause: its
content words, whether it is negated and what the negation bears on ("not offered"), the
words that limit or turn it ("until", "only", `words/negative_sense.txt`), the sides of
contrary pairs and relations it uses (`decisions`), and the option a choice turns down
("X rather than Y" asserts X and negates Y). A clause that holds only on a condition ("X
only if Y"; every clause of a sentence opening with "If ...") carries the conditional side
of the "automatically" / "only if" pair.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from .decisions import (
    CLAUSE,
    base_forms,
    choice,
    contrary_sides,
    kept_in,
    negation_scope,
    relation_sides,
)
from .lexicon import NEGATIONS, word_set
from .records import Unit
from .replies import body
from .text import content_of, sentences, words

# a condition on a clause ("X only if Y"): split off, its words kept as a contrary side
_CONDITION = re.compile(
    r"\s+(only\s+if|only\s+when|unless|provided\s+that|as\s+long\s+as|hanya\s+jika)\s+",
    re.IGNORECASE,
)
# a sentence that opens with its condition ("If it still fails, call us and we'll ...")
_IF_FIRST = re.compile(
    r"^\s*(?:[^\W\d][\w .'’()-]{0,40}:\s*)?(?:if|unless|kalau|jika|apabila|bila)\b", re.I
)
# "refuse" is a contrary word (issue / refuse), not a negation that flips a clause; chat
# writes "dont" and "cant"
EXPLICIT = NEGATIONS - {"without", "refuse", "refused", "refuses"} | {
    "dont",
    "doesnt",
    "didnt",
    "cant",
    "wont",
    "isnt",
    "arent",
    "wasnt",
    "werent",
    "havent",
    "hasnt",
}
SENSE = word_set("negative_sense")
# "doesn ’ t" (tokenised news text) is "doesn't"
_SPACED_NT = re.compile(r"(\w)\s?n\s*['’]\s*t\b")
# "No Eileen wanted me to": an interjection answering the previous turn, not a negation
_INTERJECTION = re.compile(r"^\s*(?i:no|nope|nah|nothing)\b[\s.!]*(?=[A-Z])")
# a chat question without its question mark: "did you watch the series I told you"
_AUX_QUESTION = re.compile(
    r"^\s*(?:[^\W\d][\w .'’-]{0,40}:\s*)?"  # ("Gene: Did you ...")
    r"(?:do|does|did|have|has|had|are|is|was|were|can|could|will|would|should|shall)\s+"
    r"(?:you|i|we|they|he|she|it|there)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Clause:
    """A clause as polarity reads it."""

    content: frozenset[str]
    negated: bool  # an explicit negation (a double one is rarer than a repeated one)
    scope: frozenset[str]  # the first two content words after each negation
    sense: frozenset[str]  # words that limit or turn the assertion ("until", "hold", "free")
    words: frozenset[str]
    numbers: frozenset[str]  # tokens with a digit ("429", "5xx"): not content words
    sides: frozenset[tuple[int, int]]  # (contrary pair, side) of its contrary words
    # (relation pair, side, what it relates to) of its relation words ("before release")
    relations: frozenset[tuple[int, int, str]] = frozenset()
    # who answered, when the clause is a question and its yes or no (`answer_clauses`)
    answerer: frozenset[str] = frozenset()

    @staticmethod
    def of(text: str, turned_down: bool = False) -> Clause:
        """The clause `text`; `turned_down`: the option a choice turns down (a negation).

        ("Let's switch instead of cancelling": "cancelling" is turned down.)
        """
        text = kept_in(_SPACED_NT.sub(r"\1n't", _INTERJECTION.sub("", text)))
        ws = base_forms(words(text))
        negs = [i for i, w in enumerate(ws) if w in EXPLICIT]
        scope = negation_scope(ws, negs)  # what it bears on ("not offered", "any charge")
        # a negation word is not what the clause is about (nor a word two clauses share)
        plain = [w for w in ws if w not in EXPLICIT]
        content = content_of(plain)
        if turned_down:
            scope |= set(content[:1])
        sense = SENSE.intersection(ws)
        if "rather" in sense and " rather not " in f" {' '.join(ws)} ":
            sense -= {"rather"}  # ("I'd rather not cut it": a negation, not a limit)
        return Clause(
            content=frozenset(content),
            negated=bool(negs) or turned_down,
            scope=frozenset(scope),
            sense=sense,
            words=frozenset(ws),
            numbers=frozenset(w for w in ws if any(ch.isdigit() for ch in w)),
            sides=contrary_sides(plain),
            relations=relation_sides(plain),
        )


def clauses(text: str) -> list[Clause]:
    """The clauses of a text that have a content word.

    A clause that chooses ("X rather than Y", "X instead of Y") is two: X as it is, and Y
    as a negated clause (`decisions.choice`).
    """
    out: list[Clause] = []
    # "If it fails, we'll send one": each clause holds only on the condition
    conditional = contrary_sides(["only", "if"]) if _IF_FIRST.match(text) else frozenset()
    for piece in CLAUSE.split(kept_in(text)):  # ("(in, ...)": "in scope", a side)
        chosen, turned_down = choice(piece)
        # "X only if Y": X, marked conditional (a contrary of "automatically"); Y is a
        # condition, which the clause does not assert
        main, condition = ([*_CONDITION.split(chosen, maxsplit=1), ""])[:2]
        if chosen:
            c = Clause.of(main)
            cond = contrary_sides(condition.lower().split()) | conditional
            out.append(replace(c, sides=c.sides | cond))
        out += [Clause.of(turned_down, turned_down=True)] if turned_down else []
    return [c for c in out if c.content]


@lru_cache(maxsize=4096)
def passage_clauses(u: Unit) -> tuple[tuple[Clause, str], ...]:
    """The clauses of a source unit, each with the sentence as written that holds it.

    Read in the resolved text ("I" as the speaker's name); the quote is the sentence as
    written. Cached: every summary sentence reads its region's units again.
    """
    resolved = [s for s, _, _ in sentences(body(u, u.resolved))]
    written = [s for s, _, _ in sentences(body(u, u.text))]
    out: list[tuple[Clause, str]] = []
    for k, sent in enumerate(resolved):
        quote = written[k] if len(written) == len(resolved) else body(u, u.text)
        if sent.rstrip().endswith("?") or _AUX_QUESTION.match(quote):
            continue  # a question asserts nothing to contradict
        quote = f"{u.speaker}: {quote.strip()}" if u.speaker else quote.strip()
        out += [(c, quote) for c in clauses(sent)]
    return tuple(out)
