"""The async engine: calls judges with retries, and runs items with bounded concurrency.

`JudgeCaller` is the single place where a request meets a judge: it applies the retry
policy (exponential back-off with jitter, Retry-After honoured, a per-call timeout, a cap
on attempts) and counts calls and tokens. `run_items` streams results out as they finish,
holding at most `concurrency` items in flight, so memory stays flat for any input size.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from .errors import ProviderError, TransientProviderError
from .judges._protocol import Judge, JudgeRequest, JudgeResponse, Usage

__all__ = ["CallStats", "JudgeCaller", "RetryPolicy", "run_items"]

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class RetryPolicy:
    """How hard to try one judge call.

    Attributes:
        max_attempts: total tries, first one included.
        initial_delay: back-off before the second try, doubled each time.
        max_delay: cap on the computed back-off.
        max_retry_after: cap on a provider's Retry-After; longer waits are clipped to it.
        timeout: seconds allowed for one call (None: the adapter's own timeout only).
        jitter: randomise back-off between 50% and 100% of its value.
    """

    max_attempts: int = 5
    initial_delay: float = 0.5
    max_delay: float = 8.0
    max_retry_after: float = 120.0
    timeout: float | None = 180.0
    jitter: bool = True

    def delay(self, attempt: int, error: ProviderError, rng: random.Random) -> float:
        """Seconds to wait after failed attempt number `attempt` (1-based)."""
        if error.retry_after is not None:
            return min(error.retry_after, self.max_retry_after)
        base: float = min(self.max_delay, self.initial_delay * (2 ** (attempt - 1)))
        return base * rng.uniform(0.5, 1.0) if self.jitter else base


@dataclass
class CallStats:
    """Counters for one caller; read by progress bars and run summaries."""

    calls: int = 0
    attempts: int = 0
    retries: int = 0
    failures: int = 0
    usage: Usage = field(default_factory=Usage)


class JudgeCaller:
    """Sends requests to one judge with the retry policy, counting what it spends."""

    def __init__(
        self,
        judge: Judge,
        policy: RetryPolicy | None = None,
        *,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        seed: int | None = None,
    ) -> None:
        self.judge = judge
        self.policy = policy or RetryPolicy()
        self.stats = CallStats()
        self._sleep = sleep
        self._rng = random.Random(seed)

    async def call(self, request: JudgeRequest) -> JudgeResponse:
        """One judged request, retried on retryable errors.

        Raises the last `ProviderError` (with `.attempts` set) when every try failed or
        the error is not retryable.
        """
        self.stats.calls += 1
        attempt = 0
        while True:
            attempt += 1
            self.stats.attempts += 1
            try:
                if self.policy.timeout is not None:
                    response = await asyncio.wait_for(
                        self.judge.complete(request), self.policy.timeout
                    )
                else:
                    response = await self.judge.complete(request)
            except asyncio.TimeoutError:
                error: ProviderError = TransientProviderError(
                    f"no reply within {self.policy.timeout:g} s"
                )
            except ProviderError as exc:
                error = exc
            else:
                self.stats.usage = self.stats.usage + response.usage
                return response
            error.attempts = attempt  # type: ignore[attr-defined]
            if not error.retryable or attempt >= self.policy.max_attempts:
                self.stats.failures += 1
                raise error
            self.stats.retries += 1
            await self._sleep(self.policy.delay(attempt, error, self._rng))


async def run_items(
    items: Iterable[T],
    worker: Callable[[int, T], Awaitable[R]],
    *,
    concurrency: int = 8,
) -> AsyncIterator[tuple[int, R]]:
    """Run `worker(index, item)` over `items`, yielding (index, result) as each finishes.

    Items are pulled from the iterable lazily, never more than `concurrency` at a time.
    The worker must not raise for per-item problems: it returns them as results.
    """
    if concurrency < 1:
        raise ValueError("concurrency must be at least 1")
    iterator = iter(enumerate(items))
    pending: dict[asyncio.Task[R], int] = {}

    def fill() -> None:
        while len(pending) < concurrency:
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
    finally:
        for task in pending:
            task.cancel()
