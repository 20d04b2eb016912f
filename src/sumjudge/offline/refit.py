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
  ``strength / (n + strength)``.

Consistency on dialogue sources has its own model (`load_dialogue_model`); `refit_all`
refits it on the dialogue rows and the prose model on the others, whichever the labels
cover. A scorer built with refitted models carries version ``"<version>+cal-<hash>"``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from .calibration import (
    METRICS,
    FloatMatrix,
    FloatVector,
    LinearModel,
    _within_group_rank,
    human_bin,
    load_dialogue_model,
    load_models,
    standardize,
)

if TYPE_CHECKING:
    from .scorer import OfflineScorer

__all__ = [
    "DEFAULT_STRENGTH",
    "Calibration",
    "Example",
    "Kind",
    "calibrated_version",
    "features_of",
    "label_kind",
    "refit",
    "refit_all",
]

Kind = Literal["likert", "binary"]

#: The prior counts as this many labelled summaries. Chosen before any learning curve was
#: run: 50 labels (a morning's review) move the weights halfway, 200 mostly to the labels.
DEFAULT_STRENGTH = 50.0
#: Labels that disagree with the prior do not erase it: its direction keeps at least this
#: share of a perfect predictor's scale, and only the data term moves the weights off it
#: (otherwise 25 noisy labels that happen to anti-correlate would zero every weight).
PRIOR_SCALE_FLOOR = 0.25
DIALOGUE_KEY = "consistency@dialogue"


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

    Returns:
        The refitted model; the prior itself when there are no labels.

    Raises:
        ValueError: Mismatched lengths, a negative strength, an unknown kind, or binary
            labels other than 0/1.
    """
    n = len(labels)
    if not len(features) == n == len(groups):
        raise ValueError("features, labels and groups must have the same length")
    if strength < 0:
        raise ValueError("strength must be >= 0")
    if kind not in ("likert", "binary"):
        raise ValueError(f"kind must be 'likert' or 'binary', not {kind!r}")
    y = np.asarray(labels, dtype=np.float64)
    if kind == "binary" and not np.isin(y, (0.0, 1.0)).all():
        raise ValueError("binary labels must be 0 or 1")
    if n == 0:
        return prior
    mean, std = np.array(prior.mean), np.array(prior.std)
    cols = list(zip(prior.features, prior.mean, strict=True))
    x = np.array([[f.get(c, m) for c, m in cols] for f in features], dtype=np.float64)
    z = standardize(x, mean, std)
    w0 = np.array(prior.weights)
    if kind == "likert":
        fit_groups = _ranking_groups(groups)
        t = _within_group_rank(y, fit_groups)
    else:
        fit_groups = ["all"] * n
        t = y.copy()
    zc, tc = _centre(z, fit_groups), _centre(t[:, None], fit_groups)[:, 0]
    w = _weights(zc, tc, w0, _directions(prior, signs), strength)
    # the prior's mean and spread on these rows: its cut points stay comparable
    p_raw, q = z @ w0, z @ w
    spread, prior_spread = float(np.std(q)), float(np.std(p_raw))
    # no order learnt (or none to keep): the prior's weights
    w = w * prior_spread / spread if spread > 1e-12 and prior_spread > 1e-12 else w0
    intercept = prior.intercept + float(np.mean(p_raw) - np.mean(z @ w))
    raw = intercept + z @ w
    fitted = _label_cuts(prior, raw, y, kind)
    keep = strength / (n + strength) if n + strength > 0 else 0.0
    lo, hi = (keep * c0 + (1 - keep) * c1 for c0, c1 in zip(prior.cuts, fitted, strict=True))
    return replace(prior, weights=tuple(w.tolist()), intercept=intercept, cuts=_ordered(lo, hi))


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


# -- the whole judge ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Example:
    """One labelled summary as the refit reads it.

    Attributes:
        features: Its signals (`features_of`, same mode as the calibration).
        dialogue: Whether its source is a dialogue (consistency then has its own model).
        group: Its source (any stable key: source_id, or the item id when unknown).
        labels: The person's value per metric, on the labels' own scale.
    """

    features: Mapping[str, float]
    dialogue: bool
    group: str
    labels: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Calibration:
    """The refitted models of one mode: what a calibration profile stores for the offline judge.

    Attributes:
        mode: "lexical" or "full" (the models read that mode's signals).
        models: Refitted prose models by metric (only the metrics the labels covered).
        dialogue_model: The refitted dialogue consistency model, when dialogue labels exist.
        n_labels: Labelled summaries per model fitted (`"consistency@dialogue"` for dialogues).
        strength: The prior's strength used.

    Example:
        >>> cal = Calibration("lexical", {}, None, {}, DEFAULT_STRENGTH)
        >>> cal.scorer().version
        '4'
    """

    mode: str
    models: Mapping[str, LinearModel]
    dialogue_model: LinearModel | None
    n_labels: Mapping[str, int]
    strength: float

    def scorer(self, **kwargs: Any) -> OfflineScorer:
        """An `OfflineScorer` of this mode judging with these models (kwargs: `progress`)."""
        from .scorer import OfflineScorer  # the scorer imports this module

        return OfflineScorer(
            use_embeddings=self.mode == "full",
            models=self.models,
            dialogue_model=self.dialogue_model,
            **kwargs,
        )

    def to_json(self) -> dict[str, Any]:
        """A JSON object (`from_json` reads it back)."""
        return {
            "mode": self.mode,
            "models": {m: v.to_json() for m, v in self.models.items()},
            "dialogue_model": (
                None if self.dialogue_model is None else self.dialogue_model.to_json()
            ),
            "n_labels": dict(self.n_labels),
            "strength": self.strength,
        }

    @staticmethod
    def from_json(d: Mapping[str, Any]) -> Calibration:
        """The calibration stored as `d` by `to_json`."""
        dlg = d.get("dialogue_model")
        return Calibration(
            str(d["mode"]),
            {m: LinearModel.from_json(v) for m, v in d["models"].items()},
            None if dlg is None else LinearModel.from_json(dlg),
            {k: int(v) for k, v in d.get("n_labels", {}).items()},
            float(d.get("strength", DEFAULT_STRENGTH)),
        )


def refit_all(
    mode: str,
    examples: Sequence[Example],
    *,
    strength: float = DEFAULT_STRENGTH,
    kinds: Mapping[str, Kind] | None = None,
    signs: Mapping[str, int] | None = None,
) -> Calibration:
    """Refit every model of `mode` that the examples have labels for.

    Consistency labels on dialogue sources refit the dialogue model, those on other sources
    the prose model; the other metrics use one model for both, as the scorer does. A
    metric's kind is `kinds[metric]` or what `label_kind` says of its labels.
    """
    priors = load_models(mode)
    models: dict[str, LinearModel] = {}
    counts: dict[str, int] = {}
    dialogue: LinearModel | None = None
    for metric in METRICS:
        rows = [e for e in examples if e.labels.get(metric) is not None]
        parts = {metric: rows}
        if metric == "consistency":
            parts = {metric: [e for e in rows if not e.dialogue]}
            parts[DIALOGUE_KEY] = [e for e in rows if e.dialogue]
        for key, part in parts.items():
            if not part:
                continue
            y = [float(e.labels[metric]) for e in part]
            kind = (kinds or {}).get(metric) or label_kind(y)
            prior = load_dialogue_model(mode) if key == DIALOGUE_KEY else priors[metric]
            fitted = refit(
                prior,
                [e.features for e in part],
                y,
                [e.group for e in part],
                kind,
                strength=strength,
                signs=signs,
            )
            counts[key] = len(part)
            if key == DIALOGUE_KEY:
                dialogue = fitted
            else:
                models[metric] = fitted
    return Calibration(mode, models, dialogue, counts, strength)


def calibrated_version(
    base: str, models: Mapping[str, LinearModel], dialogue_model: LinearModel
) -> str:
    """`"<base>+cal-<hash>"`: the hash (8 hex digits) of every model the scorer judges with.

    Two scorers with the same fit get the same version; any change of a weight or cut point
    changes it, so results say which fit judged them.
    """
    blob = json.dumps(
        {
            "models": {m: models[m].to_json() for m in sorted(models)},
            "dialogue": dialogue_model.to_json(),
        },
        sort_keys=True,
    )
    return f"{base}+cal-{hashlib.sha256(blob.encode('utf-8')).hexdigest()[:8]}"
