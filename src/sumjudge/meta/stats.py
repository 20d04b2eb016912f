"""Statistics for meta-evaluation: how well a judge's scores agree with human scores.

Pure functions over numpy arrays; no I/O. This module holds the rank correlations and their
summary-, pooled- and system-level forms, and re-exports the binary-label figures
(`sumjudge.meta.binary`) and the document bootstrap (`sumjudge.meta.bootstrap`), so every
statistic is importable from here. Conventions shared by every function:

* Missing values (`None` or `nan`) are dropped pairwise: an item counts only when both the
  judge score and the human score are present. Result objects report how many were dropped.
* Undefined statistics (constant input, a single class, too few items) are `nan`, never an
  exception, so that bootstrap replicates can be dropped and counted.
* Higher judge scores mean better summaries; for binary labels `1` is the positive class
  (e.g. "consistent") and a score is called positive when it is strictly above the threshold.

Example:
    >>> round(spearman([1, 2, 3, 4], [1, 3, 2, 4]), 3)
    0.8
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass

import numpy as np

from sumjudge.meta._arrays import (
    BoolArray,
    ConstantPredPolicy,
    FloatArray,
    IntArray,
    Keys,
    Method,
    StatisticFn,
    Values,
    as_float_array,
    encode_keys,
    present,
    rankdata,
)
from sumjudge.meta._arrays import is_constant as _is_constant
from sumjudge.meta._arrays import paired as _pair
from sumjudge.meta.binary import (
    balanced_accuracy,
    balanced_accuracy_at,
    best_threshold_balanced_accuracy,
    roc_auc,
)
from sumjudge.meta.bootstrap import BootstrapResult, bootstrap_ci

__all__ = [
    "BootstrapResult",
    "ConstantPredPolicy",
    "CorrelationResult",
    "FloatArray",
    "IntArray",
    "Keys",
    "Method",
    "StatisticFn",
    "Values",
    "as_float_array",
    "balanced_accuracy",
    "balanced_accuracy_at",
    "best_threshold_balanced_accuracy",
    "bootstrap_ci",
    "correlation",
    "encode_keys",
    "group_correlations",
    "group_kfold",
    "kendall_tau_b",
    "pooled",
    "rankdata",
    "roc_auc",
    "spearman",
    "summary_level",
    "summary_level_statistic",
    "system_level",
    "system_level_statistic",
]

# Above this many cells in the contingency table, Kendall's tau-b counts pairs directly.
_MAX_TABLE_CELLS = 1 << 22


def spearman(x: Values, y: Values) -> float:
    """Spearman rank correlation (average ranks for ties), as `scipy.stats.spearmanr`.

    Pairs with a missing value are dropped. Returns `nan` when fewer than 2 pairs remain or
    either side is constant.
    """
    a, b = _pair(x, y)
    if a.size < 2 or _is_constant(a) or _is_constant(b):
        return math.nan
    ra, rb = rankdata(a), rankdata(b)
    ra -= ra.mean()
    rb -= rb.mean()
    r = float(np.dot(ra, rb) / math.sqrt(float(np.dot(ra, ra)) * float(np.dot(rb, rb))))
    return min(1.0, max(-1.0, r))


def kendall_tau_b(x: Values, y: Values) -> float:
    """Kendall's tau-b (tie-corrected), as `scipy.stats.kendalltau(variant="b")`.

    `tau_b = (C - D) / sqrt((n0 - n1) * (n0 - n2))` with `n0` all pairs and `n1`/`n2`
    the pairs tied on `x`/`y`. Pairs with a missing value are dropped; `nan` when fewer
    than 2 pairs remain or either side is constant.
    """
    a, b = _pair(x, y)
    n = a.size
    if n < 2 or _is_constant(a) or _is_constant(b):
        return math.nan
    ua, ca = np.unique(a, return_inverse=True)
    ub, cb = np.unique(b, return_inverse=True)
    if ua.size * ub.size <= _MAX_TABLE_CELLS:
        s = _concordance_from_table(ca.ravel(), cb.ravel(), ua.size, ub.size)
    else:
        s = _concordance_pairwise(a, b)
    n0 = n * (n - 1) // 2
    ta = np.bincount(ca.ravel()).astype(np.int64)
    tb = np.bincount(cb.ravel()).astype(np.int64)
    n1 = int(np.sum(ta * (ta - 1) // 2))
    n2 = int(np.sum(tb * (tb - 1) // 2))
    tau = s / math.sqrt(n0 - n1) / math.sqrt(n0 - n2)
    return min(1.0, max(-1.0, tau))


def _concordance_from_table(ca: IntArray, cb: IntArray, ka: int, kb: int) -> int:
    """Concordant minus discordant pairs, via the `ka x kb` contingency table of codes."""
    table = np.bincount(ca * kb + cb, minlength=ka * kb).reshape(ka, kb).astype(np.int64)
    # above[i, j]: items with a-code > i and b-code > j (concordant partners of cell i, j).
    ge = table[::-1, ::-1].cumsum(axis=0).cumsum(axis=1)[::-1, ::-1]
    above = np.zeros((ka + 1, kb + 1), dtype=np.int64)
    above[:ka, :kb] = ge
    concordant = int(np.sum(table * above[1:, 1:]))
    # below[i, j]: items with a-code > i and b-code < j (discordant partners of cell i, j).
    le = table[::-1, :].cumsum(axis=0)[::-1, :].cumsum(axis=1)
    below = np.zeros((ka + 1, kb + 1), dtype=np.int64)
    below[:ka, 1:] = le
    discordant = int(np.sum(table * below[1:, :kb]))
    return concordant - discordant


def _concordance_pairwise(a: FloatArray, b: FloatArray, chunk: int = 1024) -> int:
    """Concordant minus discordant pairs by direct comparison, in row chunks (O(n^2))."""
    total = 0
    for start in range(0, a.size, chunk):
        da = np.sign(a[start : start + chunk, None] - a[None, :])
        db = np.sign(b[start : start + chunk, None] - b[None, :])
        total += int(np.sum(da * db))
    return total // 2  # every unordered pair was counted twice


def correlation(x: Values, y: Values, method: Method) -> float:
    """Spearman or Kendall tau-b correlation, chosen by `method`."""
    if method == "spearman":
        return spearman(x, y)
    if method == "kendall":
        return kendall_tau_b(x, y)
    raise ValueError(f"unknown correlation method {method!r}; use 'spearman' or 'kendall'")


@dataclass(frozen=True)
class CorrelationResult:
    """A correlation with the counts needed to judge it.

    Attributes:
        value: The correlation (`nan` if undefined).
        n_items: Items that contributed (both scores present; in a used group if grouped).
        n_missing: Items dropped because the judge or human score was missing.
        n_groups_used: Groups that contributed (documents for summary level, systems for
            system level); `None` for ungrouped statistics.
        n_groups_skipped: Groups left out (see the function); `None` for ungrouped ones.
    """

    value: float
    n_items: int
    n_missing: int
    n_groups_used: int | None = None
    n_groups_skipped: int | None = None


def group_correlations(
    pred: Values,
    human: Values,
    groups: Keys,
    method: Method = "spearman",
    *,
    constant_pred: ConstantPredPolicy = "zero",
) -> dict[Hashable, float | None]:
    """Per-group correlation between judge and human scores; `None` marks a skipped group.

    A group is skipped when fewer than 2 items have both scores, or when its human scores are
    all equal (no ranking to recover). When the judge's scores are constant within a group the
    correlation is undefined; with `constant_pred="zero"` (the default) it counts as 0, so a
    judge that cannot tell summaries apart gets no credit. `"skip"` drops such groups
    instead, as the G-Eval reference script does; that inflates coarse judges.
    """
    p, h = as_float_array(pred), as_float_array(human)
    codes, keys = encode_keys(groups)
    if not p.size == h.size == codes.size:
        raise ValueError("pred, human and groups must have the same length")
    ok = ~(np.isnan(p) | np.isnan(h))
    out: dict[Hashable, float | None] = {}
    for code, key in enumerate(keys):
        sel = ok & (codes == code)
        gp, gh = p[sel], h[sel]
        if gp.size < 2 or _is_constant(gh):
            out[key] = None
        elif _is_constant(gp):
            out[key] = 0.0 if constant_pred == "zero" else None
        else:
            out[key] = correlation(gp, gh, method)
    return out


def summary_level(
    pred: Values,
    human: Values,
    groups: Keys,
    method: Method = "spearman",
    *,
    constant_pred: ConstantPredPolicy = "zero",
) -> CorrelationResult:
    """Summary-level correlation (G-Eval): mean over source documents of the per-document one.

    See `group_correlations` for which documents are skipped and how a judge that is
    constant within a document is treated. `n_items` counts items in used documents.

    Example:
        >>> r = summary_level([1, 2, 3, 1, 1], [1, 2, 3, 4, 4], ["a", "a", "a", "b", "b"])
        >>> (r.value, r.n_groups_used, r.n_groups_skipped)
        (1.0, 1, 1)
    """
    # group_correlations first: it is the one that reports mismatched lengths.
    per_group = group_correlations(pred, human, groups, method, constant_pred=constant_pred)
    _, _, ok = present(pred, human)
    codes, keys = encode_keys(groups)
    used = [code for code, key in enumerate(keys) if per_group[key] is not None]
    values = [v for v in per_group.values() if v is not None]
    n_items = int(np.sum(ok & np.isin(codes, used)))
    return CorrelationResult(
        value=float(np.mean(values)) if values else math.nan,
        n_items=n_items,
        n_missing=int(np.sum(~ok)),
        n_groups_used=len(values),
        n_groups_skipped=len(per_group) - len(values),
    )


def summary_level_statistic(
    pred: Values,
    human: Values,
    groups: Keys,
    method: Method = "spearman",
    *,
    constant_pred: ConstantPredPolicy = "zero",
) -> StatisticFn:
    """A fast `bootstrap_ci` statistic equal to `summary_level` on each resample.

    A resampled document keeps all its items, so its correlation is the same as in the full
    data; each document's correlation is computed once and replicates only average them.
    """
    codes, keys = encode_keys(groups)
    per_group = group_correlations(pred, human, groups, method, constant_pred=constant_pred)
    per_code = np.array([math.nan if (v := per_group[k]) is None else v for k in keys])
    row_value = per_code[codes]

    def statistic(indices: IntArray, group_ids: IntArray) -> float:
        if indices.size == 0:
            return math.nan
        first = np.r_[True, group_ids[1:] != group_ids[:-1]]
        vals = row_value[indices[first]]
        vals = vals[~np.isnan(vals)]
        return float(np.mean(vals)) if vals.size else math.nan

    return statistic


def pooled(pred: Values, human: Values, method: Method = "spearman") -> CorrelationResult:
    """Correlation over all items at once (ignoring documents)."""
    p, h, ok = present(pred, human)
    return CorrelationResult(
        value=correlation(p[ok], h[ok], method), n_items=int(ok.sum()), n_missing=int((~ok).sum())
    )


def system_level(
    pred: Values,
    human: Values,
    systems: Keys,
    method: Method = "spearman",
    *,
    min_systems: int = 3,
) -> CorrelationResult:
    """System-level correlation: mean judge and human score per system, correlated over systems.

    Items with a missing score are dropped before averaging; a system with no items left is
    skipped. `nan` when fewer than `min_systems` systems remain.
    """
    p, h, ok = present(pred, human)
    codes, keys = encode_keys(systems)
    mp, mh = _system_means(p, h, codes, len(keys), ok)
    n_used = mp.size
    value = correlation(mp, mh, method) if n_used >= min_systems else math.nan
    return CorrelationResult(
        value=value,
        n_items=int(ok.sum()),
        n_missing=int((~ok).sum()),
        n_groups_used=n_used,
        n_groups_skipped=len(keys) - n_used,
    )


def _system_means(
    p: FloatArray, h: FloatArray, codes: IntArray, k: int, ok: BoolArray
) -> tuple[FloatArray, FloatArray]:
    counts = np.bincount(codes[ok], minlength=k)
    sum_p = np.bincount(codes[ok], weights=p[ok], minlength=k)
    sum_h = np.bincount(codes[ok], weights=h[ok], minlength=k)
    present = counts > 0
    return sum_p[present] / counts[present], sum_h[present] / counts[present]


def system_level_statistic(
    pred: Values, human: Values, systems: Keys, method: Method = "spearman", *, min_systems: int = 3
) -> StatisticFn:
    """A `bootstrap_ci` statistic equal to `system_level` on each resample."""
    p, h, ok = present(pred, human)
    codes, keys = encode_keys(systems)

    def statistic(indices: IntArray, group_ids: IntArray) -> float:
        mp, mh = _system_means(p[indices], h[indices], codes[indices], len(keys), ok[indices])
        return correlation(mp, mh, method) if mp.size >= min_systems else math.nan

    return statistic


# --- cross-validation ------------------------------------------------------------------------


def group_kfold(groups: Keys, k: int = 5) -> list[BoolArray]:
    """Deterministic k-fold split that keeps each group (source document) in one fold.

    Groups are dealt, largest first (ties by name), to the fold with the fewest items so
    far, so folds are balanced and the split does not depend on a random seed. Used to
    measure the offline judge's calibration on documents it was not fitted on.

    Args:
        groups: One key per item.
        k: The number of folds.

    Returns:
        One boolean test mask per fold; every item is in exactly one.
    """
    g = np.asarray(groups)
    uniq, counts = np.unique(g, return_counts=True)
    order = sorted(range(len(uniq)), key=lambda i: (-counts[i], str(uniq[i])))
    load = [0] * k
    fold_of: dict[str, int] = {}
    for i in order:
        f = int(np.argmin(load))
        fold_of[str(uniq[i])] = f
        load[f] += int(counts[i])
    return [np.array([fold_of[str(v)] == f for v in g]) for f in range(k)]
