"""What every item result made of per-metric results shares: its spend and its record parts.

`SummaryResult`, `PairResult` and `AutoEvalResult` each hold `metrics` (name -> that
metric's result, which knows its `usage`); the tokens they spent and what a batch record
shows of them (`evaluators/records.py`) follow from it the same way for all three.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from ..protocol import Usage

__all__ = ["MetricsResult"]


class _Spent(Protocol):
    @property
    def usage(self) -> Usage: ...


class MetricsResult:
    """A base of the frozen item-result dataclasses: `usage`, `record_body`, `record_meta`.

    A subclass declares `metrics` (a dataclass field) and `to_dict`.
    """

    metrics: Mapping[str, _Spent]

    def to_dict(self) -> dict[str, Any]:
        """The result's JSON."""
        raise NotImplementedError

    @property
    def usage(self) -> Usage:
        """Tokens spent on every metric."""
        return sum((m.usage for m in self.metrics.values()), Usage())

    def record_body(self) -> dict[str, Any]:
        """What a batch record shows of the result."""
        return self.to_dict()

    def record_meta(self) -> dict[str, Any]:
        """The result's own entries in the record's `meta`."""
        return {"usage": self.usage.to_dict()}
