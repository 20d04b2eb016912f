"""Batch results: one summary's metrics and rating, and one input row's outcome in a batch."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import DataError
from ..protocol import Usage
from ..rules import Rating
from ..types import MetricResult

__all__ = ["BatchRecord", "RecordOutcome", "SummaryResult"]


@dataclass(frozen=True)
class SummaryResult:
    """All enabled metrics' results for one summary, and the rating from the rule book."""

    metrics: dict[str, MetricResult]
    rating: Rating

    @property
    def usage(self) -> Usage:
        total = Usage()
        for m in self.metrics.values():
            total = total + m.usage
        return total

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
        return {"summary": body}


class RecordOutcome:
    """`status` and `failures` of a batch record, shared by both evaluators' records.

    The record classes are frozen dataclasses with `result` (whose `metrics` values carry
    `error` and `calls`), `error`, `meta` and `failure`.
    """

    result: Any
    error: DataError | None
    meta: dict[str, Any]
    failure: dict[str, Any] | None

    @property
    def status(self) -> str:
        if self.error is not None:
            return "invalid"
        if self.failure is not None:
            return "not_run" if self.failure.get("kind") == "not_run" else "failed"
        if self.result is not None and any(m.error for m in self.result.metrics.values()):
            return "failed"
        return "ok"

    @property
    def failures(self) -> list[dict[str, Any]]:
        if self.failure is not None:
            return [self.failure]
        if self.result is None:
            return []
        by_task = {f["metric"]: f for f in self.meta.get("_failures", [])}
        out: list[dict[str, Any]] = []
        for name, m in self.result.metrics.items():
            if m.error:
                attempts = by_task.get(name, {}).get("attempts", m.calls)
                out.append({"metric": name, "reason": m.error, "attempts": attempts})
        return out


@dataclass(frozen=True)
class BatchRecord(RecordOutcome):
    """One input row's outcome in a batch.

    Exactly one of: `result` (judged; some metrics may have failed), `error` (the input
    row is unusable), or `failure` (the item could not be judged at all, or was not run).

    `status` is "ok", "failed", "invalid" or "not_run"; `failures` lists each failed metric
    (or the item) with its reason and the number of attempts made.
    """

    index: int
    id: str | None = None
    result: SummaryResult | None = None
    error: DataError | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    failure: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"index": self.index, "status": self.status}
        if self.id is not None:
            out["id"] = self.id
        if self.result is not None:
            out.update(self.result.to_dict())
        meta = {k: v for k, v in self.meta.items() if not k.startswith("_")}
        if self.result is not None:
            meta["usage"] = self.result.usage.to_dict()
        if meta:
            out["meta"] = meta
        if self.error is not None:
            out["error"] = {
                "field": self.error.field,
                "message": self.error.reason,
                "text": str(self.error),
            }
        elif self.failure is not None:  # item-level failure: readable where errors are read
            reason = str(self.failure.get("reason", ""))
            out["error"] = {"field": None, "message": reason, "text": reason}
        failures = self.failures
        if failures:
            out["failures"] = failures
        return out

    def to_flat_dict(self) -> dict[str, Any]:
        """One flat row (for DataFrames and CSV): status, overall and per-metric scores."""
        row: dict[str, Any] = {"status": self.status}
        if self.result is not None:
            r = self.result.rating
            row.update(
                relevancy_rating=r.relevancy_rating,
                score=r.score,
                binary_score=r.binary_score,
                avg_score=r.avg_score,
            )
            for name, m in self.result.metrics.items():
                row[f"{name}_score"] = m.score
                row[f"{name}_explanation"] = m.explanation
        failures = self.failures
        if self.error is not None:
            row["error"] = str(self.error)
        elif failures:
            row["error"] = "; ".join(
                f"{f.get('metric') or 'item'}: {f['reason']}" for f in failures
            )
        run = self.meta.get("run")
        if isinstance(run, dict):
            row["cost_usd"] = run.get("cost_usd")
        return row
