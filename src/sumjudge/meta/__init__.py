"""Meta-evaluation: how well a judge's scores agree with human scores.

* `sumjudge.meta.stats`: the statistics (rank correlations at summary, pooled and system
  level), re-exporting the binary-label figures of `sumjudge.meta.binary` (ROC AUC, balanced
  accuracy) and the document bootstrap of `sumjudge.meta.bootstrap`;
* `sumjudge.meta.card`: `meta_evaluate`, which turns scored rows into a `JudgeCard` (the
  model in `sumjudge.meta.schema`; `format_table` in `sumjudge.meta.table` prints it);
* `sumjudge.meta.run`: `meta_eval`, which runs a judge over human-judged rows first.
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
