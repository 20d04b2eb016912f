"""`calibrate`: fit a profile on people's labels, and measure it before it is trusted.

One learner per kind of judge: the offline judge refits its models (`align.offline`);
any other judge learns cut points on its weighted score (`CutLearner`). On top, for every
judge, a rule book fitted on the people's ratings, and for LLM judges few-shot examples.
The same learner runs inside the cross-validation (`align.crossval`) and on all labels for
the profile that is written. A metric whose cross-validated agreement got worse beyond
noise keeps the judge's own behaviour (it is left out of the profile, with a note).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..errors import ConfigError
from ..judges import LOCAL_MODELS
from ..rules import DEFAULT_RULE_BOOK, RuleBook
from ..types.profile import CalibrationProfile, Example, MetricProfile
from .crossval import Predictions, cross_validate
from .fit import LLM_PRIOR_CUTS, choose_examples, fit_cuts, fit_rule_book, label_kind
from .joined import LabelledItem, join, judge_of
from .labels import Label

__all__ = ["CalibrationResult", "CutLearner", "Learner", "calibrate"]

#: The statistic whose verdict decides whether a metric's calibration is kept.
_MAIN = {"likert": ("summary_spearman", "spearman"), "binary": ("roc_auc",)}


class Learner(Protocol):
    """What a judge can learn, fitted on some items and applied to others."""

    def fit(self, train: Sequence[int], metric: str) -> MetricProfile | None:
        """The metric's calibration from the `train` items (None: nothing to learn)."""
        ...

    def predict(
        self, fitted: Mapping[str, MetricProfile], test: Sequence[int], metric: str
    ) -> tuple[list[int], list[float | None]]:
        """The 1-3 and continuous scores of the `test` items under `fitted`."""
        ...


@dataclass
class CutLearner:
    """Cut points on an LLM judge's logprob-weighted score (any judge that reports one)."""

    items: Sequence[LabelledItem]

    def fit(self, train: Sequence[int], metric: str) -> MetricProfile | None:
        """Cuts fitted on the `train` items that have a weighted score and a label."""
        use = [
            self.items[n]
            for n in train
            if metric in self.items[n].human and _weighted(self.items[n], metric) is not None
        ]
        if not use:
            return None
        values = [i.human[metric] for i in use]
        kind = label_kind(values)
        cuts = fit_cuts([_weighted(i, metric) or 0.0 for i in use], values, kind, LLM_PRIOR_CUTS)
        return MetricProfile(
            label_kind=kind, n_labels=len(use), variant="weighted_score", cuts=cuts
        )

    def predict(
        self, fitted: Mapping[str, MetricProfile], test: Sequence[int], metric: str
    ) -> tuple[list[int], list[float | None]]:
        """Each test item's weighted score rebinned by the fitted cuts (else its own score)."""
        scores: list[int] = []
        cont: list[float | None] = []
        profile = fitted.get(metric)
        for n in test:
            item = self.items[n]
            judged = item.judge.get(metric)
            w = _weighted(item, metric)
            cont.append(w)
            if judged is None:
                scores.append(0)
            elif profile is None or profile.cuts is None or w is None:
                scores.append(judged.score)
            else:
                lo, hi = profile.cuts
                scores.append(1 if w < lo else 2 if w < hi else 3)
        return scores, cont


@dataclass
class CalibrationResult:
    """The profile and the cross-validated report it was measured with."""

    profile: CalibrationProfile
    report: dict[str, Any]
    items: list[LabelledItem]


def calibrate(
    labels: Sequence[Label],
    records: Sequence[Mapping[str, Any]],
    *,
    results_name: str = "RESULTS",
    labels_name: str = "LABELS",
    labels_sha256: str = "",
    texts: Mapping[str, tuple[str, str]] | None = None,
    examples: int = 4,
    folds: int = 5,
    n_resamples: int = 1000,
    seed: int = 0,
) -> CalibrationResult:
    """Fit a calibration profile for the judge of `records` on `labels`, with its report.

    Raises:
        ConfigError: The labels match no judged item, or the offline judge's items lack
            their texts.
    """
    judge, version = judge_of(records, results_name)
    items = join(labels, records, texts)
    if not items:
        raise ConfigError(_no_match(labels, records, labels_name, results_name))
    metrics = [m for m in _metric_order(items) if any(m in i.human for i in items)]
    offline = judge in LOCAL_MODELS
    learner: Learner
    if offline:
        from .offline import OfflineLearner

        learner = OfflineLearner.build(judge, items, metrics, labels_name)
    else:
        learner = CutLearner(items)

    def fit(train: Sequence[int]) -> tuple[dict[str, MetricProfile], RuleBook | None]:
        fitted = {m: p for m in metrics if (p := learner.fit(train, m)) is not None}
        scores = {m: learner.predict(fitted, train, m)[0] for m in metrics}
        book = fit_rule_book([items[n] for n in train], scores, metrics)
        return fitted, book

    def fit_predict(train: Sequence[int], test: Sequence[int]) -> Predictions:
        fitted, book = fit(train)
        scores: dict[str, list[int]] = {}
        cont: dict[str, list[float | None]] = {}
        for m in metrics:
            scores[m], cont[m] = learner.predict(fitted, test, m)
        ratings = _ratings(scores, metrics, book or DEFAULT_RULE_BOOK, len(test))
        return Predictions(scores, cont, ratings)

    report = cross_validate(
        items, metrics, fit_predict, k=folds, n_resamples=n_resamples, seed=seed
    )
    everything = list(range(len(items)))
    fitted, book = fit(everything)
    notes = _drop_worse(fitted, report)
    if not offline and examples > 0:
        fitted = _with_examples(fitted, items, metrics, examples)
    profile = CalibrationProfile(
        judge=judge,
        judge_version=version if offline else None,
        labels={
            "file": labels_name,
            "sha256": labels_sha256,
            "n_items": len(items),
            "reviewers": sorted({r for i in items for r in i.reviewers if r}),
        },
        metrics=fitted,
        rule_book=None
        if book is None
        else {
            m: {"good_at_least": t.good_at_least, "bad_at_most": t.bad_at_most}
            for m, t in book.thresholds.items()
        },
        agreement={**report, "kept_uncalibrated": notes},
    ).sealed()
    return CalibrationResult(profile, report, items)


def _ratings(
    scores: Mapping[str, Sequence[int]], metrics: Sequence[str], book: RuleBook, n: int
) -> list[str | None]:
    out: list[str | None] = []
    for j in range(n):
        values = {m: scores[m][j] for m in metrics}
        if any(v < 1 for v in values.values()):
            out.append(None)
            continue
        bad = any(values[m] <= book.threshold(m).bad_at_most for m in metrics)
        good = all(values[m] >= book.threshold(m).good_at_least for m in metrics)
        out.append("bad" if bad else "good" if good else "incomplete")
    return out


def _drop_worse(fitted: dict[str, MetricProfile], report: Mapping[str, Any]) -> dict[str, str]:
    """Leave out each metric whose main cross-validated figure got worse beyond noise."""
    notes: dict[str, str] = {}
    for metric, figures in (report.get("metrics") or {}).items():
        for stat in _MAIN[figures["label_kind"]]:
            fig = figures.get(stat)
            if fig is None or fig.get("before") is None:
                continue
            if fig["verdict"] == "worse" and metric in fitted:
                del fitted[metric]
                notes[metric] = (
                    f"{stat} fell from {fig['before']} to {fig['after']} (interval of the "
                    f"difference {fig['diff_ci']}): the judge's own scoring is kept"
                )
            break
    return notes


def _with_examples(
    fitted: dict[str, MetricProfile],
    items: Sequence[LabelledItem],
    metrics: Sequence[str],
    k: int,
) -> dict[str, MetricProfile]:
    out = dict(fitted)
    for m in metrics:
        chosen = choose_examples(items, m, k)
        if not chosen:
            continue
        shots = tuple(
            Example(id=i.id, score=b, reason=i.note, source=i.source or "", summary=i.summary or "")
            for i, b in chosen
        )
        base = out.get(m) or MetricProfile(
            label_kind=label_kind([i.human[m] for i in items if m in i.human]),
            n_labels=sum(m in i.human for i in items),
            variant="score",
        )
        out[m] = base.model_copy(update={"examples": shots})
    return out


def _metric_order(items: Sequence[LabelledItem]) -> list[str]:
    order = ["coherence", "consistency", "relevance", "fluency"]
    seen = {m for i in items for m in i.judge}
    return [m for m in order if m in seen] + sorted(seen - set(order))


def _no_match(
    labels: Sequence[Label], records: Sequence[Mapping[str, Any]], ln: str, rn: str
) -> str:
    label_ids = sorted({x.id for x in labels})[:3]
    result_ids = [str(r.get("id")) for r in records if r.get("id") is not None][:3]
    return (
        f"no labelled item of {ln} was judged in {rn} (matched by id; label ids e.g. "
        f"{', '.join(label_ids) or 'none'}; result ids e.g. {', '.join(result_ids) or 'none'})"
    )


def _weighted(item: LabelledItem, metric: str) -> float | None:
    j = item.judge.get(metric)
    return None if j is None else j.weighted
