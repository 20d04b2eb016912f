"""Alias of `sumjudge.evaluators.summarization` at the specification's import path."""

from __future__ import annotations

from ..evaluators.summarization import SummarizationEvaluator

__all__ = ["SummarizationEvaluator"]
