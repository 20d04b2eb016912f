"""Autoevaluation of conversation summaries: accuracy, adherence and completeness.

See docs/autoeval.md for the data model, the JSON output, the N/A rules and scoring.
"""

from __future__ import annotations

from .aggregate import DatasetSummary
from .evaluator import AUTO_METRICS, AutoEvaluator
from .model import ConversationItem, SectionDefinition, Turn
from .results import (
    AccuracyPoint,
    AutoEvalResult,
    AutoRecord,
    CompletenessRubric,
    ContentItem,
    MetricOutcome,
    RubricAnswer,
    SectionOutcome,
)
from .rubrics import RubricCache
from .transcript import render_transcript, verify_quote

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
