"""What a calibration profile changes in a 1-3 metric: few-shot examples and cut points.

A profile (`sumjudge.align`, docs/align.md) is fitted on a team's own labels. For an LLM
judge it gives each metric up to a few labelled examples and, optionally, cut points that
map the judge's logprob-weighted score onto 1-3. This module is the metric side of it:
plain data and pure functions, no I/O.

The examples go after the metric's instructions (the tail of the prompt), so the shared
prefix (system message, source, summary) is unchanged and the providers' prompt caches
still serve it. Their texts are untrusted like any source: each is fenced with a sealed
code of its own (`_delimit`), which no text of the prompt contains.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ._delimit import fenced, seal

__all__ = ["EXAMPLE_SOURCE_CHARS", "FewShot", "MetricCalibration", "render_examples"]

#: An example's source is cut to this many characters (its start and end kept): examples
#: teach the scale, and a long transcript per example would multiply every call's cost.
EXAMPLE_SOURCE_CHARS = 1500


@dataclass(frozen=True)
class FewShot:
    """One labelled example: a source, a summary, the person's 1-3 and their reason."""

    source: str
    summary: str
    score: int
    reason: str


@dataclass(frozen=True)
class MetricCalibration:
    """A profile's changes to one metric.

    Attributes:
        tag: The profile's identity ("cal-3f9a1c0b7d2e"); joins the metric's version, so
            it is part of the cache key and of every result's `metric_versions`.
        examples: Few-shot examples for LLM judges (empty: none).
        cuts: Cut points on the judge's weighted score: below `cuts[0]` is 1, below
            `cuts[1]` is 2, else 3. None: the judge's own score stands.
    """

    tag: str
    examples: tuple[FewShot, ...] = ()
    cuts: tuple[float, float] | None = None

    def version(self, base: str) -> str:
        """The metric version under this profile ("3+cal-3f9a1c0b7d2e")."""
        return f"{base}+{self.tag}"

    def bin(self, weighted: float) -> int:
        """The 1-3 score of a weighted score under the profile's cut points."""
        assert self.cuts is not None
        return 1 if weighted < self.cuts[0] else 2 if weighted < self.cuts[1] else 3


def render_examples(examples: Sequence[FewShot], name: str) -> str:
    """The few-shot block that follows a metric's instructions ("" for none)."""
    if not examples:
        return ""
    sources = [_excerpt(e.source) for e in examples]
    texts = [t for e, s in zip(examples, sources, strict=True) for t in (s, e.summary, e.reason)]
    code = seal(*texts)
    parts = [
        f"Examples of this team's own {name.upper()} ratings, for calibration only (judge "
        "the summary above, not these):"
    ]
    for i, (e, source) in enumerate(zip(examples, sources, strict=True), 1):
        block = (
            f"Example {i}: rated {e.score}.\n"
            + fenced("source", code, source)
            + "\n"
            + fenced("summary", code, e.summary.strip())
        )
        if e.reason.strip():
            block += "\nTheir reason:\n" + fenced("part", code, e.reason.strip())
        parts.append(block)
    return "\n\n".join(parts)


def _excerpt(text: str) -> str:
    text = text.strip()
    if len(text) <= EXAMPLE_SOURCE_CHARS:
        return text
    half = EXAMPLE_SOURCE_CHARS // 2
    return text[:half].rstrip() + "\n[...]\n" + text[-half:].lstrip()
