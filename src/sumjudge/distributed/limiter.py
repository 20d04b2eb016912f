"""One rate limit for all the workers of a job: the limiter lives in one place, workers ask it.

`LimiterHost` keeps the job's `RateLimiter`s at the global rpm / tpm, one per judge (a
panel's members keep their own limits, as in a local run). It runs where every worker can
reach it: on Ray, a named actor created once per job by `sumjudge.ray` (`num_cpus=0`, so
it takes no worker's slot). Each worker's callers get a `SharedLimiter`, a `RateLimiter`
whose `acquire`, `settle` and `pause` go to the host through a `LimitsClient`; the runner
sees an ordinary limiter. Since there is one limiter, the job keeps `ratelimit.py`'s
promise (at most rpm in any 60-second window, smoothed by a 2-second bucket) whatever the
number of workers, batches and restarts; a 429's pause holds every worker.

The cost is one round trip to the host per request sent (about a millisecond on one
machine, against a judge's hundreds), and none when the job has no rate limit.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Awaitable
from typing import Protocol

from ..ratelimit import RateLimiter, Ticket

__all__ = ["LimiterHost", "LimitsClient", "SharedLimiter"]

#: Seconds a ticket is kept for `settle`: past its window (60 s + 1 s of slack) a
#: correction changes only the smoothing bucket, which needs no ticket.
_TICKET_LIFE = 61.0


class LimiterHost:
    """The job's limiters, by judge; what a Ray actor (or any shared server) runs.

    Args:
        requests_per_minute: the job's global request cap (None: none).
        tokens_per_minute: the job's global token cap (None: none).
    """

    def __init__(self, requests_per_minute: float | None, tokens_per_minute: float | None) -> None:
        self.rpm = requests_per_minute
        self.tpm = tokens_per_minute
        self._limiters: dict[str, RateLimiter] = {}
        self._tickets: OrderedDict[int, tuple[str, Ticket]] = OrderedDict()
        self._serial = 0
        self.granted = 0

    def _limiter(self, key: str) -> RateLimiter:
        limiter = self._limiters.get(key)
        if limiter is None:
            limiter = self._limiters[key] = RateLimiter(self.rpm, self.tpm)
        return limiter

    async def acquire(self, key: str, tokens: int) -> int:
        """Wait until one request of about `tokens` fits `key`'s limits; its ticket number."""
        ticket = await self._limiter(key).acquire(tokens)
        self._serial += 1
        self.granted += 1
        if self.tpm is not None:  # only token counts are settled later
            self._tickets[self._serial] = (key, ticket)
            while self._tickets:
                _, (_, oldest) = next(iter(self._tickets.items()))
                if oldest.at > time.monotonic() - _TICKET_LIFE:
                    break
                self._tickets.popitem(last=False)  # never settled (the call failed)
        return self._serial

    async def settle(self, key: str, ticket: int | None, extra_tokens: int) -> None:
        """Correct a request's token charge (`RateLimiter.settle`)."""
        kept = self._tickets.pop(ticket, None) if ticket is not None else None
        self._limiter(key).settle(extra_tokens, kept[1] if kept else None)

    async def pause(self, key: str, seconds: float) -> None:
        """Hold every worker's requests to `key` for `seconds` (a provider's Retry-After)."""
        self._limiter(key).pause(seconds)

    async def stats(self) -> dict[str, float]:
        """Requests granted so far, and seconds waited over all judges."""
        waited = sum(limiter.waited_s for limiter in self._limiters.values())
        return {"granted": self.granted, "waited_s": waited}


class LimitsClient(Protocol):
    """How a worker reaches the host (the engine supplies it; it must pickle)."""

    def acquire(self, key: str, tokens: int) -> Awaitable[int]:
        """`LimiterHost.acquire`, awaited."""
        ...

    def settle(self, key: str, ticket: int | None, extra_tokens: int) -> None:
        """`LimiterHost.settle`, sent without waiting."""
        ...

    def pause(self, key: str, seconds: float) -> None:
        """`LimiterHost.pause`, sent without waiting."""
        ...


class _SharedTicket(Ticket):
    __slots__ = ("number",)

    def __init__(self, at: float, tokens: float, number: int) -> None:
        super().__init__(at, tokens)
        self.number = number


class SharedLimiter(RateLimiter):
    """A `RateLimiter` whose state is the host's: what a worker's caller waits on.

    Args:
        client: the way to the job's `LimiterHost`.
        key: the judge this limiter is for (its cache identity).
    """

    def __init__(self, client: LimitsClient, key: str) -> None:
        super().__init__()
        self._client = client
        self._key = key

    @property
    def active(self) -> bool:
        """Always: the host has the limits."""
        return True

    async def acquire(self, tokens: int = 0) -> Ticket:
        """Wait for the host's go-ahead for one request of about `tokens`."""
        started = time.monotonic()
        number = await self._client.acquire(self._key, tokens)
        self.waited_s += time.monotonic() - started
        return _SharedTicket(time.monotonic(), float(tokens), number)

    def settle(self, extra_tokens: int, ticket: Ticket | None = None) -> None:
        """Send the correction of a request's token charge to the host."""
        if not extra_tokens:
            return
        number = ticket.number if isinstance(ticket, _SharedTicket) else None
        self._client.settle(self._key, number, extra_tokens)

    def pause(self, seconds: float) -> None:
        """Ask the host to hold every worker for `seconds`."""
        if seconds > 0:
            self._client.pause(self._key, seconds)
