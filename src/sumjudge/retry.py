"""The retry policy of judge calls, the per-call timeout, and how a failed call is described."""

from __future__ import annotations

import asyncio
import random
import sys
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import TypeVar

from .errors import ProviderError

__all__ = ["RetryPolicy", "describe_error", "within"]

T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """How hard to try one judge call.

    `RetryPolicy(initial_delay=0, max_delay=0, max_retry_after=0, jitter=False)` never
    sleeps, which is what tests want.

    Attributes:
        max_attempts: total tries, first one included.
        initial_delay: back-off before the second try, doubled each time.
        max_delay: cap on the computed back-off.
        max_retry_after: cap on a provider's Retry-After; longer waits are clipped to it.
        timeout: seconds allowed for one call (None: the adapter's own timeout only).
        jitter: randomise back-off between 50% and 100% of its value.
        max_repairs: re-asks with a repair note for a reply that cannot be read (the
            first reply and two repairs: three chances for one verdict).
    """

    max_attempts: int = 5
    initial_delay: float = 0.5
    max_delay: float = 8.0
    max_retry_after: float = 120.0
    timeout: float | None = 180.0
    jitter: bool = True
    max_repairs: int = 2

    def delay(self, attempt: int, error: ProviderError, rng: random.Random) -> float:
        """Seconds to wait after failed attempt number `attempt` (1-based)."""
        if error.retry_after is not None:
            return min(error.retry_after, self.max_retry_after)
        base: float = min(self.max_delay, self.initial_delay * (2 ** (attempt - 1)))
        return base * rng.uniform(0.5, 1.0) if self.jitter else base


def describe_error(error: ProviderError) -> str:
    """`Name: message (after N attempts)`, as failures are reported."""
    n = error.attempts
    tail = f" (after {n} attempt{'s' if n != 1 else ''})" if n else ""
    return f"{type(error).__name__}: {error}{tail}"


if sys.version_info >= (3, 11):

    async def within(call: Awaitable[T], seconds: float | None) -> T:
        """`call`, cancelled after `seconds` (raising TimeoutError); no extra task."""
        async with asyncio.timeout(seconds):
            return await call

else:  # pragma: no cover - Python 3.10

    async def within(call: Awaitable[T], seconds: float | None) -> T:
        """`call`, cancelled after `seconds` (raising TimeoutError)."""
        return await asyncio.wait_for(call, seconds)
