"""The judge card's data model: figures per dataset, metric and score variant.

A `JudgeCard` round-trips through JSON, so a card written by one run can be read back by
`sumjudge report` or compared across runs.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from sumjudge.meta._arrays import ConstantPredPolicy

__all__ = ["VARIANTS", "DatasetFigures", "Figure", "JudgeCard", "LabelKind", "MetricFigures"]

LabelKind = Literal["likert", "binary"]
VARIANTS: tuple[str, str] = ("score", "weighted_score")
"""The variants every judge can report; further ones (e.g. `raw`) are named per judge."""


class Figure(BaseModel):
    """One statistic with its bootstrap interval; `None` stands for an undefined value.

    `n_groups_used`/`n_groups_skipped` count source documents (for `system_*` figures:
    systems). For pooled and binary figures a document is skipped only when none of its items
    has both scores.
    """

    model_config = ConfigDict(frozen=True)

    value: float | None
    ci_low: float | None
    ci_high: float | None
    n_items: int
    n_missing: int
    n_groups_used: int | None = None
    n_groups_skipped: int | None = None
    n_resamples_dropped: int = 0
    threshold: float | None = None


class MetricFigures(BaseModel):
    """All figures for one metric on one dataset, keyed by variant then figure name."""

    model_config = ConfigDict(frozen=True)

    label_kind: LabelKind
    n_labelled: int
    variants: dict[str, dict[str, Figure]]


class DatasetFigures(BaseModel):
    """The figures of one dataset (rows sharing a `dataset` value)."""

    model_config = ConfigDict(frozen=True)

    n_rows: int
    metrics: dict[str, MetricFigures]


class JudgeCard(BaseModel):
    """How well a judge agrees with human scores; round-trips through JSON.

    Example:
        >>> card = JudgeCard(judge="j", sumjudge_version="0", metric_versions={},
        ...                  data_hash="", n_rows=0, n_resamples=0, seed=0, alpha=0.05,
        ...                  constant_pred="zero", created_at=datetime(2024, 1, 1))
        >>> JudgeCard.from_json(card.to_json()) == card
        True
    """

    model_config = ConfigDict(frozen=True)

    judge: str
    sumjudge_version: str
    metric_versions: dict[str, str]
    data_hash: str
    n_rows: int
    n_resamples: int
    seed: int
    alpha: float
    constant_pred: ConstantPredPolicy
    created_at: datetime
    datasets: dict[str, DatasetFigures] = {}
    variant_notes: dict[str, str] = {}
    """What each variant name means for this judge (e.g. `"raw"`: the offline judge's
    continuous score); empty for cards that only carry `score`/`weighted_score`."""
    data_selection: dict[str, Any] = {}
    """How the rows were chosen from the data file (e.g. `{"datasets": ["summeval"],
    "limit": 80}`); empty when the whole file was used."""

    def to_json(self, *, indent: int | None = 2) -> str:
        """The card as a JSON string."""
        return self.model_dump_json(indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes) -> JudgeCard:
        """Read a card written by `to_json`."""
        return cls.model_validate_json(text)
