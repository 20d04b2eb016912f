"""A refit of every offline model of one mode on a person's labels, and the scorer using it.

`refit_all` refits, with `refit.refit`, each model the labels cover: consistency labels on
dialogue sources refit the dialogue consistency model (`load_dialogue_model`), those on
other sources the prose one; the other metrics have one model for both, as in the scorer.
`Calibration` is what a calibration profile stores for the offline judge; its `scorer()`
judges with the refitted models and carries the version ``"<version>+cal-<hash>"``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .calibration import METRICS, LinearModel, load_dialogue_model, load_models
from .refit import DEFAULT_STRENGTH, Kind, choose_strength, label_kind, refit

if TYPE_CHECKING:
    from .scorer import OfflineScorer

__all__ = ["DIALOGUE_KEY", "Calibration", "Example", "calibrated_version", "refit_all"]

#: The key of the dialogue consistency model in `Calibration.n_labels`.
DIALOGUE_KEY = "consistency@dialogue"


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
        strengths: The prior's strength each model was refitted with (same keys).

    Example:
        >>> cal = Calibration("lexical", {}, None, {}, {})
        >>> cal.scorer().version
        '5'
    """

    mode: str
    models: Mapping[str, LinearModel]
    dialogue_model: LinearModel | None
    n_labels: Mapping[str, int]
    strengths: Mapping[str, float]

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
            "strengths": dict(self.strengths),
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
            {k: float(v) for k, v in d.get("strengths", {}).items()},
        )


def refit_all(
    mode: str,
    examples: Sequence[Example],
    *,
    strength: float | None = None,
    kinds: Mapping[str, Kind] | None = None,
    signs: Mapping[str, int] | None = None,
) -> Calibration:
    """Refit every model of `mode` that the examples have labels for.

    Consistency labels on dialogue sources refit the dialogue model, those on other sources
    the prose model; the other metrics use one model for both, as the scorer does. A
    metric's kind is `kinds[metric]` or what `label_kind` says of its labels.

    Args:
        mode: "lexical" or "full": the shipped models of that mode are the priors.
        examples: The labelled summaries (their features from a scorer of `mode`).
        strength: The prior's strength for every model; None (the default) chooses it per
            model with `choose_strength`, and then pulls the cut points toward the prior's
            with `DEFAULT_STRENGTH` (the labels may move them even when the weights stay).
        kinds: "likert" or "binary" per metric, when the labels' values do not say.
        signs: Directions for signals the priors give weight 0 (see `refit`).
    """
    priors = load_models(mode)
    models: dict[str, LinearModel] = {}
    counts: dict[str, int] = {}
    strengths: dict[str, float] = {}
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
            feats, groups = [e.features for e in part], [e.group for e in part]
            chosen = strength
            if chosen is None:
                chosen = choose_strength(prior, feats, y, groups, kind, signs=signs)
            fitted = refit(
                prior,
                feats,
                y,
                groups,
                kind,
                strength=chosen,
                signs=signs,
                cut_strength=DEFAULT_STRENGTH if strength is None else None,
            )
            counts[key], strengths[key] = len(part), chosen
            if key == DIALOGUE_KEY:
                dialogue = fitted
            else:
                models[metric] = fitted
    return Calibration(mode, models, dialogue, counts, strengths)


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
