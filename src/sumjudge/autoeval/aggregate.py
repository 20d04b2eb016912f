"""Dataset-level averages: per metric and per section, over the items that have a score.

An item whose metric is N/A or failed does not count towards that metric's average; the
counts say how many did. Averages are means of per-item percentages (each conversation
weighs the same), rounded to two decimals.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..evaluators.records import Record as AutoRecord
from ..types import MetricOutcome

__all__ = ["DatasetSummary"]


class DatasetSummary:
    """Accumulates records and reports averages; feed it records as they stream in."""

    unit = "conversation"  # what one item is, in the run's closing line

    def __init__(self) -> None:
        self.items = 0
        self.item_errors = 0
        self.not_run = 0
        self._metric: dict[str, list[float]] = {}
        self._metric_na: dict[str, int] = {}
        self._metric_failed: dict[str, int] = {}
        self._section: dict[str, dict[str, list[float]]] = {}

    def add(self, record: AutoRecord) -> None:
        """Count one record: its metric and section scores, or why it has no result."""
        self.items += 1
        if record.result is None:
            if record.status == "not_run":
                self.not_run += 1  # never judged (the run stopped): not an error of the row
            else:
                self.item_errors += 1
            return
        for name, m in record.result.metrics.items():
            self._metric.setdefault(name, [])
            score = m.score
            if m.error is not None:
                self._metric_failed[name] = self._metric_failed.get(name, 0) + 1
            elif score is None:
                self._metric_na[name] = self._metric_na.get(name, 0) + 1
            else:
                self._metric[name].append(float(score))
            if isinstance(m, MetricOutcome):
                per = self._section.setdefault(name, {})
                for section, outcome in m.sections.items():
                    if outcome.score is not None:
                        per.setdefault(section, []).append(outcome.score)

    def extend(self, records: Iterable[AutoRecord]) -> DatasetSummary:
        """Add every record of `records`; returns `self`, for chaining."""
        for r in records:
            self.add(r)
        return self

    def to_dict(self) -> dict[str, Any]:
        """The counts and averages as JSON: item counts, then per metric and per section."""
        metrics: dict[str, Any] = {}
        for name, values in self._metric.items():
            metrics[name] = {
                "average": _mean(values),
                "scored": len(values),
                "not_applicable": self._metric_na.get(name, 0),
                "failed": self._metric_failed.get(name, 0),
                "sections": {
                    s: {"average": _mean(v), "scored": len(v)}
                    for s, v in self._section.get(name, {}).items()
                },
            }
        out: dict[str, Any] = {"items": self.items, "item_errors": self.item_errors}
        if self.not_run:
            out["not_run"] = self.not_run
        out["metrics"] = metrics
        return out

    def render(self) -> str:
        """A short plain-text table for the terminal."""
        data = self.to_dict()
        head = f"{data['items']} item(s), {data['item_errors']} unusable"
        if self.not_run:
            head += f", {self.not_run} not run"
        lines = [head]
        for name, m in data["metrics"].items():
            avg = "n/a" if m["average"] is None else f"{m['average']:.2f}"
            unit = "" if name == "consistency" else "%"
            lines.append(
                f"{name:<13} {avg}{unit if m['average'] is not None else ''}  "
                f"(scored {m['scored']}, N/A {m['not_applicable']}, failed {m['failed']})"
            )
            for section, s in m["sections"].items():
                lines.append(f"  {section:<24} {s['average']:.2f}%  (n={s['scored']})")
        return "\n".join(lines)


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 2) if values else None
