"""Executing one item's plan: its calls through the runner, counted on the item."""

from __future__ import annotations

import asyncio
from collections.abc import Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from ..accounting import ItemLedger, RunSummary
from ..plan import Call, Judged, MetricPlan
from ..runner import CallContext, JudgeCaller

__all__ = ["ItemRun", "Stages", "flatten", "indexed"]

T = TypeVar("T")

Stages = list[list[MetricPlan[Any]]]
"""An item's plan: metric plans in stages; each stage runs once the previous finished."""


@dataclass(frozen=True)
class ItemRun:
    """One item's calls: the caller they go through and the context they share.

    Built once per item by `start`. A panel's item has one run per member (`members`, by
    name): the member's caller and its own context (its own rate limiter, the item's one
    ledger).
    """

    caller: JudgeCaller
    context: CallContext
    members: Mapping[str, ItemRun] = field(default_factory=dict)

    @classmethod
    def start(
        cls,
        caller: JudgeCaller,
        shared: CallContext,
        panel: Sequence[tuple[str, JudgeCaller, CallContext]] = (),
    ) -> ItemRun:
        """A new item's run: a fresh ledger in the run's shared context and each member's.

        `shared` holds what the run's calls share (limiter, gate, repair); `panel` gives
        each member's (name, caller, own context).
        """
        ledger = ItemLedger()
        members = {name: cls(member, replace(own, ledger=ledger)) for name, member, own in panel}
        return cls(caller, replace(shared, ledger=ledger), members)

    @property
    def ledger(self) -> ItemLedger:
        """The item's ledger: every call of the item (of every member) is counted on it."""
        assert self.context.ledger is not None  # `start` always gives one
        return self.context.ledger

    async def ask(self, call: Call[T]) -> Judged[T]:
        """Send one call of a plan through the runner, counted on this item."""
        return await self.caller.ask(call.request, call.read, self.context)

    async def execute(self, stages: Stages) -> dict[str, Any]:
        """Every metric's result of the plan, by metric name."""
        results: dict[str, Any] = {}

        async def one(plan: MetricPlan[Any]) -> Mapping[str, Any]:
            if len(plan.calls) == 1:  # the common case: no task per call, no extra coroutine
                call = plan.calls[0]
                return plan.finish([await self.caller.ask(call.request, call.read, self.context)])
            judged = await asyncio.gather(*(self.ask(c) for c in plan.calls))
            return plan.finish(judged)

        for stage in stages:
            for done in await asyncio.gather(*(one(p) for p in stage)):
                results.update(done)
        return results


def flatten(stages: Sequence[Sequence[MetricPlan[Any]]]) -> list[MetricPlan[Any]]:
    """The plans of every stage, in order."""
    return [p for stage in stages for p in stage]


def indexed(
    items: Iterable[Any], skip: Container[int] | None, run: RunSummary
) -> Iterator[tuple[int, Any]]:
    """(index, item) of every item not in `skip` (those are counted as skipped on `run`)."""
    for index, item in enumerate(items):
        if skip is not None and index in skip:
            run.skipped += 1
            continue
        yield index, item
