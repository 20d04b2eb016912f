"""Running items with bounded concurrency, streaming results out as they finish.

`run_items` holds at most `concurrency` items in flight, pulls inputs lazily and yields
each result as soon as it is ready, so memory stays flat for any input size. A `window`
bounds how far ahead of the oldest unfinished item it may start, so a consumer that puts
results back in input order never holds more than `window` of them, however long one
item takes. A `stop` check lets a run end early (a cost cap, a refused key) with every
item still accounted for.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import TypeVar

__all__ = ["ORDER_WINDOW", "order_window", "run_items"]

ORDER_WINDOW = 2048
"""Records a consumer putting them back in order holds at most (at least 32 per slot)."""


def order_window(concurrency: int) -> int:
    """The `window` evaluators run with: `ORDER_WINDOW`, or 32 per slot when that is more."""
    return max(ORDER_WINDOW, 32 * concurrency)


T = TypeVar("T")
R = TypeVar("R")


async def run_items(
    items: Iterable[T],
    worker: Callable[[int, T], Awaitable[R]],
    *,
    concurrency: int = 8,
    stop: Callable[[], str | None] | None = None,
    on_stop: Callable[[int, T, str], R] | None = None,
    window: int | None = None,
) -> AsyncIterator[tuple[int, R]]:
    """Run `worker(index, item)` over `items`, yielding (index, result) as each finishes.

    Items are pulled from the iterable lazily, never more than `concurrency` at a time.
    The worker must not raise for per-item problems: it returns them as results.

    Args:
        items: the inputs.
        worker: judges one item.
        concurrency: items in flight at most.
        stop: checked before each new item is started; a non-empty string (the reason)
            stops scheduling. Items in flight still finish.
        on_stop: maps each item that was not started to a result, so that every input
            item is accounted for; without it the remaining items are not yielded.
        window: an item is started only while it is fewer than `window` positions after
            the oldest item in flight (None: no bound). Must be at least `concurrency`.
    """
    if concurrency < 1:
        raise ValueError("concurrency must be at least 1")
    if window is not None and window < concurrency:
        raise ValueError("window must be at least concurrency")
    iterator = iter(enumerate(items))
    pending: dict[asyncio.Task[R], int] = {}
    reason: str | None = None
    started = 0

    def fill() -> None:
        nonlocal reason, started
        # Only later items are added below, so the oldest in flight stays the same.
        oldest = min(pending.values()) if window is not None and pending else None
        while len(pending) < concurrency and reason is None:
            if oldest is not None and window is not None and started - oldest >= window:
                return  # the consumer's reorder buffer is full: wait for the oldest
            if stop is not None and (why := stop()):
                reason = why
                return
            try:
                index, item = next(iterator)
            except StopIteration:
                return
            started = index + 1
            pending[asyncio.ensure_future(worker(index, item))] = index
            if oldest is None and window is not None:
                oldest = index

    fill()
    try:
        while pending:
            done, _ = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                index = pending.pop(task)
                yield index, task.result()
            fill()
        if reason is not None and on_stop is not None:
            for index, item in iterator:
                yield index, on_stop(index, item, reason)
    finally:
        for task in pending:
            task.cancel()
