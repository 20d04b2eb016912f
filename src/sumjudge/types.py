"""Input and result types shared by the evaluators."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

from .protocol import Usage

__all__ = ["MetricResult", "SummaryData"]


class SummaryData(BaseModel):
    """One summary to judge, with the source it summarises.

    Example:
        >>> SummaryData(input="Rina: we ship Friday.", summary="The team ships on Friday.")
        SummaryData(input='Rina: we ship Friday.', summary='The team ships on Friday.', id=None)
    """

    model_config = ConfigDict(frozen=True)

    input: str
    """The source text (e.g. a meeting transcript)."""
    summary: str
    """The generated summary to judge."""
    id: str | None = None
    """Optional identifier carried into results."""

    @field_validator("input", "summary")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty")
        return value


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

    @property
    def ok(self) -> bool:
        return self.error is None and self.score is not None

    @property
    def normalized_score(self) -> float | None:
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
        if self.error is not None:
            out["error"] = self.error
        return out
