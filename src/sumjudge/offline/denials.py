"""A denial of one thing ("No one was hurt") against a summary stating it ("a picker was hurt").

A short negated clause of one content word ("no contractors", "no one was hurt") is too
short for the two shared words the clause alignment of `polarity` asks for, yet it denies
its word outright when its shape is a denial ("no X"; nobody, with "be": "nobody was
late", not "nobody told me that"). A summary clause that states the word plainly (not
negated, with no word that limits or turns it, `words/negative_sense.txt`) and is about
more than it is read as the opposite, provided the passages also matched do not state the
word plainly anywhere (a proposal, then the decision). Idioms that deny nothing ("no
problem", "no rush", "no clue", `words/idle_denials.txt`) are not read.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .decisions import root
from .lexicon import word_set
from .text import content_of

if TYPE_CHECKING:
    from .clauses import Clause

IDLE = word_set("idle_denials")
# the two shapes of an outright denial: "no X" ("no contractors") and a subject that is
# nobody, with "be" ("no one was hurt"); "Nobody told me that" denies a telling, not a thing
_DENIED = re.compile(
    r"\b(?:no\s+one|nobody|nothing|none)\s+(?:was|were|is|are|has\s+been|have\s+been|got)\s+(\w+)"
    r"|\b(?:no|tidak\s+ada)\s+(\w+)",
    re.IGNORECASE,
)


def _denied_words(quote: str) -> set[str]:
    """The content words a sentence denies outright (see `_DENIED`)."""
    got = [w for m in _DENIED.finditer(quote) for w in m.groups() if w]
    return set(content_of([w.lower() for w in got]))


def denied_outright(
    summary: list[Clause], near: list[tuple[Clause, str]], names: frozenset[str] = frozenset()
) -> str:
    """The source sentence denying the one word a summary clause states, or "".

    Args:
        summary: The summary sentence's clauses.
        near: The source clauses of the passages it is matched to, each with its sentence.
        names: The words of the speakers' names (two clauses about them share them).

    Returns:
        The source sentence as written, or "".
    """
    plain = [t for t, _ in near if not t.negated]
    for s in summary:
        if s.negated or s.sense or len(s.content - names) < 2:
            continue
        for t, quote in near:
            own = t.content - names
            if not t.negated or len(own) != 1 or t.sense or t.answerer:
                continue
            (w,) = own
            if w in IDLE or w not in _denied_words(quote) or root(w) not in roots(s.content):
                continue
            if s.numbers and t.numbers and s.numbers.isdisjoint(t.numbers):
                continue  # about other figures
            # the passages also state it: which one the summary restates is open (the same
            # word, not a near one: "contracts" is not "contractors")
            if root(w) in roots(frozenset().union(*(p.content for p in plain))):
                continue
            return quote
    return ""


def roots(content: frozenset[str]) -> set[str]:
    """The roots of content stems (the same word, not a near one: "contract", "contractor")."""
    return {root(x) for x in content}
