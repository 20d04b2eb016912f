"""Metrics: one module per metric, each data plus pure functions."""

from __future__ import annotations

from ._base import SCORE_SCHEMA, ScoreMetric
from .coherence import COHERENCE
from .consistency import CONSISTENCY
from .fluency import FLUENCY
from .relevance import RELEVANCE

__all__ = [
    "COHERENCE",
    "CONSISTENCY",
    "FLUENCY",
    "RELEVANCE",
    "SCORE_SCHEMA",
    "SUMMARY_METRICS",
    "ScoreMetric",
]

SUMMARY_METRICS: dict[str, ScoreMetric] = {
    m.name: m for m in (COHERENCE, CONSISTENCY, RELEVANCE, FLUENCY)
}
