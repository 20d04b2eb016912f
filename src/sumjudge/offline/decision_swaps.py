"""A decision said of the wrong one of two people or things named together.

"Ana is the backup; we are turning down Ben" against a summary's "Ben is the backup; Ana is
turned down": each clause of the summary names the right people, but the decision (a side
of a contrary pair, `words/contraries.txt`: approved / rejected, kept / cancelled) is given
to the other one. Read: a summary clause naming one person or thing (a capitalised name,
`entities.names`) with a side of a contrary pair, where no source clause gives that side to
that name, a source clause gives it to a name the summary sentence gives something else in
another clause, and the source names the summary's one in that passage (the unit of the
decision or the one next to it): the two were decided together.

Not read: a negated clause (which way it goes is not the bare word), a clause with two
names or none, and a question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .decisions import CLAUSE, CONTRARY_WORDS, base_forms, contrary_sides
from .entities import names
from .records import SourceInfo, Unit
from .replies import body
from .text import sentences, words

_NEGATION = re.compile(r"\b(?:not|no|never|tidak|bukan|belum|jangan)\b|n't\b", re.IGNORECASE)


@dataclass(frozen=True)
class Decided:
    """A source clause giving a decision to named people or things."""

    unit: int
    named: frozenset[str]  # the names, lower-case
    sides: frozenset[tuple[int, int]]  # (contrary pair, side)
    quote: str


def _named_sides(piece: str) -> tuple[frozenset[str], frozenset[tuple[int, int]]]:
    """The names a clause gives and the contrary sides it uses (none when negated)."""
    if _NEGATION.search(piece):
        return frozenset(), frozenset()
    found = frozenset(n.lower() for n in names(piece, initial=True))
    return found, contrary_sides(base_forms(words(piece))) if found else frozenset()


def decided(units: list[Unit]) -> list[Decided]:
    """The clauses of a source giving a decision to a name, in order (one pass)."""
    out: list[Decided] = []
    for i, u in enumerate(units):
        if CONTRARY_WORDS.isdisjoint(words(u.text)):
            continue  # (most units: no decision word)
        for sent, _, _ in sentences(body(u, u.text)):
            if sent.rstrip().endswith("?"):
                continue
            quote = f"{u.speaker}: {sent.strip()}" if u.speaker else sent.strip()
            for piece in CLAUSE.split(sent):
                named, sides = _named_sides(piece)
                if named and sides:
                    out.append(Decided(i, named, sides, quote))
    return out


def given_to_the_other(sentence: str, info: SourceInfo) -> str:
    """The source clause giving a summary clause's decision to another name, or "".

    Args:
        sentence: A summary sentence.
        info: The analysed source (its decisions given to names, `decided`, read when a
            clause of the summary gives one; the summary's name must be in the decision's
            passage).

    Returns:
        The source sentence as written ("Speaker: ..." in a transcript), or "".
    """
    if sentence.rstrip().endswith("?"):
        return ""
    pieces = [
        (frozenset(n.lower() for n in names(p, initial=True)), _named_sides(p)[1], p)
        for p in CLAUSE.split(sentence)
    ]
    units = info.units
    for named, sides, piece in pieces:
        if len(named) != 1 or not sides or not (source := info.decided):
            continue
        (one,) = named
        # the names of the sentence's other clauses (given something else, or nothing)
        others = {n for n2, s2, p in pieces if p != piece for n in n2} - {one}
        mine = [d for d in source if one in d.named and d.sides & sides]
        if mine or not others:
            continue
        for d in source:
            if d.sides & sides and d.named & others and one not in d.named:
                near = " ".join(u.text for u in units[max(0, d.unit - 1) : d.unit + 2])
                if re.search(rf"\b{re.escape(one)}\b", near, re.IGNORECASE):
                    return d.quote
    return ""
