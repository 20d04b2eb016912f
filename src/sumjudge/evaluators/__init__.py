"""Evaluators: one lifecycle (`base.py`), two item kinds (summaries, conversations)."""

from __future__ import annotations

from .auto import AutoEvaluator
from .records import Record
from .summarization import BatchRecord, SummarizationEvaluator, SummaryResult

__all__ = ["AutoEvaluator", "BatchRecord", "Record", "SummarizationEvaluator", "SummaryResult"]
