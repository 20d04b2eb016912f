"""Evaluators compose metrics, a judge and the rule book."""

from __future__ import annotations

from .summarization import BatchRecord, SummarizationEvaluator, SummaryResult

__all__ = ["BatchRecord", "SummarizationEvaluator", "SummaryResult"]
