"""The offline judge's side of calibration: refitted models, fitted and applied.

Each labelled pair is analysed once (`OfflineScorer.analyse`); folds and the final fit
only refit the models (`sumjudge.offline.refit`) and rescore the kept analyses, so
cross-validation costs one analysis per item, not one per fold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import ConfigError
from ..offline import OfflineScorer
from ..offline.calibration import LinearModel, load_dialogue_model, load_models
from ..offline.profile import Calibration, Example, refit_all
from ..offline.text import detect_language
from ..types.profile import MetricProfile
from .fit import label_kind
from .joined import LabelledItem

__all__ = ["OfflineLearner"]


@dataclass
class OfflineLearner:
    """Refits the offline judge's models on labelled items and rescores held-out ones."""

    mode: str
    items: Sequence[LabelledItem]
    analyses: Sequence[Any]
    languages: Sequence[str]
    _fits: dict[tuple[int, ...], Calibration] = field(default_factory=dict)

    @classmethod
    def build(
        cls, judge: str, items: Sequence[LabelledItem], metrics: Sequence[str], labels_name: str
    ) -> OfflineLearner:
        """Analyse every labelled pair with the judge's own mode.

        Raises:
            ConfigError: An item has no texts (the offline judge refits on its signals).
        """
        missing = [i.id for i in items if i.source is None or i.summary is None]
        if missing:
            raise ConfigError(
                f"the offline judge refits on each item's texts, and {len(missing)} labelled "
                f"item(s) have none in {labels_name} (e.g. {', '.join(missing[:3])}): give "
                "the file the results were judged from with --inputs"
            )
        try:
            scorer = OfflineScorer(use_embeddings=judge == "local")
        except ImportError as exc:
            raise ConfigError(f"the results' judge {judge!r} is not available: {exc}") from None
        analyses = [scorer.analyse(i.source or "", i.summary or "") for i in items]
        languages = [detect_language(i.source or "") for i in items]
        return cls("full" if judge == "local" else "lexical", items, analyses, languages)

    def _fit(self, train: Sequence[int]) -> Calibration:
        key = tuple(train)
        if key not in self._fits:
            examples = [
                Example(
                    features=self.analyses[n].features,
                    dialogue=bool(self.analyses[n].source.dialogue),
                    group=self.items[n].group,
                    labels=dict(self.items[n].human),
                )
                for n in train
            ]
            self._fits = {key: refit_all(self.mode, examples)}  # the last fit only
        return self._fits[key]

    def fit(self, train: Sequence[int], metric: str) -> MetricProfile | None:
        """The refitted prose (and, for consistency, dialogue) model of `metric`."""
        cal = self._fit(train)
        prose = cal.models.get(metric)
        dialogue = cal.dialogue_model if metric == "consistency" else None
        if prose is None and dialogue is None:
            return None
        values = [self.items[n].human[metric] for n in train if metric in self.items[n].human]
        return MetricProfile(
            label_kind=label_kind(values),
            n_labels=len(values),
            variant="raw",
            offline_model=None if prose is None else prose.to_json(),
            offline_dialogue_model=None if dialogue is None else dialogue.to_json(),
        )

    def predict(
        self, fitted: Mapping[str, MetricProfile], test: Sequence[int], metric: str
    ) -> tuple[list[int], list[float | None]]:
        """The test items' verdicts on `metric` with the fitted models (else the judge's)."""
        profile = fitted.get(metric)
        if profile is None:
            out = [self.items[n].judge.get(metric) for n in test]
            return [0 if j is None else j.score for j in out], [
                None if j is None else j.raw for j in out
            ]
        scorer = _scorer(self.mode, _models(fitted), _dialogue(fitted))
        scores: list[int] = []
        raws: list[float | None] = []
        for n in test:
            verdict = scorer.verdicts(self.analyses[n], [metric], self.languages[n])[metric]
            scores.append(verdict.score)
            raws.append(verdict.raw)
        return scores, raws


def _models(fitted: Mapping[str, MetricProfile]) -> dict[str, LinearModel]:
    return {m: LinearModel.from_json(p.offline_model) for m, p in fitted.items() if p.offline_model}


def _dialogue(fitted: Mapping[str, MetricProfile]) -> LinearModel | None:
    p = fitted.get("consistency")
    if p is None or not p.offline_dialogue_model:
        return None
    return LinearModel.from_json(p.offline_dialogue_model)


def _scorer(
    mode: str, models: Mapping[str, LinearModel], dialogue: LinearModel | None
) -> OfflineScorer:
    # Rescoring reads kept analyses only, so no embedder is loaded; every model is given
    # in full so that none falls back to the lexical mode's shipped ones.
    return OfflineScorer(
        use_embeddings=False,
        models={**load_models(mode), **models},
        dialogue_model=dialogue or load_dialogue_model(mode),
    )
