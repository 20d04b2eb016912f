"""One summary to judge, one metric's verdict, and one summary's result."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict

from ..protocol import Usage
from ..rules import Rating
from ..text import strip_control
from ._coerce import coerce_model
from ._metrics_result import MetricsResult

__all__ = [
    "MetricResult",
    "OptionalText",
    "SummaryData",
    "SummaryResult",
    "Text",
    "clean",
    "coerce_item",
    "not_blank",
]


def not_blank(value: str) -> str:
    """`value` unchanged; a text that is empty or only white space is refused."""
    if not value.strip():
        raise ValueError("must not be empty")
    return value


def clean(value: Any) -> Any:
    """A text without control characters or ANSI escapes; other values unchanged.

    No judge, explanation or terminal should see them.
    """
    return strip_control(value) if isinstance(value, str) else value


Text = Annotated[str, BeforeValidator(clean), AfterValidator(not_blank)]
"""A required text: control characters removed, and not empty or only white space."""
OptionalText = Annotated[str | None, BeforeValidator(clean)]
"""An optional text, control characters removed."""


class SummaryData(BaseModel):
    """One summary to judge, with the source it summarises.

    Example:
        >>> SummaryData(input="Rina: we ship Friday.", summary="The team ships on Friday.")
        SummaryData(input='Rina: we ship Friday.', summary='The team ships on Friday.', id=None)
    """

    model_config = ConfigDict(frozen=True)

    input: Text
    """The source text (e.g. a meeting transcript)."""
    summary: Text
    """The generated summary to judge."""
    id: OptionalText = None
    """Optional identifier carried into results."""


def coerce_item(item: SummaryData | Mapping[str, Any], index: int | str | None) -> SummaryData:
    """Validate one input item, naming the item and the field when it is unusable."""
    return coerce_model(SummaryData, item, index)


@dataclass(frozen=True)
class MetricResult:
    """One metric's verdict on one summary.

    A metric that could not be judged has `error` set and no score: it is never
    scored as 1 or guessed.
    """

    name: str
    version: str
    score: int | None = None
    explanation: str | None = None
    weighted_score: float | None = None
    score_mode: str | None = None
    score_mode_note: str | None = None
    error: str | None = None
    raw_reply: str | None = None
    usage: Usage = field(default_factory=Usage)
    calls: int = 0
    evidence: tuple[str, ...] = ()
    raw: float | None = None
    distribution: Mapping[int, float] | None = None
    confidence: float | None = None
    confidence_note: str | None = None
    samples: tuple[int, ...] = ()
    mean: float | None = None
    spread: float | None = None
    panel: tuple[Mapping[str, Any], ...] = ()
    judges: int | None = None

    @property
    def ok(self) -> bool:
        """Whether the metric was judged (a score and no error)."""
        return self.error is None and self.score is not None

    @property
    def normalized_score(self) -> float | None:
        """The score divided by 3, to two decimals, as the specification prints it."""
        return None if self.score is None else round(self.score / 3, 2)

    def to_dict(self) -> dict[str, Any]:
        """The spec's per-metric JSON, plus our documented additions."""
        out: dict[str, Any] = {
            "score": self.score,
            "explanation": self.explanation,
            "normalized_score": self.normalized_score,
            "score_mode": self.score_mode,
        }
        if self.weighted_score is not None:
            out["weighted_score"] = self.weighted_score
        if self.score_mode_note:
            out["score_mode_note"] = self.score_mode_note
        if self.evidence:
            out["evidence"] = list(self.evidence)
        if self.raw is not None:  # the offline judge's continuous score (calibration reads it)
            out["raw"] = round(self.raw, 6)
        if self.score is not None:
            out.update(self._noise_dict())
        if self.error is not None:
            out["error"] = self.error
        return out

    def _noise_dict(self) -> dict[str, Any]:
        """Confidence, samples and panel entries (additions to the specification)."""
        out: dict[str, Any] = {
            "distribution": None
            if self.distribution is None
            else {str(k): round(v, 4) for k, v in sorted(self.distribution.items())},
            "confidence": None if self.confidence is None else round(self.confidence, 4),
        }
        if self.confidence is None:
            out["confidence_note"] = self.confidence_note or "no score distribution"
        if self.samples:
            out["samples"] = list(self.samples)
            out["mean"] = self.mean
            out["spread"] = self.spread
        if self.panel:
            out["panel"] = [dict(p) for p in self.panel]
            out["judges"] = self.judges
        return out


@dataclass(frozen=True)
class SummaryResult(MetricsResult):
    """All enabled metrics' results for one summary, and the rating from the rule book."""

    metrics: dict[str, MetricResult]
    rating: Rating
    rating_confidence: float | None = None
    rating_confidence_note: str | None = None
    uncertain: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        """The specification's JSON: {"summary": {...}}."""
        r = self.rating
        body: dict[str, Any] = {
            "global_explanation": r.global_explanation,
            "relevancy_rating": r.relevancy_rating,
            "score": r.score,
            "possible_issues": list(r.possible_issues),
            "binary_score": r.binary_score,
            "avg_score": r.avg_score,
        }
        for name, result in self.metrics.items():
            body[name] = result.to_dict()
        if r.relevancy_rating is not None:  # additions, after the specification's keys
            body["rating_confidence"] = (
                None if self.rating_confidence is None else round(self.rating_confidence, 4)
            )
            body["uncertain"] = self.uncertain
            if self.rating_confidence is None:
                body["rating_confidence_note"] = self.rating_confidence_note
        return {"summary": body}

    def flat_columns(self) -> dict[str, Any]:
        """Overall and per-metric scores as one flat row (for DataFrames and CSV)."""
        overall = self.to_dict()["summary"]
        row = {k: overall[k] for k in ("relevancy_rating", "score", "binary_score", "avg_score")}
        for name, m in self.metrics.items():
            row[f"{name}_score"] = m.score
            row[f"{name}_explanation"] = m.explanation
        return row
