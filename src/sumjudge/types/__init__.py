"""The values that flow through sumjudge: inputs, per-metric verdicts and results.

Everything here is a frozen value with no I/O. `SummaryData` and `MetricResult` keep the
specification's import path (`sumjudge.types`).
"""

from __future__ import annotations

from .conversation import (
    FREE_TEXT_SECTION,
    ConversationItem,
    SectionDefinition,
    Turn,
    coerce_conversation,
    coerce_section,
)
from .outcomes import (
    AccuracyPoint,
    AutoEvalResult,
    CompletenessRubric,
    ContentItem,
    MetricOutcome,
    RubricAnswer,
    SectionOutcome,
    percent,
)
from .sections import NO_DEFINITION, NO_DEFINITIONS, SectionPlan, plan_sections
from .summary import MetricResult, SummaryData, SummaryResult, coerce_item

__all__ = [
    "FREE_TEXT_SECTION",
    "NO_DEFINITION",
    "NO_DEFINITIONS",
    "AccuracyPoint",
    "AutoEvalResult",
    "CompletenessRubric",
    "ContentItem",
    "ConversationItem",
    "MetricOutcome",
    "MetricResult",
    "RubricAnswer",
    "SectionDefinition",
    "SectionOutcome",
    "SectionPlan",
    "SummaryData",
    "SummaryResult",
    "Turn",
    "coerce_conversation",
    "coerce_item",
    "coerce_section",
    "percent",
    "plan_sections",
]
