"""Rendering transcripts and summaries for the judge, and verifying quoted evidence.

Turns are numbered from 1 and rendered as `[3] agent (Devon, 00:00:29): text`, so the
judge can cite them by number. A quote the judge offers as evidence is checked against the
transcript after normalising case, whitespace and typographic quotes; a quote made of
fragments joined by an ellipsis must have every fragment in the transcript.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ..types import Turn

__all__ = ["normalize", "render_sections", "render_transcript", "render_turn", "verify_quote"]

_SPACE = re.compile(r"\s+")
_ELLIPSIS = re.compile(r"\s*(?:\.\.\.|…|\[\.\.\.\])\s*")
_TYPOGRAPHIC = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "–": "-", "—": "-"})


def normalize(text: str) -> str:
    """Case-folded text with typographic quotes made plain and whitespace collapsed."""
    return _SPACE.sub(" ", text.translate(_TYPOGRAPHIC).casefold()).strip()


def _label(turn: Turn) -> str:
    extras = [x for x in (turn.name, turn.timestamp) if x]
    return f"{turn.role} ({', '.join(extras)})" if extras else turn.role


def render_transcript(turns: Sequence[Turn]) -> str:
    """One line per turn, numbered from 1 (e.g. `[1] agent (Devon, 00:00:03): Hello.`)."""
    return "\n".join(render_turn(n, t) for n, t in enumerate(turns, 1))


def render_turn(number: int, turn: Turn) -> str:
    """One turn's line, under its number in the whole transcript."""
    return f"[{number}] {_label(turn)}: {_SPACE.sub(' ', turn.text).strip()}"


def render_sections(sections: Mapping[str, str]) -> str:
    """Sections as `## name` headings followed by their text."""
    return "\n\n".join(f"## {name}\n{text.strip()}" for name, text in sections.items())


def verify_quote(quote: str, turns: Sequence[Turn]) -> bool | None:
    """Whether `quote` occurs in the transcript; None when there is no quote to check.

    The quote may be a plain excerpt or fragments joined by "..."; surrounding quotation
    marks are ignored. The whole transcript is searched (not only the cited turns): a
    real quote with a wrong turn number is still real evidence, and turn numbers are
    checked separately.
    """
    stripped = quote.strip().strip("\"'“”‘’").strip()
    if not stripped:
        return None
    haystack = normalize(" ".join(t.text for t in turns))
    fragments = [normalize(f).strip(" .,;:") for f in _ELLIPSIS.split(stripped)]
    fragments = [f for f in fragments if f]
    if not fragments:
        return None
    return all(f in haystack for f in fragments)
