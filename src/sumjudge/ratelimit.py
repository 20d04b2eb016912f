"""Client-side rate limits: requests per minute and tokens per minute, as token buckets.

Each bucket refills continuously at its per-minute rate and holds at most
`burst_seconds` worth of capacity, so a run starts smoothly instead of firing a whole
minute's budget at once. Waiters are served first come, first served. A request larger
than the bucket is let through when the bucket is full (and drives it negative), so it
is delayed, never refused. A 429 from the provider pauses every caller for its
Retry-After (`pause`), since the limit it hit is shared.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

__all__ = ["RateLimiter", "TokenBucket"]


class TokenBucket:
    """A continuously refilling bucket.

    Args:
        per_minute: refill rate.
        burst_seconds: capacity, in seconds of refill.
        clock: monotonic clock (injectable for tests).
    """

    def __init__(
        self,
        per_minute: float,
        *,
        burst_seconds: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if per_minute <= 0:
            raise ValueError("a rate limit must be positive")
        self.rate = per_minute / 60.0
        self.capacity = max(1.0, self.rate * burst_seconds)
        self.level = self.capacity
        self._clock = clock
        self._last = clock()

    def _refill(self) -> None:
        now = self._clock()
        self.level = min(self.capacity, self.level + (now - self._last) * self.rate)
        self._last = now

    def wait_time(self, amount: float) -> float:
        """Seconds until `amount` can be taken (0: now)."""
        self._refill()
        need = min(amount, self.capacity)
        return 0.0 if self.level >= need else (need - self.level) / self.rate

    def take(self, amount: float) -> None:
        """Take `amount` now; the level may go below zero, a debt that refilling repays."""
        self._refill()
        self.level -= amount

    def give(self, amount: float) -> None:
        """Adjust after the fact (negative `amount` charges more)."""
        self._refill()
        self.level = min(self.capacity, self.level + amount)


class RateLimiter:
    """Waits so that requests and tokens stay under per-minute limits.

    Example:
        >>> limiter = RateLimiter(requests_per_minute=500, tokens_per_minute=200_000)
        >>> await limiter.acquire(tokens=1200)   # before each request

    Args:
        requests_per_minute: cap on requests (None: unlimited).
        tokens_per_minute: cap on prompt + completion tokens (None: unlimited). Requests
            are charged an estimate up front and settled with the real count afterwards.
        burst_seconds: how many seconds of budget may be spent at once.
        clock, sleep: injectable for tests.
    """

    def __init__(
        self,
        requests_per_minute: float | None = None,
        tokens_per_minute: float | None = None,
        *,
        burst_seconds: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.requests = (
            TokenBucket(requests_per_minute, burst_seconds=burst_seconds, clock=clock)
            if requests_per_minute
            else None
        )
        self.tokens = (
            TokenBucket(tokens_per_minute, burst_seconds=burst_seconds, clock=clock)
            if tokens_per_minute
            else None
        )
        self._clock = clock
        self._sleep = sleep
        self._lock = asyncio.Lock()
        self._paused_until = 0.0
        self.waited_s = 0.0

    @property
    def active(self) -> bool:
        """Whether any limit is set (requests or tokens)."""
        return self.requests is not None or self.tokens is not None

    def pause(self, seconds: float) -> None:
        """Hold every caller for `seconds` (a provider's Retry-After)."""
        if seconds > 0:
            self._paused_until = max(self._paused_until, self._clock() + seconds)

    async def acquire(self, tokens: int = 0) -> None:
        """Wait until one request of about `tokens` tokens fits under the limits."""
        async with self._lock:  # first come, first served
            while True:
                wait = max(0.0, self._paused_until - self._clock())
                if self.requests is not None:
                    wait = max(wait, self.requests.wait_time(1))
                if self.tokens is not None and tokens:
                    wait = max(wait, self.tokens.wait_time(tokens))
                if wait <= 0:
                    break
                self.waited_s += wait
                await self._sleep(wait)
            if self.requests is not None:
                self.requests.take(1)
            if self.tokens is not None and tokens:
                self.tokens.take(tokens)

    def settle(self, extra_tokens: int) -> None:
        """Charge (or refund, if negative) the difference between real and estimated tokens."""
        if self.tokens is not None and extra_tokens:
            self.tokens.give(-extra_tokens)
