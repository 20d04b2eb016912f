"""Meta-evaluation: how well a judge's scores agree with human scores.

:mod:`sumjudge.meta.stats` holds the statistics (correlations, AUC, balanced accuracy, document
bootstrap); :mod:`sumjudge.meta.card` turns scored rows into a :class:`JudgeCard`.
"""

from __future__ import annotations

from sumjudge.meta.card import (
    DatasetFigures,
    Figure,
    JudgeCard,
    MetricFigures,
    format_table,
    hash_file,
    meta_evaluate,
)
from sumjudge.meta.stats import (
    BootstrapResult,
    CorrelationResult,
    balanced_accuracy,
    balanced_accuracy_at,
    best_threshold_balanced_accuracy,
    bootstrap_ci,
    kendall_tau_b,
    pooled,
    roc_auc,
    spearman,
    summary_level,
    system_level,
)

__all__ = [
    "BootstrapResult",
    "CorrelationResult",
    "DatasetFigures",
    "Figure",
    "JudgeCard",
    "MetricFigures",
    "balanced_accuracy",
    "balanced_accuracy_at",
    "best_threshold_balanced_accuracy",
    "bootstrap_ci",
    "format_table",
    "hash_file",
    "kendall_tau_b",
    "meta_evaluate",
    "pooled",
    "roc_auc",
    "spearman",
    "summary_level",
    "system_level",
]
