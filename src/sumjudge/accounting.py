"""What judging costs: counters per caller, per item and per run.

`CallStats` belongs to one `JudgeCaller` (every call it made). `ItemLedger` belongs to one
item: the evaluator creates it, passes it to every call the item makes (in the item's
`CallContext`), and returns it with the item's result, so per-item spend travels as a
value. `RunSummary` counts one
batch run: every item ends in exactly one of its four states.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from .protocol import Usage

if TYPE_CHECKING:
    import asyncio

    from .ratelimit import RateLimiter

__all__ = ["CallContext", "CallStats", "ItemLedger", "RunSummary", "Spend"]


@dataclass
class Spend:
    """What calls cost: the counters a caller and an item both keep.

    `calls` counts logical requests (cache hits included), `attempts` the requests that
    reached the judge, `usage` and `cost_usd` what those attempts spent.
    """

    calls: int = 0
    attempts: int = 0
    cache_hits: int = 0
    usage: Usage = field(default_factory=Usage)
    cost_usd: float = 0.0


@dataclass
class CallStats(Spend):
    """Counters for one caller (every call it made); read by progress and run summaries."""

    retries: int = 0
    failures: int = 0

    def since(self, before: CallStats) -> CallStats:
        """The counts since `before` (a snapshot of the same counters)."""
        # Over the declared counters, so that one added later is subtracted too. A run
        # takes this once per finished item, not per call: 2.2 us against 1.4 us spelled
        # out, no change in `benchmarks/item_path.py` (the hot path is Usage.__add__).
        return CallStats(*[getattr(self, n) - getattr(before, n) for n in _CALL_COUNTERS])


_CALL_COUNTERS = tuple(f.name for f in fields(CallStats))


@dataclass
class ItemLedger(Spend):
    """What the judge calls made for one item cost, and which of them failed.

    `failures` holds one entry per request that failed for good:
    `{"task": ..., "reason": ..., "attempts": ...}`.
    """

    failures: list[dict[str, Any]] = field(default_factory=list)

    def attempts_for(self, metric: str) -> int | None:
        """Attempts of the last failed request that served `metric`, if any failed."""
        found = None
        for f in self.failures:
            if f["task"].split("@", 1)[0] == metric:
                found = int(f["attempts"])
        return found

    def to_dict(self) -> dict[str, Any]:
        """The record's `meta.run` entry."""
        return {
            "judge_calls": self.attempts,
            "cache_hits": self.cache_hits,
            "spent_usage": self.usage.to_dict(),
            "cost_usd": round(self.cost_usd, 8),
        }


@dataclass(frozen=True)
class CallContext:
    """What every call of one item (of one panel member) shares, passed with each call.

    Attributes:
        ledger: the item's `ItemLedger`, where its calls, attempts, spend and failures
            are counted (None: counted on the caller only).
        limiter: the run's `RateLimiter` (None: the `JudgeCaller`'s own, if it has one).
        repair: re-ask when a reply cannot be read (`policy.max_repairs` times at most).
        gate: the run's bound on this judge's calls in flight, shared by every item
            (`calls_in_flight`; None: only the number of items bounds them). A slot is
            held while one attempt is sent and answered, never during a back-off or for a
            cache hit.
    """

    ledger: ItemLedger | None = None
    limiter: RateLimiter | None = None
    repair: bool = True
    gate: asyncio.Semaphore | None = None


@dataclass
class RunSummary:
    """Counts for one batch run: every item ends in exactly one of the four states.

    States: `ok` (all metrics scored), `failed` (a metric or the item could not be judged;
    the record says why and after how many attempts), `invalid` (the input row is
    unusable), `not_run` (not started because the run was stopped, e.g. by `max_cost`).
    `stopped` says why a run ended early; `key_refused` is set when the reason is that
    the judge refused the API key (a configuration error: the CLI exits with 2), and
    `unreachable` when the judge's server could not be reached at all (the CLI exits 3).
    """

    items: int = 0
    ok: int = 0
    failed: int = 0
    invalid: int = 0
    not_run: int = 0
    skipped: int = 0
    calls: int = 0
    judge_calls: int = 0
    retries: int = 0
    cache_hits: int = 0
    usage: Usage = field(default_factory=Usage)
    cost_usd: float = 0.0
    priced: bool = True
    elapsed_s: float = 0.0
    stopped: str | None = None
    key_refused: bool = False
    unreachable: bool = False
    panel: dict[str, dict[str, Any]] | None = None
    """A judge panel's cost line per member for this run (None without a panel): shown by
    `sumjudge evaluate` beside the panel's agreement, not in `to_dict` or `lines`."""
    started: float = field(default_factory=time.perf_counter)

    def count(self, status: str) -> None:
        """Count one finished item in its state."""
        self.items += 1
        self.elapsed_s = time.perf_counter() - self.started
        if status == "ok":
            self.ok += 1
        elif status == "invalid":
            self.invalid += 1
        elif status == "not_run":
            self.not_run += 1
        else:
            self.failed += 1

    def absorb(self, stats: CallStats, before: CallStats | None = None) -> None:
        """Take the caller's counters (minus a snapshot taken at the start of the run)."""
        run = stats.since(before or CallStats())
        self.calls, self.judge_calls, self.retries = run.calls, run.attempts, run.retries
        self.cache_hits, self.usage, self.cost_usd = run.cache_hits, run.usage, run.cost_usd
        self.elapsed_s = time.perf_counter() - self.started

    @property
    def cached_share(self) -> float:
        """Share of spent prompt tokens the provider served from its prompt cache."""
        p = self.usage.prompt_tokens
        return self.usage.cached_prompt_tokens / p if p else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The run summary as JSON (`--summary-json`)."""
        return {
            "items": self.items,
            "ok": self.ok,
            "failed": self.failed,
            "invalid": self.invalid,
            "not_run": self.not_run,
            "skipped_already_done": self.skipped,
            "requests": self.calls,
            "judge_calls": self.judge_calls,
            "retries": self.retries,
            "cache_hits": self.cache_hits,
            "usage": self.usage.to_dict(),
            "cached_prompt_share": round(self.cached_share, 4),
            "cost_usd": round(self.cost_usd, 6) if self.priced else None,
            "elapsed_s": round(self.elapsed_s, 3),
            "stopped": self.stopped,
        }

    def lines(self) -> list[str]:
        """Human-readable summary lines (for stderr)."""
        u = self.usage
        cost = f"${self.cost_usd:.4f}" if self.priced else "unknown (no price for this model)"
        out = [
            f"{self.items} item(s): {self.ok} ok, {self.failed} failed, {self.invalid} invalid "
            f"input, {self.not_run} not run"
            + (f"; {self.skipped} already done (resume)" if self.skipped else ""),
            f"{self.judge_calls} judge call(s) ({self.retries} retries), "
            f"{self.cache_hits} answered from the response cache",
            f"tokens: {u.prompt_tokens} prompt ({u.cached_prompt_tokens} cached by the provider, "
            f"{self.cached_share:.0%}), {u.completion_tokens} completion; spend {cost}; "
            f"{self.elapsed_s:.1f} s",
        ]
        if self.stopped:
            out.append(f"stopped early: {self.stopped}")
        return out
