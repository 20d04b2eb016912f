"""Autoevaluation of conversation summaries: accuracy, adherence and completeness.

This package is the public face of the autoevaluator; the code lives where every
evaluator's does (`evaluators/auto.py`, metrics under `metrics/`, values under `types/`).
See docs/autoeval.md for the data model, the JSON output, the N/A rules and scoring.
"""

from __future__ import annotations

from ..evaluators.auto import AUTO_METRICS, AutoEvaluator, AutoRecord
from ..evaluators.rubric_cache import RubricCache
from ..metrics.transcript import render_transcript, verify_quote
from ..types import (
    AccuracyPoint,
    AutoEvalResult,
    CompletenessRubric,
    ContentItem,
    ConversationItem,
    MetricOutcome,
    RubricAnswer,
    SectionDefinition,
    SectionOutcome,
    Turn,
)
from .aggregate import DatasetSummary

__all__ = [
    "AUTO_METRICS",
    "AccuracyPoint",
    "AutoEvalResult",
    "AutoEvaluator",
    "AutoRecord",
    "CompletenessRubric",
    "ContentItem",
    "ConversationItem",
    "DatasetSummary",
    "MetricOutcome",
    "RubricAnswer",
    "RubricCache",
    "SectionDefinition",
    "SectionOutcome",
    "Turn",
    "render_transcript",
    "verify_quote",
]
