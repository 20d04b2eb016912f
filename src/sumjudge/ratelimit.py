"""Client-side rate limits that mean what they say: at most N in any 60-second window.

`--rpm 120` promises the provider at most 120 requests in *any* 60 seconds, because that
is how providers count: a sliding minute, not a refill rate. Two mechanisms together
keep the promise and keep the flow smooth:

- `SlidingWindow`: a log of what was sent in the last window (60 s plus a little slack,
  for the time a request spends on its way). Nothing is sent that would put the window
  over its cap, so the busiest 60 seconds never hold more than N, whatever the timing.
- `TokenBucket`: spaces requests out at the per-minute rate with at most
  `burst_seconds` (2 s) of budget at once, so a run does not fire its whole minute in
  the first second and then wait 59.

Tokens per minute work the same way. A request is charged an estimate of its tokens up
front and settled with the real count once the reply says it (`settle` with the ticket
that `acquire` returned), so the window holds what was really spent. A request larger
than the whole cap is let through when the window is empty (delayed, never refused). A
429 from the provider pauses every caller for its Retry-After (`pause`), since the
limit it hit is shared.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable

__all__ = ["RateLimiter", "SlidingWindow", "Ticket", "TokenBucket"]

#: Seconds of budget the smoothing bucket may spend at once.
BURST_SECONDS = 2.0


class TokenBucket:
    """A continuously refilling bucket (the smoothing half of a limit).

    Args:
        per_minute: refill rate.
        burst_seconds: capacity, in seconds of refill.
        clock: monotonic clock (injectable for tests).
    """

    def __init__(
        self,
        per_minute: float,
        *,
        burst_seconds: float = BURST_SECONDS,
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


class Ticket:
    """What one `acquire` charged, so that `settle` corrects that very charge."""

    __slots__ = ("at", "requests", "tokens")

    def __init__(self, at: float, tokens: float) -> None:
        self.at = at
        self.requests = 1.0
        self.tokens = tokens


class SlidingWindow:
    """At most `limit` units in any `window` seconds (the cap half of a limit).

    Args:
        limit: the cap per window.
        window: the window's length in seconds.
        slack: extra seconds an entry is remembered, for the time between our send and
            the provider's count (so its window cannot see two of our windows' worth).
        field: which `Ticket` field this window counts ("requests" or "tokens").
        clock: monotonic clock (injectable for tests).
    """

    def __init__(
        self,
        limit: float,
        *,
        window: float = 60.0,
        slack: float = 1.0,
        field: str = "requests",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if limit <= 0:
            raise ValueError("a rate limit must be positive")
        self.limit = limit
        self.span = window + slack
        self.field = field
        self._clock = clock
        self._entries: deque[Ticket] = deque()
        self.total = 0.0  # what the entries in the window hold, kept as they come and go

    def _amount(self, ticket: Ticket) -> float:
        return float(getattr(ticket, self.field))

    def _expire(self, now: float) -> None:
        while self._entries and self._entries[0].at <= now - self.span:
            self.total -= self._amount(self._entries.popleft())
        if not self._entries:
            self.total = 0.0  # no drift from float sums

    def wait_time(self, amount: float) -> float:
        """Seconds until `amount` more fits in the window (0: now)."""
        now = self._clock()
        self._expire(now)
        total = self.total
        if not self._entries or total + amount <= self.limit:
            return 0.0
        for ticket in self._entries:  # oldest first: when does enough of it expire?
            total -= self._amount(ticket)
            if total + amount <= self.limit or total <= 0:
                return max(0.0, ticket.at + self.span - now)
        return 0.0  # pragma: no cover - the loop returns once the window empties

    def add(self, ticket: Ticket) -> None:
        """Count `ticket` in the window (the caller adds each ticket once)."""
        if not self._entries or self._entries[-1] is not ticket:
            self._entries.append(ticket)
            self.total += self._amount(ticket)

    def adjust(self, ticket: Ticket, delta: float) -> None:
        """`ticket`'s amount changed by `delta`: count it, if the ticket is still in the window."""
        # Entries leave from the front in time order: one at or after the front is still in.
        if self._entries and ticket.at >= self._entries[0].at:
            self.total += delta


class RateLimiter:
    """Waits so that requests and tokens stay under per-minute limits in any window.

    Example:
        >>> limiter = RateLimiter(requests_per_minute=500, tokens_per_minute=200_000)
        >>> ticket = await limiter.acquire(tokens=1200)   # before each request
        >>> limiter.settle(+150, ticket)                  # the reply used 1,350

    Args:
        requests_per_minute: cap on requests in any window (None: unlimited).
        tokens_per_minute: cap on prompt + completion tokens in any window (None:
            unlimited).
        burst_seconds: how many seconds of budget may be spent at once.
        window_seconds: the window the caps hold over (60: per minute). A shorter
            window scales time for tests: the caps then hold per `window_seconds`.
        slack_seconds: how long after its window a request is still counted. The cap
            holds at the provider as long as our requests reach it within this much of
            each other's send times (network and queueing jitter).
        clock, sleep: injectable for tests.
    """

    def __init__(
        self,
        requests_per_minute: float | None = None,
        tokens_per_minute: float | None = None,
        *,
        burst_seconds: float = BURST_SECONDS,
        window_seconds: float = 60.0,
        slack_seconds: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        scale = window_seconds / 60.0
        slack = slack_seconds

        def limit(per_minute: float | None, field: str) -> tuple[TokenBucket, SlidingWindow]:
            assert per_minute
            rate = per_minute / scale  # the bucket refills per (real) minute
            return (
                TokenBucket(rate, burst_seconds=burst_seconds, clock=clock),
                SlidingWindow(
                    per_minute, window=window_seconds, slack=slack, field=field, clock=clock
                ),
            )

        self.requests = limit(requests_per_minute, "requests") if requests_per_minute else None
        self.tokens = limit(tokens_per_minute, "tokens") if tokens_per_minute else None
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

    async def acquire(self, tokens: int = 0) -> Ticket:
        """Wait until one request of about `tokens` tokens fits under the limits."""
        async with self._lock:  # first come, first served
            while True:
                wait = max(0.0, self._paused_until - self._clock())
                if self.requests is not None:
                    bucket, window = self.requests
                    wait = max(wait, bucket.wait_time(1), window.wait_time(1))
                if self.tokens is not None and tokens:
                    bucket, window = self.tokens
                    wait = max(wait, bucket.wait_time(tokens), window.wait_time(tokens))
                if wait <= 0:
                    break
                self.waited_s += wait
                await self._sleep(wait)
            ticket = Ticket(self._clock(), float(tokens))
            if self.requests is not None:
                self.requests[0].take(1)
                self.requests[1].add(ticket)
            if self.tokens is not None:
                self.tokens[0].take(tokens)
                self.tokens[1].add(ticket)  # even at 0: `settle` may charge it later
            return ticket

    def settle(self, extra_tokens: int, ticket: Ticket | None = None) -> None:
        """Charge (or refund, if negative) the difference between real and estimated tokens.

        With the `ticket` of the request, the window holds its real count from the time
        it was sent; without one only the smoothing bucket is corrected.
        """
        if self.tokens is None or not extra_tokens:
            return
        self.tokens[0].give(-extra_tokens)
        if ticket is not None:
            new = max(0.0, ticket.tokens + extra_tokens)
            self.tokens[1].adjust(ticket, new - ticket.tokens)
            ticket.tokens = new
