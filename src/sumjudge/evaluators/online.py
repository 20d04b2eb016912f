"""One online run of an evaluator over many items: `evaluate_batch` without a batch endpoint.

`OnlineRun` sends every request through the caller it is given (a panel: its members'),
with the run's rate limiters, streams one record per item as it finishes and fills the
run's `RunSummary`: the four states, the callers' counters since the start (a panel's
per member too), and why the run stopped (`max_cost`, a refused key, a server that is
not there). A batch run's passes (`batch/run.py`) are online runs through a caller of
collected replies.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Container, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from ..accounting import CallContext, RunSummary
from ..cost import Price
from ..errors import ConfigError
from ..ratelimit import RateLimiter
from ..runner import JudgeCaller, settle_all
from ..scheduling import order_window, run_items
from .execute import ItemRun, indexed
from .panel import (
    PanelMember,
    all_refused,
    all_unreachable,
    halted,
    member_limiters,
    panel_costs,
    total_stats,
)
from .records import Record, item_failure, item_id, not_sent_reason, refused_only

__all__ = ["NO_LIMITS", "ItemJudge", "OnlineRun", "RunLimits"]


@dataclass(frozen=True)
class RunLimits:
    """What an online run may send and spend, set by the caller of `evaluate_batch`.

    Attributes:
        requests_per_minute: client-side cap on judge requests (None: no cap).
        tokens_per_minute: client-side cap on prompt + completion tokens.
        max_cost: stop starting new items once this many USD were spent in this run.
        calls_in_flight: judge calls in flight at most, across items (a panel: per
            member; None: no bound but the number of items in flight).
    """

    requests_per_minute: float | None = None
    tokens_per_minute: float | None = None
    max_cost: float | None = None
    calls_in_flight: int | None = None

    def __post_init__(self) -> None:
        if self.calls_in_flight is not None and self.calls_in_flight < 1:
            raise ConfigError(f"calls_in_flight must be at least 1 (got {self.calls_in_flight})")

    def context(self, limiter: RateLimiter | None, *, repair: bool) -> CallContext:
        """What every item's calls to one judge share in a run: `limiter` and the gate."""
        n = self.calls_in_flight
        return CallContext(limiter=limiter, repair=repair, gate=asyncio.Semaphore(n) if n else None)


NO_LIMITS = RunLimits()
"""No rate cap and no cost cap (a batch pass's: rounds check `max_cost` themselves)."""


class ItemJudge(Protocol):
    """What an online run needs of an evaluator (`Evaluator` has all of it)."""

    members: list[PanelMember]
    price: Price | None
    judge_name: str
    repair: bool

    def meta_base(self) -> dict[str, Any]:
        """The `meta` every record of the run starts with."""
        ...

    async def record(self, index: int, raw: Any, meta_base: dict[str, Any], run: ItemRun) -> Record:
        """The record of one input (its `index`), judged through `run`."""
        ...


class OnlineRun:
    """One online run: items through `caller` (a panel: through its members' callers).

    Args:
        evaluator: judges each item (`ItemJudge`).
        caller: the caller every request goes through (the evaluator's own, or a batch
            pass's); a panel's members keep their own.
        limits: the run's rate caps and `max_cost` (default: none).
        summary: the `RunSummary` to fill in (default: a new one).

    Raises:
        ConfigError: `max_cost` without a price to count it with.
    """

    def __init__(
        self,
        evaluator: ItemJudge,
        caller: JudgeCaller,
        *,
        limits: RunLimits = NO_LIMITS,
        summary: RunSummary | None = None,
    ) -> None:
        if limits.max_cost is not None and evaluator.price is None:
            raise ConfigError(
                f"max_cost needs a price for {evaluator.judge_name}: pass price=... (CLI: --price)"
            )
        self.evaluator = evaluator
        self.caller = caller
        self.max_cost = limits.max_cost
        self.summary = summary if summary is not None else RunSummary()
        self.summary.priced = evaluator.price is not None
        self.members = evaluator.members
        self.callers: Sequence[JudgeCaller] = [m.caller for m in self.members] or [caller]
        self._before = total_stats(self.callers)
        self._befores = {m.name: replace(m.caller.stats) for m in self.members}
        rpm, tpm, repair = limits.requests_per_minute, limits.tokens_per_minute, evaluator.repair
        self.shared = limits.context(RateLimiter(rpm, tpm) if rpm or tpm else None, repair=repair)
        # each member keeps its own limits: its own limiter and its own calls in flight
        limiters = member_limiters(self.members, rpm, tpm) or {}
        self.panel = [
            (m.name, m.caller, limits.context(limiters.get(m.name), repair=repair))
            for m in self.members
        ]

    def item_run(self) -> ItemRun:
        """A new item's run: its ledger in the run's shared context (and each member's)."""
        return ItemRun.start(self.caller, self.shared, self.panel)

    def stop(self) -> str | None:
        """Why no new item starts: every caller halted, or `max_cost` reached; else None."""
        why = halted(self.callers)
        if why is not None or self.max_cost is None:
            return why
        spent = total_stats(self.callers).cost_usd - self._before.cost_usd
        if spent >= self.max_cost:
            return f"max cost ${self.max_cost:g} reached (${spent:.4f} spent)"
        return None

    def _absorb(self) -> None:
        """The callers' counters since the start into the summary (a panel's per member)."""
        self.summary.absorb(total_stats(self.callers), self._before)
        self.summary.panel = panel_costs(self.members, self._befores)

    async def records(
        self, items: Iterable[Any], *, concurrency: int = 8, skip: Container[int] | None = None
    ) -> AsyncIterator[Record]:
        """One record per item (not in `skip`) as it finishes; the summary filled as it goes."""
        run = self.summary
        meta_base = self.evaluator.meta_base()

        async def work(_: int, pair: tuple[int, Any]) -> Record:
            record = await self.evaluator.record(*pair, meta_base, self.item_run())
            why = self.stop() or not_sent_reason(record)
            if why and refused_only(record):  # nothing judged: run it later
                return not_run(_, pair, why)
            return record

        def not_run(_: int, pair: tuple[int, Any], reason: str) -> Record:
            index, raw = pair
            return Record(index=index, id=item_id(raw), failure=item_failure("not_run", reason))

        async for _, record in run_items(
            indexed(items, skip, run),
            work,
            concurrency=concurrency,
            stop=self.stop,
            on_stop=not_run,
            window=order_window(concurrency),
        ):
            run.count(record.status)
            self._absorb()
            # A record reaches the caller's file only once its replies are on disk: so
            # `kill -9` never leaves a written record whose replies a re-run asks again.
            settle_all([self.caller, *self.callers])
            yield record
        self._absorb()
        run.key_refused = all_refused(self.callers) is not None  # a panel: every member
        run.unreachable = all_unreachable(self.callers) is not None
        run.stopped = self.stop() if run.not_run or run.key_refused or run.unreachable else None
