"""The foundation's consistency metric, derived from the accuracy decomposition.

When both accuracy and consistency are requested for one summary, the summary is
decomposed once (by the accuracy request) and consistency is read off that decomposition
instead of asking the judge again:

- 3 when every point is accurate;
- 2 when some points are inaccurate but fewer than half;
- 1 when half of the points or more are inaccurate.

The explanation lists the inaccurate points, and `score_mode` says the score was derived.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..metrics.consistency import CONSISTENCY
from ..types import MetricResult
from .results import AccuracyPoint

__all__ = ["DERIVED_MODE", "derive_consistency", "derived_score"]

DERIVED_MODE = "derived_from_accuracy"
_NOTE = (
    "Derived from the accuracy decomposition (no separate judge call): 3 if all points are "
    "accurate, 2 if fewer than half are inaccurate, 1 if half or more are inaccurate."
)


def derived_score(total: int, inaccurate: int) -> int:
    """The 1-3 consistency score for `inaccurate` wrong points out of `total`."""
    if total <= 0:
        raise ValueError("no points to derive a score from")
    if inaccurate == 0:
        return 3
    return 2 if 2 * inaccurate < total else 1


def derive_consistency(
    points: Sequence[AccuracyPoint], *, version: str, error: str | None = None
) -> MetricResult:
    """Consistency from accuracy points; an accuracy failure is passed on as the error."""
    name = CONSISTENCY.name
    full_version = f"{CONSISTENCY.version}+accuracy-{version}"
    if error is not None:
        return MetricResult(name=name, version=full_version, error=f"accuracy failed: {error}")
    if not points:
        return MetricResult(
            name=name,
            version=full_version,
            error="the accuracy decomposition has no points to derive consistency from",
        )
    wrong = [p for p in points if not p.is_accurate]
    score = derived_score(len(points), len(wrong))
    if wrong:
        listed = "; ".join(f"[{p.section}] {p.point} ({p.accuracy})" for p in wrong)
        explanation = f"{len(wrong)} of {len(points)} points are inaccurate: {listed}"
    else:
        explanation = f"All {len(points)} points of the summary are supported by the transcript."
    return MetricResult(
        name=name,
        version=full_version,
        score=score,
        explanation=explanation,
        score_mode=DERIVED_MODE,
        score_mode_note=_NOTE,
        evidence=tuple(f"{p.point} -> turns {list(p.turns)}" for p in wrong if p.turns),
    )
