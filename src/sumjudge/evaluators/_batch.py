"""The batch loop shared by the evaluators (SummarizationEvaluator, AutoEvaluator).

`run_batch` wraps `runner.run_items` with what every evaluator's `evaluate_batch` needs:
resume (`skip`), a client-side rate limiter installed on the caller for the run, the
`max_cost` stop with `not_run` records for the items never started, and the `RunSummary`
filled as records stream out. The evaluator supplies the per-item `work` coroutine and
the `not_run` record factory; everything else is identical for every evaluator.
"""

from __future__ import annotations

from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Container,
    Iterable,
    Iterator,
    Mapping,
)
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol, TypeVar

from ..cache import ResponseCache
from ..cost import Price
from ..errors import ConfigError
from ..ratelimit import RateLimiter
from ..runner import CallStats, JudgeCaller, RunSummary, run_items

__all__ = [
    "StatusRecord",
    "error_failure",
    "item_failure",
    "item_id",
    "open_cache",
    "run_batch",
]


class StatusRecord(Protocol):
    """What `run_batch` needs of a record: its final state."""

    @property
    def status(self) -> str: ...


R = TypeVar("R", bound=StatusRecord)


def open_cache(
    cache: ResponseCache | str | Path | bool | None,
) -> tuple[ResponseCache | None, bool]:
    """(the cache, whether the evaluator owns it and must close it) for a `cache=` argument.

    True: the default location; a path: a cache there; a `ResponseCache`: used as is (the
    caller owns it); None/False: no cache.
    """
    owns = cache is True or isinstance(cache, (str, Path))
    if cache is True:
        cache = ResponseCache()
    elif isinstance(cache, (str, Path)):
        cache = ResponseCache(cache)
    # (not `cache or None`: an empty ResponseCache has len() 0 and is falsy)
    return (cache if isinstance(cache, ResponseCache) else None), owns


def item_id(item: Any) -> str | None:
    """The `id` of a raw input item (object attribute or mapping key), as text."""
    raw = getattr(item, "id", None)
    if raw is None and isinstance(item, Mapping):
        raw = item.get("id")
    return None if raw is None else str(raw)


def _indexed(
    items: Iterable[Any], skip: Container[int] | None, run: RunSummary
) -> Iterator[tuple[int, Any]]:
    for index, item in enumerate(items):
        if skip is not None and index in skip:
            run.skipped += 1
            continue
        yield index, item


async def run_batch(
    items: Iterable[Any],
    work: Callable[[int, Any], Awaitable[R]],
    not_run: Callable[[int, Any, str], R],
    *,
    caller: JudgeCaller | None,
    price: Price | None,
    judge_name: str,
    run: RunSummary,
    concurrency: int = 8,
    requests_per_minute: float | None = None,
    tokens_per_minute: float | None = None,
    max_cost: float | None = None,
    skip: Container[int] | None = None,
) -> AsyncIterator[R]:
    """Run `work(index, item)` over `items`, yielding one record per input item.

    Args:
        items: the inputs, pulled lazily; indices are their 0-based positions.
        work: judges one item; must turn every per-item problem into a record.
        not_run: the record of an item never started because the run stopped
            (`not_run(index, item, reason)`).
        caller: the evaluator's caller (None: offline, nothing to limit or price).
        price: the judge's price; `max_cost` needs one.
        judge_name: named in the error when `max_cost` has no price.
        run: filled as the run goes (counts, calls, spend, `stopped`).
        concurrency, requests_per_minute, tokens_per_minute, max_cost, skip: as in the
            evaluators' `evaluate_batch`.
    """
    before = replace(caller.stats) if caller is not None else CallStats()
    if max_cost is not None and price is None and caller is not None:
        raise ConfigError(f"max_cost needs a price for {judge_name}: pass price=... (CLI: --price)")
    run.priced = price is not None or caller is None
    limiter = None
    if caller is not None and (requests_per_minute or tokens_per_minute):
        limiter = RateLimiter(requests_per_minute, tokens_per_minute)
    saved_limiter = caller.limiter if caller is not None else None
    if caller is not None and limiter is not None:
        caller.limiter = limiter

    def stop() -> str | None:
        if max_cost is None or caller is None:
            return None
        spent = caller.stats.cost_usd - before.cost_usd
        if spent >= max_cost:
            return f"max cost ${max_cost:g} reached (${spent:.4f} spent)"
        return None

    async def one(_: int, pair: tuple[int, Any]) -> R:
        return await work(*pair)

    def unstarted(_: int, pair: tuple[int, Any], reason: str) -> R:
        return not_run(pair[0], pair[1], reason)

    try:
        async for _, record in run_items(
            _indexed(items, skip, run),
            one,
            concurrency=concurrency,
            stop=stop,
            on_stop=unstarted,
        ):
            run.count(record.status)
            if caller is not None:
                run.absorb(caller.stats, before)
            yield record
        if caller is not None:
            run.absorb(caller.stats, before)
        run.stopped = stop() if run.not_run else None
    finally:
        if caller is not None:
            caller.limiter = saved_limiter


def item_failure(kind: str, reason: str) -> dict[str, Any]:
    """The failure entry of an item that was not judged at all (not a single metric).

    kind: "not_run" (max-cost reached), "context" (the source does not fit the judge's
    window) or "error" (anything unexpected while judging the item).
    """
    return {"metric": None, "kind": kind, "reason": reason, "attempts": 0}


def error_failure(exc: BaseException) -> dict[str, Any]:
    """`item_failure` for an unexpected exception while judging one item."""
    return item_failure("error", f"{type(exc).__name__}: {exc}")
