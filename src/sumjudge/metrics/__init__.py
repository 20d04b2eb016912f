"""Metrics: one module per metric, each data plus pure functions.

The shared pieces other packages use are re-exported here (their modules, `_base` and
`_conversation`, are the package's own): the score metrics' options, plan and prompt
parts, the known explanation languages, and the conversation metrics' context.
"""

from __future__ import annotations

from ._base import (
    LANGUAGES,
    SCORE_SCHEMA,
    JudgeOptions,
    ScoreMetric,
    score_plan,
    shared_prefix,
    system_message,
)
from ._conversation import ConversationContext, data_block
from .coherence import COHERENCE
from .consistency import CONSISTENCY
from .fluency import FLUENCY
from .relevance import RELEVANCE

__all__ = [
    "COHERENCE",
    "CONSISTENCY",
    "FLUENCY",
    "LANGUAGES",
    "RELEVANCE",
    "SCORE_SCHEMA",
    "SUMMARY_METRICS",
    "ConversationContext",
    "JudgeOptions",
    "ScoreMetric",
    "data_block",
    "score_plan",
    "shared_prefix",
    "system_message",
]

SUMMARY_METRICS: dict[str, ScoreMetric] = {
    m.name: m for m in (COHERENCE, CONSISTENCY, RELEVANCE, FLUENCY)
}
