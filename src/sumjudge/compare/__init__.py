"""Comparing two runs: paired statistics per metric, rating transitions, regressions.

Example:
    >>> result = compare_results("base.jsonl", "candidate.jsonl", alpha=0.05)
    >>> result.metrics["consistency"].verdict
    'improved'

The statistics (`stats.py`) are pure functions on numbers, with numpy and the standard
library only; `records.py` reads results files, `match.py` pairs them, `core.py` compares
and `gate.py` checks the rules of `sumjudge gate`.
"""

from __future__ import annotations

from .core import compare_results
from .result import Comparison, MetricComparison, RateSummary, Ratings, Regression

__all__ = [
    "Comparison",
    "MetricComparison",
    "RateSummary",
    "Ratings",
    "Regression",
    "compare_results",
]
