"""The async engine: calls judges with retries, and runs items with bounded concurrency.

`JudgeCaller` is the single place where a request meets a judge: it looks the request up in
the response cache, waits for the rate limiter, applies the retry policy (exponential
back-off with jitter, Retry-After honoured, a per-call timeout, a cap on attempts), stores
each reply in the cache the moment it arrives, and counts calls, tokens and spend.

`run_items` streams results out as they finish, holding at most `concurrency` items in
flight, so memory stays flat for any input size. Each item runs with its own `ItemLedger`
(a context variable), so everything `JudgeCaller.call` does for that item, across all the
metric calls it fans out to, is counted per item without threading a parameter through.
"""

from __future__ import annotations

import asyncio
import contextvars
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import ProviderError, RateLimitError, TransientProviderError
from .protocol import Judge, JudgeRequest, JudgeResponse, Usage

if TYPE_CHECKING:
    from .cache import ResponseCache
    from .cost import Price
    from .ratelimit import RateLimiter

__all__ = [
    "CallStats",
    "ItemLedger",
    "JudgeCaller",
    "RetryPolicy",
    "RunSummary",
    "current_ledger",
    "run_items",
]

T = TypeVar("T")
R = TypeVar("R")


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
    """Counters for one caller; read by progress bars and run summaries.

    `calls` counts logical requests (cache hits included), `attempts` the requests that
    reached the judge, `usage` and `cost_usd` what those attempts spent.
    """

    calls: int = 0
    attempts: int = 0
    retries: int = 0
    failures: int = 0
    cache_hits: int = 0
    usage: Usage = field(default_factory=Usage)
    cost_usd: float = 0.0


@dataclass
class ItemLedger:
    """What the judge calls made for one item cost; filled by `JudgeCaller.call`."""

    calls: int = 0
    attempts: int = 0
    cache_hits: int = 0
    usage: Usage = field(default_factory=Usage)
    cost_usd: float = 0.0
    failures: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "judge_calls": self.attempts,
            "cache_hits": self.cache_hits,
            "spent_usage": self.usage.to_dict(),
            "cost_usd": round(self.cost_usd, 8),
        }


_LEDGER: contextvars.ContextVar[ItemLedger | None] = contextvars.ContextVar(
    "sumjudge_item_ledger", default=None
)


def current_ledger() -> ItemLedger | None:
    """The ledger of the item being worked on in this task, if inside `run_items`."""
    return _LEDGER.get()


class JudgeCaller:
    """Sends requests to one judge with the retry policy, counting what it spends.

    Args:
        judge: the judge to call.
        policy: retries, back-off and per-call timeout.
        sleep: the coroutine used to wait (tests inject a no-op).
        seed: seed of the jitter RNG.
        cache: a `ResponseCache`; replies are looked up before calling and stored on arrival.
        limiter: a `RateLimiter` waited on before every attempt.
        price: the judge model's price, to count spend in USD.
    """

    def __init__(
        self,
        judge: Judge,
        policy: RetryPolicy | None = None,
        *,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        seed: int | None = None,
        cache: ResponseCache | None = None,
        limiter: RateLimiter | None = None,
        price: Price | None = None,
    ) -> None:
        self.judge = judge
        self.policy = policy or RetryPolicy()
        self.stats = CallStats()
        self.cache = cache
        self.limiter = limiter
        self.price = price
        self._sleep = sleep
        self._rng = random.Random(seed)
        self._inflight: dict[str, asyncio.Future[JudgeResponse]] = {}

    @property
    def identity(self) -> str:
        """The judge's cache identity: name, plus base URL for custom servers."""
        return self.judge.identity

    async def call(self, request: JudgeRequest) -> JudgeResponse:
        """One judged request: from the cache, or from the judge with retries.

        Raises the last `ProviderError` (with `.attempts` set) when every try failed or
        the error is not retryable.
        """
        self.stats.calls += 1
        ledger = _LEDGER.get()
        if ledger is not None:
            ledger.calls += 1
        key: str | None = None
        if self.cache is not None:
            key = self.cache.key(self.identity, request)
            hit = self.cache.get(key)
            while hit is None and key in self._inflight:
                # The same request is already on its way (duplicate rows): share its reply.
                pending = self._inflight[key]
                try:
                    hit = await asyncio.shield(pending)
                except asyncio.CancelledError:
                    if not pending.cancelled():
                        raise  # we were cancelled ourselves
                    # the leader was cancelled: look again, maybe lead ourselves
            if hit is not None:
                self.stats.cache_hits += 1
                if ledger is not None:
                    ledger.cache_hits += 1
                return hit
            future: asyncio.Future[JudgeResponse] = asyncio.get_running_loop().create_future()
            future.add_done_callback(_consume_exception)
            self._inflight[key] = future
            try:
                response = await self._attempts(request, key, ledger)
            except asyncio.CancelledError:
                future.cancel()
                raise
            except BaseException as exc:
                if not future.done():
                    future.set_exception(exc)
                raise
            else:
                future.set_result(response)
                return response
            finally:
                del self._inflight[key]
        return await self._attempts(request, None, ledger)

    async def _attempts(
        self, request: JudgeRequest, key: str | None, ledger: ItemLedger | None
    ) -> JudgeResponse:
        estimate = 0
        if self.limiter is not None:
            from .cost import estimate_tokens

            estimate = estimate_tokens(request.prompt_text())
        attempt = 0
        while True:
            attempt += 1
            if self.limiter is not None:
                await self.limiter.acquire(estimate)
            self.stats.attempts += 1
            if ledger is not None:
                ledger.attempts += 1
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
                self._account(response, estimate, ledger)
                if self.cache is not None and key is not None:
                    self.cache.put(key, response, identity=self.identity, task=request.task)
                return response
            error.attempts = attempt  # type: ignore[attr-defined]
            if not error.retryable or attempt >= self.policy.max_attempts:
                self.stats.failures += 1
                if ledger is not None:
                    ledger.failures.append(
                        {"task": request.task, "reason": str(error), "attempts": attempt}
                    )
                raise error
            self.stats.retries += 1
            wait = self.policy.delay(attempt, error, self._rng)
            if self.limiter is not None and isinstance(error, RateLimitError):
                self.limiter.pause(wait)  # everyone backs off, not only this call
            await self._sleep(wait)

    def _account(self, response: JudgeResponse, estimate: int, ledger: ItemLedger | None) -> None:
        usage = response.usage
        self.stats.usage = self.stats.usage + usage
        cost = 0.0
        if self.price is not None:
            cost = self.price.cost(usage)
            self.stats.cost_usd += cost
        if ledger is not None:
            ledger.usage = ledger.usage + usage
            ledger.cost_usd += cost
        if self.limiter is not None:
            # The limiter was charged an estimate of the prompt; settle with the real count.
            spent = usage.prompt_tokens + usage.completion_tokens
            self.limiter.settle(spent - estimate if spent else 0)


def _consume_exception(future: asyncio.Future[JudgeResponse]) -> None:
    if not future.cancelled():
        future.exception()  # mark retrieved: no "exception never retrieved" warning


@dataclass
class RunSummary:
    """Counts for one batch run: every item ends in exactly one of the four states.

    States: `ok` (all metrics scored), `failed` (a metric or the item could not be judged;
    the record says why and after how many attempts), `invalid` (the input row is
    unusable), `not_run` (not started because the run was stopped, e.g. by `max_cost`).
    """

    items: int = 0
    ok: int = 0
    failed: int = 0
    invalid: int = 0
    not_run: int = 0
    skipped: int = 0
    calls: int = 0
    judge_calls: int = 0
    retries: int = 0
    cache_hits: int = 0
    usage: Usage = field(default_factory=Usage)
    cost_usd: float = 0.0
    priced: bool = True
    elapsed_s: float = 0.0
    stopped: str | None = None
    started: float = field(default_factory=time.perf_counter)

    def count(self, status: str) -> None:
        self.items += 1
        self.elapsed_s = time.perf_counter() - self.started
        if status == "ok":
            self.ok += 1
        elif status == "invalid":
            self.invalid += 1
        elif status == "not_run":
            self.not_run += 1
        else:
            self.failed += 1

    def absorb(self, stats: CallStats, before: CallStats | None = None) -> None:
        """Take the caller's counters (minus a snapshot taken at the start of the run)."""
        b = before or CallStats()
        self.calls = stats.calls - b.calls
        self.judge_calls = stats.attempts - b.attempts
        self.retries = stats.retries - b.retries
        self.cache_hits = stats.cache_hits - b.cache_hits
        u, bu = stats.usage, b.usage
        self.usage = Usage(
            u.prompt_tokens - bu.prompt_tokens,
            u.completion_tokens - bu.completion_tokens,
            u.cached_prompt_tokens - bu.cached_prompt_tokens,
            u.cache_write_tokens - bu.cache_write_tokens,
        )
        self.cost_usd = stats.cost_usd - b.cost_usd
        self.elapsed_s = time.perf_counter() - self.started

    @property
    def cached_share(self) -> float:
        """Share of spent prompt tokens the provider served from its prompt cache."""
        p = self.usage.prompt_tokens
        return self.usage.cached_prompt_tokens / p if p else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "items": self.items,
            "ok": self.ok,
            "failed": self.failed,
            "invalid": self.invalid,
            "not_run": self.not_run,
            "skipped_already_done": self.skipped,
            "requests": self.calls,
            "judge_calls": self.judge_calls,
            "retries": self.retries,
            "cache_hits": self.cache_hits,
            "usage": self.usage.to_dict(),
            "cached_prompt_share": round(self.cached_share, 4),
            "cost_usd": round(self.cost_usd, 6) if self.priced else None,
            "elapsed_s": round(self.elapsed_s, 3),
            "stopped": self.stopped,
        }

    def lines(self) -> list[str]:
        """Human-readable summary lines (for stderr)."""
        u = self.usage
        cost = f"${self.cost_usd:.4f}" if self.priced else "unknown (no price for this model)"
        out = [
            f"{self.items} item(s): {self.ok} ok, {self.failed} failed, {self.invalid} invalid "
            f"input, {self.not_run} not run"
            + (f"; {self.skipped} already done (resume)" if self.skipped else ""),
            f"{self.judge_calls} judge call(s) ({self.retries} retries), "
            f"{self.cache_hits} answered from the response cache",
            f"tokens: {u.prompt_tokens} prompt ({u.cached_prompt_tokens} cached by the provider, "
            f"{self.cached_share:.0%}), {u.completion_tokens} completion; spend {cost}; "
            f"{self.elapsed_s:.1f} s",
        ]
        if self.stopped:
            out.append(f"stopped early: {self.stopped}")
        return out


async def _in_ledger(worker: Callable[[int, T], Awaitable[R]], index: int, item: T) -> R:
    _LEDGER.set(ItemLedger())  # this task's own context: invisible to other items
    return await worker(index, item)


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
    The worker must not raise for per-item problems: it returns them as results. Inside
    the worker, `current_ledger()` is that item's own `ItemLedger`.

    Args:
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
            pending[asyncio.ensure_future(_in_ledger(worker, index, item))] = index

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
