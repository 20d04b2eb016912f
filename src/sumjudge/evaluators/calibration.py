"""Applying a calibration profile to a summarization evaluator's judge, metrics and rules.

The profile (`sumjudge.types.profile.CalibrationProfile`) names one judge. For the offline judge
it carries refitted models, so the judge itself is rebuilt with them; for an LLM judge it
carries few-shot examples and cut points, which reach the metrics through `JudgeOptions`;
for any judge it may carry a rule book.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from os import PathLike
from typing import Any

from ..errors import ConfigError
from ..judges import LOCAL_MODELS
from ..metrics.calibrated import FewShot, MetricCalibration
from ..protocol import Judge
from ..rules import RuleBook
from ..types.profile import CalibrationProfile, load_profile

__all__ = [
    "CalibrationInput",
    "calibrated_judge",
    "metric_calibrations",
    "profile_of",
    "rule_book_of",
]

CalibrationInput = CalibrationProfile | str | PathLike[str] | None


def profile_of(calibration: CalibrationInput) -> CalibrationProfile | None:
    """The profile given as an object or a path (None for none)."""
    if calibration is None or isinstance(calibration, CalibrationProfile):
        return calibration
    return load_profile(calibration)


def calibrated_judge(
    model: str | Judge | Sequence[str | Judge], profile: CalibrationProfile | None
) -> str | Judge | Sequence[str | Judge]:
    """`model`, or the offline judge rebuilt with the profile's refitted models."""
    if profile is None:
        return model
    if not isinstance(model, (str, Judge)):
        raise ConfigError("a calibration profile names one judge; it cannot apply to a panel")
    if isinstance(model, str) and model in LOCAL_MODELS:
        models = {name: m.offline_model for name, m in profile.metrics.items() if m.offline_model}
        dialogue = {
            name: m.offline_dialogue_model
            for name, m in profile.metrics.items()
            if m.offline_dialogue_model
        }
        if models or dialogue:
            from ..offline.backend import calibrated_offline_judge  # numpy: only when used

            return calibrated_offline_judge(model, profile.id, models, dialogue)
    return model


def rule_book_of(
    rule_book: RuleBook | Mapping[str, Any] | None, profile: CalibrationProfile | None
) -> RuleBook | Mapping[str, Any] | None:
    """The rule book to use: the caller's, or the profile's; both is an error."""
    if profile is None or profile.rule_book is None:
        return rule_book
    if rule_book is not None:
        raise ConfigError(
            f"both a rule book and calibration profile {profile.id}, which has its own: "
            "give one of them"
        )
    return RuleBook.from_dict(profile.rule_book)


def metric_calibrations(profile: CalibrationProfile | None) -> dict[str, MetricCalibration]:
    """The metric-layer view (few-shot examples, cut points) of each calibrated metric."""
    if profile is None:
        return {}
    return {
        name: MetricCalibration(
            tag=profile.id,
            examples=tuple(FewShot(e.source, e.summary, e.score, e.reason) for e in m.examples),
            cuts=m.cuts if m.variant == "weighted_score" else None,
        )
        for name, m in profile.metrics.items()
    }
