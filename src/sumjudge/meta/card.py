"""Judge cards: how well a judge agrees with human scores, per dataset and metric.

`meta_evaluate` turns human-judged rows plus a judge's scores into a `JudgeCard`,
a JSON-serialisable record with a bootstrap interval on every figure. The card's model lives
in `sumjudge.meta.schema` and `format_table` (for a terminal) in `sumjudge.meta.table`; both
are re-exported here.

Example:
    >>> rows = [
    ...     {"source_id": d, "system": s, "human": {"coherence": float((d + s) % 5)}}
    ...     for d in range(4) for s in range(4)
    ... ]
    >>> preds = {"coherence": [float((d + s) % 5) for d in range(4) for s in range(4)]}
    >>> card = meta_evaluate(rows, preds, judge="test/judge", metric_versions={},
    ...                      data_hash="0" * 64, n_resamples=50)
    >>> card.datasets["all"].metrics["coherence"].variants["score"]["summary_spearman"].value
    1.0
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timezone
from os import PathLike
from typing import Any

import numpy as np

from sumjudge.meta import stats
from sumjudge.meta.schema import (
    VARIANTS,
    DatasetFigures,
    Figure,
    JudgeCard,
    LabelKind,
    MetricFigures,
)
from sumjudge.meta.stats import ConstantPredPolicy, FloatArray, IntArray, Method
from sumjudge.meta.table import format_table

__all__ = [
    "VARIANTS",
    "DatasetFigures",
    "Figure",
    "JudgeCard",
    "LabelKind",
    "MetricFigures",
    "format_table",
    "hash_file",
    "label_kind",
    "meta_evaluate",
]

_FALLBACK_DATASET = "all"


def hash_file(path: str | PathLike[str]) -> str:
    """SHA-256 hex digest of a file's bytes (identifies the human-judged data of a card)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def label_kind(human: FloatArray) -> LabelKind:
    """`"binary"` when every present human value is 0 or 1, else `"likert"`."""
    present = human[~np.isnan(human)]
    return "binary" if bool(np.all((present == 0) | (present == 1))) else "likert"


def meta_evaluate(
    rows: Sequence[Mapping[str, Any]],
    predictions: Mapping[str, Sequence[float | None]],
    *,
    weighted_predictions: Mapping[str, Sequence[float | None]] | None = None,
    extra_predictions: Mapping[str, Mapping[str, Sequence[float | None]]] | None = None,
    variant_notes: Mapping[str, str] | None = None,
    judge: str,
    metric_versions: dict[str, str],
    data_hash: str,
    fixed_threshold: float | None = None,
    score_range: tuple[float, float] | None = None,
    n_resamples: int = 1000,
    seed: int = 0,
    alpha: float = 0.05,
    constant_pred: ConstantPredPolicy = "zero",
    sumjudge_version: str = "unknown",
    created_at: datetime | None = None,
) -> JudgeCard:
    """Measure a judge against human scores and return a `JudgeCard`.

    Rows are grouped by their `dataset` field (`"all"` when absent) and each dataset gets
    its own figures. For each metric the human label is `row["human"][metric]`; a metric's
    labels are binary on a dataset when all present values are 0 or 1, Likert otherwise; a
    metric with no labels on a dataset is left out of it.

    * Likert: summary-level (per `source_id`, averaged), pooled and system-level (if at least
      3 systems) Spearman and Kendall tau-b.
    * Binary: ROC AUC, balanced accuracy at the best threshold and at a fixed threshold.

    Every figure gets a percentile bootstrap interval from resampling `source_id` groups.

    Args:
        rows: Human-judged rows (`source_id`, `system`, `human`, optional `dataset`).
        predictions: Metric name -> judge score per row (`None` when unscored).
        weighted_predictions: The same for logprob-weighted scores, reported as the
            `weighted_score` variant beside `score`.
        extra_predictions: Further variants, variant name -> metric -> score per row (e.g.
            `{"raw": {...}}` for the offline judge's continuous score). Their default fixed
            threshold is the midpoint of their own observed range, not of `score`'s.
        variant_notes: Variant name -> what it means; recorded on the card.
        judge: The judge's name, e.g. `"openai/gpt-4o-mini"`.
        metric_versions: Metric name -> version of the metric (prompt) that was run.
        data_hash: `hash_file` of the data file.
        fixed_threshold: For binary labels, a score strictly above it predicts 1. Default:
            the midpoint of `score_range`, else of the observed range of the metric's scores
            (for 1-3 scores: 2, so only a 3 predicts "consistent").
        score_range: The judge's scale, e.g. `(1, 3)`, for the default fixed threshold.
        n_resamples: Bootstrap replicates per figure.
        seed: Bootstrap seed; the same replicates are used for every figure.
        alpha: 1 - confidence level of the intervals.
        constant_pred: How summary-level treats a judge constant within a document (see
            `sumjudge.meta.stats.group_correlations`).
        sumjudge_version: Recorded on the card.
        created_at: Recorded on the card; default now (UTC).

    Raises:
        ValueError: A prediction list does not match the rows, a row lacks `source_id`, or
            a metric has no human label in any row.
    """
    weighted = weighted_predictions or {}
    extra = dict(extra_predictions or {})
    for reserved in VARIANTS:
        if reserved in extra:
            raise ValueError(f"extra_predictions may not use the reserved variant {reserved!r}")
    sources_by_variant: list[tuple[str, Mapping[str, Sequence[float | None]]]] = [
        *zip(VARIANTS, (predictions, weighted), strict=True),
        *extra.items(),
    ]
    n = len(rows)
    metrics = list(dict.fromkeys(m for _, preds in sources_by_variant for m in preds))
    for name, preds in [(m, p) for _, src in sources_by_variant for m, p in src.items()]:
        if len(preds) != n:
            raise ValueError(f"predictions for {name!r} have {len(preds)} values for {n} rows")
    for i, row in enumerate(rows):
        if row.get("source_id") is None:
            raise ValueError(f"row {i} has no 'source_id' (needed to group summaries)")
    human = {m: _human_column(rows, m) for m in metrics}
    for m in metrics:
        if np.all(np.isnan(human[m])):
            raise ValueError(f"no row has a human {m!r} score")

    datasets: dict[str, list[int]] = {}
    for i, row in enumerate(rows):
        datasets.setdefault(str(row.get("dataset") or _FALLBACK_DATASET), []).append(i)
    source = np.array([str(row["source_id"]) for row in rows], dtype=object)
    system = np.array([_system_key(row, i) for i, row in enumerate(rows)], dtype=object)

    out: dict[str, DatasetFigures] = {}
    for name, members in datasets.items():
        idx = np.array(members, dtype=np.intp)
        per_metric: dict[str, MetricFigures] = {}
        for m in metrics:
            h = human[m][idx]
            if np.all(np.isnan(h)):
                continue
            kind = label_kind(h)
            variants: dict[str, dict[str, Figure]] = {}
            threshold = (
                _default_threshold(predictions.get(m), score_range)
                if fixed_threshold is None
                else fixed_threshold
            )
            for variant, source_preds in sources_by_variant:
                if m not in source_preds:
                    continue
                p = stats.as_float_array(source_preds[m])[idx]
                ctx = _Context(p, h, source[idx], system[idx], n_resamples, seed, alpha)
                if kind == "likert":
                    variants[variant] = _likert_figures(ctx, constant_pred)
                else:
                    own = variant not in VARIANTS and fixed_threshold is None
                    thr = _default_threshold(source_preds[m], None) if own else threshold
                    variants[variant] = _binary_figures(ctx, thr)
            per_metric[m] = MetricFigures(
                label_kind=kind, n_labelled=int(np.sum(~np.isnan(h))), variants=variants
            )
        out[name] = DatasetFigures(n_rows=len(members), metrics=per_metric)

    return JudgeCard(
        judge=judge,
        sumjudge_version=sumjudge_version,
        metric_versions=dict(metric_versions),
        data_hash=data_hash,
        n_rows=n,
        n_resamples=n_resamples,
        seed=seed,
        alpha=alpha,
        constant_pred=constant_pred,
        created_at=created_at or datetime.now(timezone.utc),
        datasets=out,
        variant_notes=dict(variant_notes or {}),
    )


def _human_column(rows: Sequence[Mapping[str, Any]], metric: str) -> FloatArray:
    values: list[float | None] = []
    for row in rows:
        labels = row.get("human") or {}
        values.append(labels.get(metric))
    return stats.as_float_array(values)


def _system_key(row: Mapping[str, Any], i: int) -> str:
    # A row without a system is its own system rather than merged with other unknowns.
    value = row.get("system")
    return f"\0row{i}" if value is None else str(value)


def _default_threshold(
    preds: Sequence[float | None] | None, score_range: tuple[float, float] | None
) -> float | None:
    if score_range is not None:
        return (score_range[0] + score_range[1]) / 2
    if preds is None:
        return None
    p = stats.as_float_array(preds)
    p = p[~np.isnan(p)]
    return float((p.min() + p.max()) / 2) if p.size else None


class _Context:
    """One dataset/metric/variant: the arrays and bootstrap settings shared by its figures."""

    def __init__(
        self,
        pred: FloatArray,
        human: FloatArray,
        sources: np.ndarray[Any, Any],
        systems: np.ndarray[Any, Any],
        n_resamples: int,
        seed: int,
        alpha: float,
    ) -> None:
        self.pred, self.human, self.sources, self.systems = pred, human, sources, systems
        self.n_resamples, self.seed, self.alpha = n_resamples, seed, alpha
        self.ok = ~(np.isnan(pred) | np.isnan(human))
        codes, keys = stats.encode_keys(sources)
        self.n_docs = len(keys)
        self.n_docs_used = int(np.unique(codes[self.ok]).size)

    def figure(
        self,
        statistic: stats.StatisticFn,
        *,
        n_items: int | None = None,
        groups: tuple[int | None, int | None] | None = None,
        threshold: float | None = None,
    ) -> Figure:
        boot = stats.bootstrap_ci(
            statistic, self.sources, n_resamples=self.n_resamples, seed=self.seed,
            alpha=self.alpha,
        )  # fmt: skip
        used, skipped = groups or (self.n_docs_used, self.n_docs - self.n_docs_used)
        return Figure(
            value=_finite(boot.estimate),
            ci_low=_finite(boot.ci_low),
            ci_high=_finite(boot.ci_high),
            n_items=int(self.ok.sum()) if n_items is None else n_items,
            n_missing=int((~self.ok).sum()),
            n_groups_used=used,
            n_groups_skipped=skipped,
            n_resamples_dropped=boot.n_invalid,
            threshold=threshold,
        )

    def pooled_statistic(self, fn: Callable[[FloatArray, FloatArray], float]) -> stats.StatisticFn:
        pred, human = self.pred, self.human

        def statistic(indices: IntArray, group_ids: IntArray) -> float:
            return fn(pred[indices], human[indices])

        return statistic


def _likert_figures(ctx: _Context, constant_pred: ConstantPredPolicy) -> dict[str, Figure]:
    figures: dict[str, Figure] = {}
    methods: tuple[Method, Method] = ("spearman", "kendall")
    for method in methods:
        summary = stats.summary_level(
            ctx.pred, ctx.human, ctx.sources, method, constant_pred=constant_pred
        )
        statistic = stats.summary_level_statistic(
            ctx.pred, ctx.human, ctx.sources, method, constant_pred=constant_pred
        )
        figures[f"summary_{method}"] = ctx.figure(
            statistic,
            n_items=summary.n_items,
            groups=(summary.n_groups_used, summary.n_groups_skipped),
        )
    for method in methods:
        figures[f"pooled_{method}"] = ctx.figure(ctx.pooled_statistic(_correlation_fn(method)))
    system = stats.system_level(ctx.pred, ctx.human, ctx.systems)
    if system.n_groups_used is not None and system.n_groups_used >= 3:
        for method in methods:
            figures[f"system_{method}"] = ctx.figure(
                stats.system_level_statistic(ctx.pred, ctx.human, ctx.systems, method),
                groups=(system.n_groups_used, system.n_groups_skipped),
            )
    return figures


def _correlation_fn(method: Method) -> Callable[[FloatArray, FloatArray], float]:
    def fn(pred: FloatArray, human: FloatArray) -> float:
        return stats.correlation(pred, human, method)

    return fn


def _binary_figures(ctx: _Context, threshold: float | None) -> dict[str, Figure]:
    best_threshold, _ = stats.best_threshold_balanced_accuracy(ctx.pred, ctx.human)
    figures = {
        "roc_auc": ctx.figure(ctx.pooled_statistic(stats.roc_auc)),
        "balanced_accuracy_best": ctx.figure(
            ctx.pooled_statistic(lambda p, h: stats.best_threshold_balanced_accuracy(p, h)[1]),
            threshold=_finite(best_threshold),
        ),
    }
    if threshold is not None:
        fixed = threshold
        figures["balanced_accuracy_fixed"] = ctx.figure(
            ctx.pooled_statistic(lambda p, h: stats.balanced_accuracy_at(p, h, fixed)),
            threshold=fixed,
        )
    return figures


def _finite(value: float) -> float | None:
    return None if math.isnan(value) else float(value)
