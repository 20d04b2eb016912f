"""Running items with bounded concurrency, streaming results out as they finish.

`run_items` holds at most `concurrency` items in flight, pulls inputs lazily and yields
each result as soon as it is ready, so memory stays flat for any input size. A `stop`
check lets a run end early (a cost cap, a refused key) with every item still accounted
for.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import TypeVar

__all__ = ["run_items"]

T = TypeVar("T")
R = TypeVar("R")


async def run_items(
    items: Iterable[T],
    worker: Callable[[int, T], Awaitable[R]],
    *,
    concurrency: int = 8,
    stop: Callable[[], str | None] | None = None,
    on_stop: Callable[[int, T, str], R] | None = None,
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
    """
    if concurrency < 1:
        raise ValueError("concurrency must be at least 1")
    iterator = iter(enumerate(items))
    pending: dict[asyncio.Task[R], int] = {}
    reason: str | None = None

    def fill() -> None:
        nonlocal reason
        while len(pending) < concurrency and reason is None:
            if stop is not None and (why := stop()):
                reason = why
                return
            try:
                index, item = next(iterator)
            except StopIteration:
                return
            pending[asyncio.ensure_future(worker(index, item))] = index

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
