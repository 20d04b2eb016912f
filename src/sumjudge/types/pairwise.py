"""Two summaries of one source to compare, one metric's pairwise verdict, and one pair's result."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict

from ..protocol import Usage
from ._coerce import coerce_model
from ._metrics_result import MetricsResult
from .summary import OptionalText, Text

__all__ = ["PairData", "PairMetricResult", "PairResult", "coerce_pair", "word_count"]

VERDICTS = ("A", "B", "tie")


class PairData(BaseModel):
    """Two summaries (A and B) of one source, to be compared.

    Example:
        >>> PairData(input="Rina: we ship Friday.", summary_a="Ships Friday.",
        ...          summary_b="The team ships on Friday.")
    """

    model_config = ConfigDict(frozen=True)

    input: Text
    """The source text."""
    summary_a: Text
    """The first candidate (A in the results)."""
    summary_b: Text
    """The second candidate (B in the results)."""
    id: OptionalText = None
    """Optional identifier carried into results."""


def coerce_pair(item: PairData | Mapping[str, Any], index: int | str | None) -> PairData:
    """Validate one pair, naming the item and the field when it is unusable."""
    return coerce_model(PairData, item, index)


def word_count(text: str) -> int:
    """Words of `text` (white-space separated): the length the length-bias probe uses."""
    return len(text.split())


@dataclass(frozen=True)
class PairMetricResult:
    """One metric's verdict on a pair, judged twice with the positions swapped.

    Attributes:
        name: the metric.
        version: the pairwise prompt's version with the metric's (`"1.1"`).
        winner: "A", "B" or "tie" for the pair (A and B as in the input); a tie when the
            two passes disagree. None when a pass failed.
        consistent: whether the two passes agreed once mapped back to A and B.
        first: the first pass's verdict as the judge gave it (A shown first).
        second: the second pass's verdict as the judge gave it (B shown first, so its
            "A" means the input's B).
        explanations: the two passes' explanations, in order.
        error: why there is no verdict (a provider failure or an unreadable reply).
    """

    name: str
    version: str
    winner: str | None = None
    consistent: bool | None = None
    first: str | None = None
    second: str | None = None
    explanations: tuple[str, ...] = ()
    error: str | None = None
    raw_reply: str | None = None
    usage: Usage = field(default_factory=Usage)
    calls: int = 0

    @property
    def ok(self) -> bool:
        """Whether both passes were judged."""
        return self.error is None and self.winner is not None

    def to_dict(self) -> dict[str, Any]:
        """The metric's entry in the pair's JSON."""
        out: dict[str, Any] = {
            "winner": self.winner,
            "position_consistent": self.consistent,
            "verdicts": {"first_pass": self.first, "second_pass_swapped": self.second},
            "explanations": list(self.explanations),
            "version": self.version,
        }
        if self.error is not None:
            out["error"] = self.error
        return out


@dataclass(frozen=True)
class PairResult(MetricsResult):
    """Every enabled metric's pairwise verdict on one pair, and the two summaries' lengths."""

    metrics: dict[str, PairMetricResult]
    length_a: int
    length_b: int

    def to_dict(self) -> dict[str, Any]:
        """The pair's JSON: {"pairwise": {metric: {...}}, "lengths": {"a": .., "b": ..}}."""
        return {
            "pairwise": {name: m.to_dict() for name, m in self.metrics.items()},
            "lengths": {"a": self.length_a, "b": self.length_b},
        }

    def flat_columns(self) -> dict[str, Any]:
        """Per-metric winners and consistency as one flat row."""
        row: dict[str, Any] = {"length_a": self.length_a, "length_b": self.length_b}
        for name, m in self.metrics.items():
            row[f"{name}_winner"] = m.winner
            row[f"{name}_position_consistent"] = m.consistent
        return row
