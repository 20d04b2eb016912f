"""One input row's outcome in a batch, for every evaluator."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..accounting import ItemLedger
from ..errors import DataError

__all__ = [
    "ItemResult",
    "Record",
    "error_failure",
    "item_failure",
    "item_id",
    "not_sent_reason",
    "refused_only",
]


class ItemResult(Protocol):
    """What a record needs of an evaluator's result (`SummaryResult`, `AutoEvalResult`)."""

    @property
    def metrics(self) -> Mapping[str, Any]:
        """Each metric's result (with its `error`, if any), by metric name."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """The result's JSON (what `evaluate` returns)."""
        ...

    def record_body(self) -> dict[str, Any]:
        """What the record's JSON shows of the result."""
        ...

    def record_meta(self) -> dict[str, Any]:
        """The result's own entries in the record's `meta`."""
        ...

    def flat_columns(self) -> dict[str, Any]:
        """The result as one flat row (for DataFrames and CSV)."""
        ...


def item_failure(kind: str, reason: str) -> dict[str, Any]:
    """The failure entry of an item that was not judged at all (not a single metric).

    kind: "not_run" (max-cost reached), "context" (the source does not fit the judge's
    window) or "error" (anything unexpected while judging the item).
    """
    return {"metric": None, "kind": kind, "reason": reason, "attempts": 0}


def error_failure(exc: BaseException) -> dict[str, Any]:
    """`item_failure` for an unexpected exception while judging one item."""
    return item_failure("error", f"{type(exc).__name__}: {exc}")


def item_id(item: Any) -> str | None:
    """The `id` of a raw input item (object attribute or mapping key), as text."""
    raw = getattr(item, "id", None)
    if raw is None and isinstance(item, Mapping):
        raw = item.get("id")
    return None if raw is None else str(raw)


@dataclass(frozen=True)
class Record:
    """One input row's outcome in a batch.

    Exactly one of: `result` (judged; some metrics may have failed), `error` (the input
    row is unusable), or `failure` (the item could not be judged at all, or was not run).

    `status` is "ok", "failed", "invalid" or "not_run"; `failures` lists each failed metric
    (or the item) with its reason and the number of attempts made.

    Attributes:
        index: the input's 0-based position.
        id: the input's `id`, when it has one.
        result: the evaluator's result for the item.
        error: why the input row is unusable.
        meta: judge, metric versions, prompt layout, long-source context, and `run`: what
            the item's calls cost (`ItemLedger.to_dict`).
        failure: the item-level failure (`item_failure`).
        ledger: what the item's judge calls cost (None when nothing was sent).
    """

    index: int
    id: str | None = None
    result: Any = None
    error: DataError | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    failure: dict[str, Any] | None = None
    ledger: ItemLedger | None = None

    @property
    def status(self) -> str:
        """The record's status: "ok", "failed", "invalid" or "not_run"."""
        if self.error is not None:
            return "invalid"
        if self.failure is not None:
            return "not_run" if self.failure.get("kind") == "not_run" else "failed"
        if self.result is not None and any(m.error for m in self.result.metrics.values()):
            return "failed"
        return "ok"

    @property
    def failures(self) -> list[dict[str, Any]]:
        """Each failed metric (or the item) with its reason and the attempts made."""
        if self.failure is not None:
            return [self.failure]
        if self.result is None:
            return []
        out: list[dict[str, Any]] = []
        for name, m in self.result.metrics.items():
            if m.error:
                attempts = self.ledger.attempts_for(name) if self.ledger is not None else None
                out.append({"metric": name, "reason": m.error, "attempts": attempts or m.calls})
        return out

    def to_dict(self) -> dict[str, Any]:
        """The record as one JSON line of a results file."""
        out: dict[str, Any] = {"index": self.index, "status": self.status}
        if self.id is not None:
            out["id"] = self.id
        meta = dict(self.meta)
        if self.result is not None:
            out.update(self.result.record_body())
            meta.update(self.result.record_meta())
        if meta:
            out["meta"] = meta
        if self.error is not None:
            out["error"] = {
                "field": self.error.field,
                "message": self.error.reason,
                "text": str(self.error),
            }
            if self.error.line is not None:
                out["error"]["line"] = self.error.line
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
            row.update(self.result.flat_columns())
        failures = self.failures
        if self.error is not None:
            row["error"] = str(self.error)
        elif failures:
            row["error"] = "; ".join(
                f"{f.get('metric') or 'item'}: {f['reason']}" for f in failures
            )
        if self.ledger is not None:
            row["cost_usd"] = round(self.ledger.cost_usd, 8)
        return row


def refused_only(record: Record) -> bool:
    """Whether `record` failed only because nothing was judged for it.

    That is: the judge refused the key, its server could not be reached, or a batch run
    did not send its requests (`NotSentError`: max cost, a cancelled job). Such an item is
    recorded "not_run" instead, like the items not started after the stop, so that
    `--resume` runs it once the key is fixed, the server up or the budget raised. (Only
    asked once the run has stopped: a connection failure alone does not make it so.)
    """
    failures = record.failures
    return (
        record.status == "failed"
        and bool(failures)
        and all(any(mark in str(f.get("reason", "")) for mark in _UNJUDGED) for f in failures)
    )


NOT_SENT = "NotSentError: "
"""How a batch run's unsent request shows in a failure's reason (`batch.answers`)."""

_UNJUDGED = ("AuthError:", "ConnectionFailedError:", NOT_SENT)
"""The failure reasons of a call that judged nothing (the refusal, no server, not sent)."""


def not_sent_reason(record: Record) -> str | None:
    """The reason a batch run did not send `record`'s requests, if it did not."""
    for f in record.failures:
        reason = str(f.get("reason", ""))
        if NOT_SENT in reason:
            return reason.split(NOT_SENT, 1)[1]
    return None
