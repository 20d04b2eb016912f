"""Refit of the offline judge's signal weights and cut points on a person's labels.

The shipped fit (`params.json`) is the prior. For each metric, `refit` moves the prior's
weights toward what the labels reward, no further than they can support:

* Same signals, same standardisation: the prior's features and their mean/std are kept,
  so a signal means what it meant, and inputs are clipped as before.
* Monotone: a weight keeps the sign of the prior's weight or becomes 0; a signal the prior
  does not use (weight 0) stays at 0 unless `signs` gives it a direction.
* Ridge toward the prior: minimise ``|t - Z w|^2 + strength * |w - a * w_prior|^2``, where
  ``t`` is the labels' target, ``Z`` the centred standardised signals, and ``a`` puts the
  prior's weights on the target's scale (the least-squares scale of the prior's prediction,
  at least `PRIOR_SCALE_FLOOR` of what a perfect predictor would need). `strength` counts
  as that many labelled summaries: with few labels the result stays near the prior.
  `choose_strength` picks it from the labels (K-fold by source, one-standard-error rule):
  the weights leave the prior only as far as that predicts held-out sources better.
* Targets: Likert labels (any scale) become each summary's rank among the labelled
  summaries of its source, as the shipped fit does (summary-level agreement is about that
  order); sources with a single labelled summary are ranked together. Binary labels (0/1)
  are fitted as values over all rows (a least-squares linear discriminant): ROC AUC, what
  binary labels measure, is about the order of all the rows.
* Scale: the refitted raw score has the prior's mean and spread on the labelled rows, so
  the prior's cut points keep their meaning and can be blended with the labels'.
* Cut points: Likert labels' 1-3 bins keep their shares (1-5 means through `human_bin`);
  for binary labels the upper cut ("3 vs below") maximises balanced accuracy and the lower
  one keeps the prior's distance below it. Either is then pulled toward the prior's cut by
  ``cut_strength / (n + cut_strength)`` (`cut_strength` defaults to `strength`).

`sumjudge.offline.profile` refits every model of a mode at once (consistency on dialogue
sources has its own model) and builds the scorer that judges with them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Literal

import numpy as np

from .calibration import (
    FloatMatrix,
    FloatVector,
    LinearModel,
    _within_group_rank,
    human_bin,
    standardize,
)

if TYPE_CHECKING:
    from .scorer import OfflineScorer

__all__ = [
    "DEFAULT_STRENGTH",
    "STRENGTH_GRID",
    "Kind",
    "choose_strength",
    "features_of",
    "label_kind",
    "refit",
]

Kind = Literal["likert", "binary"]

#: The prior counts as this many labelled summaries (`refit`'s default, and the cut points'
#: pull when `choose_strength` picks the weights' strength). Chosen before any learning
#: curve was run: 50 labels (a morning's review) move a cut point halfway.
DEFAULT_STRENGTH = 50.0
#: Labels that disagree with the prior do not erase it: its direction keeps at least this
#: share of a perfect predictor's scale, and only the data term moves the weights off it
#: (otherwise 25 noisy labels that happen to anti-correlate would zero every weight).
PRIOR_SCALE_FLOOR = 0.25
#: The strengths `choose_strength` tries: a log grid from "the labels mostly" to "the prior's
#: weights" (1e9: the prior's direction, on the labels' scale).
STRENGTH_GRID: tuple[float, ...] = (12.5, 50.0, 200.0, 800.0, 1e9)


def features_of(scorer: OfflineScorer, source: str, summary: str) -> tuple[dict[str, float], bool]:
    """The signals the scorer's models read for one pair, and whether the source is a dialogue.

    Use the scorer of the mode being calibrated: lexical and full modes have different
    signals and models.
    """
    a = scorer.analyse(source, summary)
    return dict(a.features), bool(a.source.dialogue)


def label_kind(labels: Sequence[float]) -> Kind:
    """The kind of a metric's labels: "binary" when every one is 0 or 1 (as in meta-eval)."""
    return "binary" if labels and all(v in (0.0, 1.0) for v in labels) else "likert"


def refit(
    prior: LinearModel,
    features: Sequence[Mapping[str, float]],
    labels: Sequence[float],
    groups: Sequence[str],
    kind: Kind,
    *,
    strength: float = DEFAULT_STRENGTH,
    signs: Mapping[str, int] | None = None,
    cut_strength: float | None = None,
) -> LinearModel:
    """The prior refitted on labelled summaries (see the module docstring).

    Args:
        prior: The shipped model of the metric (its features, standardisation, weights and
            cut points).
        features: The signals of each labelled summary (`features_of`); a missing signal
            counts as the prior's mean, as when scoring.
        labels: One label per summary: Likert on any scale (1-3 reviews, 1-5 means), or 0/1.
        groups: The source of each summary (Likert ranks are taken within a source).
        kind: "likert" or "binary" (`label_kind` decides as meta-eval does).
        strength: How many labelled summaries the prior counts as (>= 0). 0 fits the labels
            alone (still monotone); a very large value returns the prior's ranking.
        signs: Directions (+1/-1) for signals the prior gives weight 0; without one such a
            signal stays at 0.
        cut_strength: How many labelled summaries the prior's cut points count as (default
            `strength`): weights and cut points are separate questions, e.g. when
            `choose_strength` keeps the prior's weights, the labels may still move the cuts.

    Returns:
        The refitted model; the prior itself when there are no labels.

    Raises:
        ValueError: Mismatched lengths, a negative strength, an unknown kind, or binary
            labels other than 0/1.
    """
    if strength < 0 or (cut_strength is not None and cut_strength < 0):
        raise ValueError("strength must be >= 0")
    n = len(labels)
    y, z, zc, tc = _design(prior, features, labels, groups, kind)
    if n == 0:
        return prior
    w0 = np.array(prior.weights)
    w = _weights(zc, tc, w0, _directions(prior, signs), strength)
    # the prior's mean and spread on these rows: its cut points stay comparable
    p_raw, q = z @ w0, z @ w
    spread, prior_spread = float(np.std(q)), float(np.std(p_raw))
    # no order learnt (or none to keep): the prior's weights
    w = w * prior_spread / spread if spread > 1e-12 and prior_spread > 1e-12 else w0
    intercept = prior.intercept + float(np.mean(p_raw) - np.mean(z @ w))
    raw = intercept + z @ w
    fitted = _label_cuts(prior, raw, y, kind)
    cs = strength if cut_strength is None else cut_strength
    keep = cs / (n + cs) if n + cs > 0 else 0.0
    lo, hi = (keep * c0 + (1 - keep) * c1 for c0, c1 in zip(prior.cuts, fitted, strict=True))
    return replace(prior, weights=tuple(w.tolist()), intercept=intercept, cuts=_ordered(lo, hi))


def _design(
    prior: LinearModel,
    features: Sequence[Mapping[str, float]],
    labels: Sequence[float],
    groups: Sequence[str],
    kind: Kind,
) -> tuple[FloatVector, FloatMatrix, FloatMatrix, FloatVector]:
    """Labels, standardised signals, and both centred as the fit reads them (checked)."""
    n = len(labels)
    if not len(features) == n == len(groups):
        raise ValueError("features, labels and groups must have the same length")
    if kind not in ("likert", "binary"):
        raise ValueError(f"kind must be 'likert' or 'binary', not {kind!r}")
    y = np.asarray(labels, dtype=np.float64)
    if kind == "binary" and not np.isin(y, (0.0, 1.0)).all():
        raise ValueError("binary labels must be 0 or 1")
    cols = list(zip(prior.features, prior.mean, strict=True))
    x = np.array([[f.get(c, m) for c, m in cols] for f in features], dtype=np.float64)
    z = standardize(x.reshape(n, len(cols)), np.array(prior.mean), np.array(prior.std))
    if kind == "likert":
        fit_groups = _ranking_groups(groups)
        t = _within_group_rank(y, fit_groups)
    else:
        fit_groups = ["all"] * n
        t = y.copy()
    return y, z, _centre(z, fit_groups), _centre(t[:, None], fit_groups)[:, 0]


def choose_strength(
    prior: LinearModel,
    features: Sequence[Mapping[str, float]],
    labels: Sequence[float],
    groups: Sequence[str],
    kind: Kind,
    *,
    signs: Mapping[str, int] | None = None,
    grid: Sequence[float] = STRENGTH_GRID,
    folds: int = 5,
) -> float:
    """The prior's strength with which the refit best ranks sources it did not see.

    K-fold by source (K = min(`folds`, sources)): for each strength of `grid`, the
    correlation of the fit's prediction with its target on the held-out sources (a ranking
    criterion, blind to the scale, which `refit` normalises anyway). The largest strength
    whose mean over folds is within one standard error of the best is chosen (the
    one-standard-error rule): a departure from the prior has to rank held-out labels
    clearly better, so with few or noisy labels the prior's weights stay. With fewer than
    3 sources nothing can be held out: the prior's weights (the grid's largest strength).

    Raises:
        ValueError: As `refit`.
    """
    _, _, zc, tc = _design(prior, features, labels, groups, kind)
    keys = sorted(set(groups))
    if len(keys) < 3:
        return max(grid)
    k = min(folds, len(keys))
    rank = {g: i % k for i, g in enumerate(keys)}
    fold = np.array([rank[g] for g in groups])
    w0, sign = np.array(prior.weights), _directions(prior, signs)
    scores = np.zeros((len(grid), k))
    for f in range(k):
        test = fold == f
        for j, strength in enumerate(grid):
            w = _weights(zc[~test], tc[~test], w0, sign, strength)
            scores[j, f] = _correlation(zc[test] @ w, tc[test])
    mean, se = scores.mean(axis=1), scores.std(axis=1, ddof=1) / np.sqrt(k)
    best = int(np.argmax(mean))
    return max(s for s, m in zip(grid, mean, strict=True) if m >= mean[best] - se[best])


def _correlation(a: FloatVector, b: FloatVector) -> float:
    """Pearson correlation of two centred vectors; 0 when either is constant."""
    den = float(np.sqrt((a @ a) * (b @ b)))
    return float(a @ b) / den if den > 1e-18 else 0.0


def _ranking_groups(groups: Sequence[str]) -> list[str]:
    """Each source with two or more labelled summaries, and the single ones as one group.

    Review labels often have one summary per source: within-source ranks would say nothing,
    ranking such summaries together still does.
    """
    counts: dict[str, int] = {}
    for g in groups:
        counts[g] = counts.get(g, 0) + 1
    return [f"src:{g}" if counts[g] > 1 else "single" for g in groups]


def _centre(a: FloatMatrix, groups: Sequence[str]) -> FloatMatrix:
    """`a` with each group's column means subtracted."""
    out: FloatMatrix = np.array(a, dtype=np.float64)
    g = np.asarray(groups)
    for grp in np.unique(g):
        m = g == grp
        out[m] -= out[m].mean(axis=0)
    return out


def _directions(prior: LinearModel, signs: Mapping[str, int] | None) -> FloatVector:
    """+1/-1 for the direction each weight must keep, 0 for a weight held at 0."""
    return np.array(
        [
            float(np.sign(w)) if w != 0 else float(np.sign((signs or {}).get(f, 0)))
            for f, w in zip(prior.features, prior.weights, strict=True)
        ]
    )


def _weights(
    zc: FloatMatrix, t: FloatVector, w0: FloatVector, sign: FloatVector, strength: float
) -> FloatVector:
    """Minimise |t - zc w|^2 + strength |w - a w0|^2 with sign * w >= 0 (see module doc)."""
    p = zc @ w0
    pp, tt = float(p @ p), float(t @ t)
    if tt <= 1e-18:  # the labels rank nothing (all equal within their groups)
        return np.array(w0, dtype=np.float64)
    a = max(float(p @ t) / pp, PRIOR_SCALE_FLOOR * np.sqrt(tt / pp)) if pp > 1e-18 else 0.0
    target = a * w0
    h = zc.T @ zc + strength * np.eye(len(w0))
    g = zc.T @ t + strength * target
    w: FloatVector = np.where(sign * target > 0, target, 0.0)
    free = np.flatnonzero(sign != 0)
    # coordinate descent on a convex quadratic with sign bounds: each step is exact, and a
    # dozen signals converge in a few hundred sweeps at most
    for _ in range(2000):
        moved = 0.0
        for i in free:
            if h[i, i] <= 1e-12:
                continue
            new = (g[i] - h[i] @ w + h[i, i] * w[i]) / h[i, i]
            new = new if sign[i] * new > 0 else 0.0
            moved = max(moved, abs(new - w[i]))
            w[i] = new
        if moved < 1e-12:
            break
    return w


def _label_cuts(
    prior: LinearModel, raw: FloatVector, y: FloatVector, kind: Kind
) -> tuple[float, float]:
    """Cut points the labels alone call for (on the refitted raw score of their rows)."""
    if kind == "likert":
        # labels above 3 are on SummEval's 1-5 scale; otherwise they are 1-3 scores
        if float(y.max()) > 3:
            bins = np.array([human_bin(v) for v in y], dtype=np.float64)
        else:
            bins = np.clip(np.rint(y), 1, 3)
        s1, s2 = float(np.mean(bins == 1)), float(np.mean(bins <= 2))
        return float(np.quantile(raw, s1)), float(np.quantile(raw, s2))
    if y.min() == y.max():  # one class: no threshold to balance
        return prior.cuts
    hi = _balanced_cut(raw, y)
    return hi - (prior.cuts[1] - prior.cuts[0]), hi


def _balanced_cut(raw: FloatVector, y: FloatVector) -> float:
    """The threshold (raw >= it predicts 1) with the best balanced accuracy on (raw, y)."""
    values = np.unique(raw)
    cands = np.concatenate(([values[0] - 1e-6], (values[1:] + values[:-1]) / 2))
    pos, neg = y == 1, y == 0
    best, cut = -1.0, float(cands[0])
    for c in cands:
        pred = raw >= c
        bal = (float(np.mean(pred[pos])) + float(np.mean(~pred[neg]))) / 2
        if bal > best:
            best, cut = bal, float(c)
    return cut


def _ordered(lo: float, hi: float) -> tuple[float, float]:
    return (lo, hi) if hi > lo else (lo, lo + 1e-6)
