"""Linear calibration of features onto a continuous raw score and 1-3 bins.

The fitted parameters live in `params.json` next to this module and are produced by
`scripts/fit_offline.py` from the SummEval dev rows only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

METRICS: tuple[str, ...] = ("coherence", "consistency", "relevance", "fluency")

# SummEval human scores are means of three 1-5 ratings. Bins used for 1-3 calibration:
# 1 = mean < 3 (poor), 2 = 3 <= mean < 4 (fair), 3 = mean >= 4 (good: "4" is good on the
# experts' five-point scale). With 4.5 as the edge of "good", only the best 14% of
# SummEval's 2017-era news summaries were good on coherence, and a clean modern meeting
# summary landed on 2.
HUMAN_BIN_EDGES: tuple[float, float] = (3.0, 4.0)


def human_bin(score: float) -> int:
    """Map a 1-5 SummEval mean onto the 1-3 bins."""
    return 1 if score < HUMAN_BIN_EDGES[0] else 2 if score < HUMAN_BIN_EDGES[1] else 3


#: Standardised signals are clipped to +/- Z_CLIP: beyond the range seen in calibration a
#: signal stops pushing. Without it, inputs unlike SummEval's three-sentence news summaries
#: (a 15-sentence sectioned meeting summary is 14 standard deviations "long") were decided
#: by one extrapolated feature.
Z_CLIP = 3.0


def standardize(x: Any, mean: Any, std: Any) -> Any:
    """(x - mean) / std, clipped to +/- Z_CLIP."""
    return np.clip((x - mean) / std, -Z_CLIP, Z_CLIP)


@dataclass(frozen=True)
class LinearModel:
    """raw = intercept + sum(w * (x - mean) / std); 1-3 via two cut points on raw."""

    features: tuple[str, ...]
    mean: tuple[float, ...]
    std: tuple[float, ...]
    weights: tuple[float, ...]
    intercept: float
    cuts: tuple[float, float]

    def raw(self, feats: Mapping[str, float]) -> float:
        """The continuous score of a feature dict (a missing feature counts as its mean)."""
        x = np.array([feats.get(f, m) for f, m in zip(self.features, self.mean, strict=True)])
        z = standardize(x, np.array(self.mean), np.array(self.std))
        return float(self.intercept + z @ np.array(self.weights))

    def bin(self, raw: float) -> int:
        """The 1-3 score of a raw score."""
        return 1 if raw < self.cuts[0] else 2 if raw < self.cuts[1] else 3

    def contributions(self, feats: Mapping[str, float]) -> dict[str, float]:
        """Per-feature contribution to raw (for explanations and debugging)."""
        return {
            f: w * float(np.clip((feats.get(f, m) - m) / s, -Z_CLIP, Z_CLIP))
            for f, m, s, w in zip(self.features, self.mean, self.std, self.weights, strict=True)
        }

    def to_json(self) -> dict[str, Any]:
        """The model as the JSON object stored in `params.json` (rounded to 6 decimals)."""
        return {
            "features": list(self.features),
            "mean": [round(v, 6) for v in self.mean],
            "std": [round(v, 6) for v in self.std],
            "weights": [round(v, 6) for v in self.weights],
            "intercept": round(self.intercept, 6),
            "cuts": [round(v, 6) for v in self.cuts],
        }

    @staticmethod
    def from_json(d: Mapping[str, Any]) -> LinearModel:
        """The model stored as `d` by `to_json`."""
        return LinearModel(
            tuple(d["features"]),
            tuple(float(v) for v in d["mean"]),
            tuple(float(v) for v in d["std"]),
            tuple(float(v) for v in d["weights"]),
            float(d["intercept"]),
            (float(d["cuts"][0]), float(d["cuts"][1])),
        )


FloatMatrix = npt.NDArray[np.float64]
FloatVector = npt.NDArray[np.float64]


def fit_linear(
    x: FloatMatrix,
    y: npt.NDArray[np.float64],
    groups: Sequence[str],
    features: Sequence[str],
    *,
    alpha: float = 10.0,
    signs: Mapping[str, int] | None = None,
    target: str = "value",
) -> LinearModel:
    """Fit a linear model of the features onto human scores.

    Ridge regression on within-source-centred data (summary-level ranking is what matters),
    intercept refitted on the raw data, cut points matching the human 1-3 bin shares.

    Args:
        x: One row of features per summary, columns in the order of `features`.
        y: The human score of each summary (SummEval 1-5 means).
        groups: The source document of each summary.
        features: The feature names.
        alpha: The ridge penalty.
        signs: Optionally constrains features to a sign (+1/-1); violating weights are zeroed
            and the model refitted, so every signal stays monotone in its intended direction.
        target: "value" fits the human values. "rank" fits each summary's rank among the
            summaries of its source (scaled to 0-1) instead: the ranking is what summary-level
            agreement measures, and ranks are not dominated by the few documents with a wide
            spread of scores. The cut points still come from the human values.

    Returns:
        The fitted model.

    Raises:
        ValueError: `target` is neither "value" nor "rank".
    """
    human = y.astype(np.float64)
    if target == "rank":
        y = _within_group_rank(human, groups)
    elif target != "value":
        raise ValueError(f"target must be 'value' or 'rank', not {target!r}")
    mean = x.mean(axis=0)
    std = x.std(axis=0)
    std[std < 1e-9] = 1.0
    z = standardize(x, mean, std)
    g = np.asarray(groups)
    zc = z.copy()
    yc = y.astype(np.float64).copy()
    for grp in np.unique(g):
        m = g == grp
        zc[m] -= zc[m].mean(axis=0)
        yc[m] -= yc[m].mean()
    active = np.ones(len(features), dtype=bool)
    w = np.zeros(len(features))
    for _ in range(len(features)):
        za = zc[:, active]
        wa = np.linalg.solve(za.T @ za + alpha * np.eye(za.shape[1]), za.T @ yc)
        w = np.zeros(len(features))
        w[active] = wa
        bad = [
            i for i, f in enumerate(features) if signs and active[i] and signs.get(f, 0) * w[i] < 0
        ]
        if not bad:
            break
        for i in bad:
            active[i] = False
    pred = z @ w
    intercept = float(np.mean(y) - np.mean(pred))
    raw = pred + intercept
    bins = np.array([human_bin(v) for v in human])
    share1 = float(np.mean(bins == 1))
    share2 = float(np.mean(bins <= 2))
    cuts = (float(np.quantile(raw, share1)), float(np.quantile(raw, share2)))
    if cuts[1] <= cuts[0]:
        cuts = (cuts[0], cuts[0] + 1e-6)
    return LinearModel(
        tuple(features),
        tuple(mean.tolist()),
        tuple(std.tolist()),
        tuple(w.tolist()),
        intercept,
        cuts,
    )


def _within_group_rank(y: npt.NDArray[np.float64], groups: Sequence[str]) -> FloatVector:
    """Average rank of each value within its group, divided by the group size."""
    g = np.asarray(groups)
    out = np.zeros(len(y))
    for grp in np.unique(g):
        idx = np.flatnonzero(g == grp)
        vals = y[idx]
        # average ranks for ties, without scipy
        order = np.argsort(vals, kind="mergesort")
        ranks = np.empty(len(vals))
        ranks[order] = np.arange(1, len(vals) + 1)
        for v in np.unique(vals):
            tie = vals == v
            ranks[tie] = ranks[tie].mean()
        out[idx] = ranks / len(idx)
    return out


@lru_cache(maxsize=1)
def load_params() -> dict[str, Any]:
    """The shipped `params.json`, read once."""
    text = resources.files(__package__).joinpath("params.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def load_models(mode: str) -> dict[str, LinearModel]:
    """Fitted models for `mode` ("full" or "lexical"), one per metric."""
    params = load_params()
    return {m: LinearModel.from_json(params["models"][mode][m]) for m in METRICS}


def load_dialogue_model(mode: str) -> LinearModel:
    """Consistency model for dialogue sources ("Speaker: text" turns).

    It is an untrained, equal-weight average of standardised signals (the standardisation
    constants are label-free).
    """
    return LinearModel.from_json(load_params()["dialogue_consistency"][mode])
