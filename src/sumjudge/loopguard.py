"""Closing a judge's connections when the event loop they were opened on ends.

HTTP clients (aiohttp, httpx) hold connections bound to one event loop; left open when
the loop ends, they warn ("Unclosed client session", "unclosed transport") as they are
collected. `async with evaluator:` or `await evaluator.aclose()` closes them, but the
plain pattern `asyncio.run(main())` with `await evaluator.evaluate(...)` and no close
is common (our README's first example). So the runner arms a `LoopGuard` on the loop it
sends on: a task that waits, and closes the judge when it is cancelled, which is what
`asyncio.run` does to every task left when `main()` returns. The evaluator's own close
disarms it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

__all__ = ["LoopGuard"]


class LoopGuard:
    """Calls `close` when the running loop ends, unless `disarm` was awaited first.

    Args:
        close: the coroutine function that releases the connections (a judge's
            `aclose`); it must be safe to call more than once.
    """

    def __init__(self, close: Callable[[], Awaitable[None]]) -> None:
        self._close = close
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Future[None] | None = None
        self._task: asyncio.Task[None] | None = None

    def arm(self) -> None:
        """Watch the running loop (once per loop; cheap when already watching it)."""
        loop = asyncio.get_running_loop()
        if self._loop is loop and self._task is not None and not self._task.done():
            return
        self._loop, self._stop = loop, loop.create_future()
        self._task = loop.create_task(self._watch(self._stop))

    async def _watch(self, stop: asyncio.Future[None]) -> None:
        try:
            await stop
        except asyncio.CancelledError:
            await self._close()  # the loop is ending with the connections still open
            raise

    async def disarm(self) -> None:
        """Stop watching: the owner closes the connections itself."""
        loop, stop, task = self._loop, self._stop, self._task
        self._loop = self._stop = self._task = None
        if loop is None or stop is None or task is None or task.done():
            return
        if loop is asyncio.get_running_loop():
            stop.set_result(None)
            await asyncio.wait([task])  # let it end before the loop may close
        elif not loop.is_closed():  # closed from another loop: end the watch over there
            loop.call_soon_threadsafe(_finish, stop)


def _finish(stop: asyncio.Future[None]) -> None:
    if not stop.done():
        stop.set_result(None)
