"""Agreement with people before and after calibration, measured on items not fitted on.

Folds are grouped by source document (`meta.stats.group_kfold`): a calibration fitted on
some documents is scored on the others, so the "after" figures are never in-sample. Each
figure has a percentile bootstrap interval over documents, and so has the paired
difference after - before; a gain is claimed only when that interval lies above 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..meta.binary import balanced_accuracy, roc_auc
from ..meta.stats import group_kfold, kendall_tau_b, spearman, summary_level
from .fit import LabelKind, label_kind
from .joined import LabelledItem

__all__ = ["Fold", "Predictions", "cross_validate", "verdict"]

#: fit_predict(train indices, test indices) -> predictions for the test items.
Fold = Callable[[Sequence[int], Sequence[int]], "Predictions"]


@dataclass(frozen=True)
class Predictions:
    """Scores for some items: per metric a 1-3 and a continuous score, and the rating."""

    scores: Mapping[str, Sequence[int]]
    continuous: Mapping[str, Sequence[float | None]]
    ratings: Sequence[str | None]


def cross_validate(
    items: Sequence[LabelledItem],
    metrics: Sequence[str],
    fit_predict: Fold,
    *,
    k: int = 5,
    n_resamples: int = 1000,
    seed: int = 0,
    alpha: float = 0.05,
) -> dict[str, Any]:
    """Before/after figures per metric and for the rating, with intervals and verdicts.

    Returns:
        `{"folds": k, "metrics": {metric: {statistic: figure}}, "rating": {...}}`, where a
        figure is `{"before", "after", "diff", "before_ci", "after_ci", "diff_ci",
        "verdict"}`; `{"folds": 0, "note": ...}` when there are too few documents.
    """
    groups = [i.group for i in items]
    n_groups = len(set(groups))
    if n_groups < 3:
        return {"folds": 0, "note": f"{n_groups} source document(s): too few to cross-validate"}
    k = min(k, n_groups)
    after = _out_of_fold(items, metrics, fit_predict, groups, k)
    before = Predictions(
        scores={m: [i.judge[m].score if m in i.judge else 0 for i in items] for m in metrics},
        continuous={m: [_continuous(i, m) for i in items] for m in metrics},
        ratings=[i.judge_rating for i in items],
    )
    rng = np.random.default_rng(seed)
    codes = {g: n for n, g in enumerate(sorted(set(groups)))}
    gid = np.array([codes[g] for g in groups])
    members = [np.flatnonzero(gid == c) for c in range(len(codes))]
    draws = [
        np.concatenate([members[c] for c in rng.integers(0, len(codes), len(codes))])
        for _ in range(n_resamples)
    ]
    out: dict[str, Any] = {"folds": k, "metrics": {}, "n_items": len(items)}
    for m in metrics:
        idx = [n for n, i in enumerate(items) if m in i.human and m in i.judge]
        if len(idx) < 4:
            continue
        human = np.array([items[n].human[m] for n in idx])
        kind = label_kind(human.tolist())
        stats = _statistics(kind)
        figures: dict[str, Any] = {"label_kind": kind, "n": len(idx)}
        for name, fn in stats.items():
            figures[name] = _figure(fn, before, after, m, human, idx, groups, draws, alpha)
        out["metrics"][m] = figures
    rated = [n for n, i in enumerate(items) if i.rating]
    if len(rated) >= 4:
        people = [items[n].rating for n in rated]
        out["rating"] = {
            "n": len(rated),
            "exact_agreement": _rating_figure(before, after, people, rated, draws, alpha),
        }
    return out


def verdict(diff_ci: tuple[float, float] | None) -> str:
    """The verdict on a difference: gain or worse only when its interval excludes 0."""
    if diff_ci is None or any(math.isnan(v) for v in diff_ci):
        return "not measurable"
    if diff_ci[0] > 0:
        return "gain"
    if diff_ci[1] < 0:
        return "worse"
    return "no change shown"


def _out_of_fold(
    items: Sequence[LabelledItem],
    metrics: Sequence[str],
    fit_predict: Fold,
    groups: Sequence[str],
    k: int,
) -> Predictions:
    scores: dict[str, list[int]] = {m: [0] * len(items) for m in metrics}
    cont: dict[str, list[float | None]] = {m: [None] * len(items) for m in metrics}
    ratings: list[str | None] = [None] * len(items)
    for mask in group_kfold(groups, k):
        test = [int(n) for n in np.flatnonzero(mask)]
        train = [int(n) for n in np.flatnonzero(~mask)]
        pred = fit_predict(train, test)
        for j, n in enumerate(test):
            for m in metrics:
                scores[m][n] = pred.scores[m][j]
                cont[m][n] = pred.continuous[m][j]
            ratings[n] = pred.ratings[j]
    return Predictions(scores, cont, ratings)


Stat = Callable[[np.ndarray, np.ndarray, np.ndarray, Sequence[str]], float]


def _statistics(kind: LabelKind) -> dict[str, Stat]:
    if kind == "binary":
        return {
            "roc_auc": lambda cont, score, human, g: roc_auc(cont, human),
            "balanced_accuracy": lambda cont, score, human, g: balanced_accuracy(score >= 3, human),
        }
    return {
        "spearman": lambda cont, score, human, g: spearman(cont, human),
        "kendall": lambda cont, score, human, g: kendall_tau_b(cont, human),
        "summary_spearman": lambda cont, score, human, g: summary_level(cont, human, g).value,
    }


def _figure(
    fn: Stat,
    before: Predictions,
    after: Predictions,
    metric: str,
    human: np.ndarray,
    idx: Sequence[int],
    groups: Sequence[str],
    draws: Sequence[np.ndarray],
    alpha: float,
) -> dict[str, Any]:
    position = np.full(len(groups), -1)
    position[np.asarray(idx, dtype=int)] = np.arange(len(idx))

    def arrays(p: Predictions) -> tuple[np.ndarray, np.ndarray]:
        score = np.array([p.scores[metric][n] for n in idx], dtype=float)
        cont = np.array(
            [
                p.continuous[metric][n] if p.continuous[metric][n] is not None else math.nan
                for n in idx
            ]
        )
        # No continuous score (a parsed LLM verdict): rank by the 1-3 itself.
        return np.where(np.isnan(cont), score, cont), score

    b_cont, b_score = arrays(before)
    a_cont, a_score = arrays(after)
    g = [groups[n] for n in idx]

    def value(c: np.ndarray, s: np.ndarray, sel: np.ndarray) -> float:
        try:
            return float(fn(c[sel], s[sel], human[sel], [g[j] for j in sel]))
        except (ValueError, ZeroDivisionError):
            return math.nan

    everything = np.arange(len(idx))
    b0, a0 = value(b_cont, b_score, everything), value(a_cont, a_score, everything)
    reps = []
    for draw in draws:
        sel = position[draw]
        sel = sel[sel >= 0]
        if sel.size < 4:
            continue
        reps.append((value(b_cont, b_score, sel), value(a_cont, a_score, sel)))
    return _summarise(b0, a0, reps, alpha)


def _rating_figure(
    before: Predictions,
    after: Predictions,
    people: Sequence[str | None],
    rated: Sequence[int],
    draws: Sequence[np.ndarray],
    alpha: float,
) -> dict[str, Any]:
    b = np.array([before.ratings[n] == people[j] for j, n in enumerate(rated)], dtype=float)
    a = np.array([after.ratings[n] == people[j] for j, n in enumerate(rated)], dtype=float)
    position = np.full(len(before.ratings), -1)
    position[np.asarray(rated, dtype=int)] = np.arange(len(rated))
    reps = []
    for draw in draws:
        sel = position[draw]
        sel = sel[sel >= 0]
        if sel.size:
            reps.append((float(b[sel].mean()), float(a[sel].mean())))
    return _summarise(float(b.mean()), float(a.mean()), reps, alpha)


def _summarise(
    before: float, after: float, reps: Sequence[tuple[float, float]], alpha: float
) -> dict[str, Any]:
    def ci(values: Sequence[float]) -> tuple[float, float] | None:
        v = np.array([x for x in values if not math.isnan(x)])
        if v.size < 20:
            return None
        lo, hi = np.quantile(v, [alpha / 2, 1 - alpha / 2])
        return (round(float(lo), 4), round(float(hi), 4))

    diff_ci = ci([a - b for b, a in reps])
    return {
        "before": _round(before),
        "after": _round(after),
        "diff": _round(after - before),
        "before_ci": ci([b for b, _ in reps]),
        "after_ci": ci([a for _, a in reps]),
        "diff_ci": diff_ci,
        "verdict": verdict(diff_ci),
    }


def _round(v: float) -> float | None:
    return None if math.isnan(v) else round(v, 4)


def _continuous(item: LabelledItem, metric: str) -> float | None:
    j = item.judge.get(metric)
    if j is None:
        return None
    return j.weighted if j.weighted is not None else j.raw
