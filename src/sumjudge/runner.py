"""The async engine: where a request meets a judge, and how items run with bounded concurrency.

`JudgeCaller.ask` is the one call -> read -> repair loop of the package. It looks the
request up in the response cache, waits for the run's rate limiter, applies the retry
policy (exponential back-off with jitter, Retry-After honoured, a per-call timeout, a cap
on attempts), reads the reply with the caller's reader, and re-asks once with a repair
note when the reply cannot be read. The caller is the only owner of the cache: a reply is
stored only once its reader accepted it, so a rejected reply is never replayed.

What a call spends is counted on the caller (`CallStats`) and on the item's own
`ItemLedger`, which the evaluator passes in and gets back with the result.

`run_items` streams results out as they finish, holding at most `concurrency` items in
flight, so memory stays flat for any input size.
"""

from __future__ import annotations

import asyncio
import random
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, TypeVar

from .accounting import CallStats, ItemLedger, RunSummary
from .errors import ParseError, ProviderError, RateLimitError, TransientProviderError
from .plan import Judged
from .protocol import Judge, JudgeRequest, JudgeResponse, Message
from .retry import RetryPolicy, describe_error
from .tokens import estimate_tokens

if TYPE_CHECKING:
    from .cache import ResponseCache
    from .cost import Price
    from .ratelimit import RateLimiter

__all__ = [
    "CallStats",
    "ItemLedger",
    "JudgeCaller",
    "Judged",
    "RetryPolicy",
    "RunSummary",
    "describe_error",
    "repair_request",
    "run_items",
]

T = TypeVar("T")
R = TypeVar("R")


def repair_request(request: JudgeRequest, reply: str, problem: str) -> JudgeRequest:
    """The same request plus the bad reply and a note saying what was wrong with it."""
    note = (
        f"Your previous reply could not be used: {problem}. Reply again with only the JSON "
        "object in the required format, keeping the same judgement if it was sound."
    )
    return JudgeRequest(
        messages=(
            *request.messages,
            Message.of("assistant", reply[:4000]),
            Message.of("user", note),
        ),
        task=request.task + ":repair",
        schema=request.schema,
        schema_name=request.schema_name,
        temperature=request.temperature,
        max_tokens=request.max_tokens,
        logprobs=request.logprobs,
        top_logprobs=request.top_logprobs,
        subject=request.subject,
    )


def _accept(response: JudgeResponse) -> JudgeResponse:
    return response


class JudgeCaller:
    """Sends requests to one judge with the retry policy, counting what it spends.

    Args:
        judge: the judge to call.
        policy: retries, back-off and per-call timeout.
        sleep: the coroutine used to wait (tests inject a no-op).
        seed: seed of the jitter RNG.
        cache: a `ResponseCache`; replies are looked up before calling and stored once
            read.
        limiter: a `RateLimiter` waited on before every attempt, unless a call passes
            its own (a batch run passes the run's limiter).
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

    def cached(self, request: JudgeRequest) -> bool:
        """Whether the response cache holds a reply to `request` (no judge is called)."""
        return self.cache is not None and self.cache.key(self.identity, request) in self.cache

    def peek(self, request: JudgeRequest) -> JudgeResponse | None:
        """The cached reply to `request`, if any, for estimates (no judge is called)."""
        return (
            None if self.cache is None else self.cache.get(self.cache.key(self.identity, request))
        )

    async def call(
        self,
        request: JudgeRequest,
        *,
        ledger: ItemLedger | None = None,
        limiter: RateLimiter | None = None,
    ) -> JudgeResponse:
        """One request, accepting any reply: from the cache, or from the judge with retries.

        Raises the last `ProviderError` (with `.attempts` set) when every try failed or
        the error is not retryable.
        """
        return await self._reply(request, _accept, ledger, limiter)

    async def ask(
        self,
        request: JudgeRequest,
        read: Callable[[JudgeResponse], T],
        *,
        repair: bool = True,
        ledger: ItemLedger | None = None,
        limiter: RateLimiter | None = None,
    ) -> Judged[T]:
        """Ask the judge and read its reply with `read`; re-ask once if it cannot be read.

        Failures come back as data (`Judged.error`), never raised.
        """
        out: Judged[T] = Judged()
        response: JudgeResponse | None = None
        try:
            try:
                response, out.value = await self._read(request, read, ledger, limiter)
                out.calls += 1
                out.usage = out.usage + response.usage
            except ParseError as first:
                if not repair or first.response is None:
                    raise
                response = first.response
                out.calls += 1
                out.usage = out.usage + response.usage
                again = repair_request(request, response.text, str(first))
                response, out.value = await self._read(again, read, ledger, limiter)
                out.calls += 1
                out.usage = out.usage + response.usage
            out.response = response
        except ProviderError as exc:
            out.calls += 1
            out.error = describe_error(exc)
        except ParseError as exc:
            out.error = f"unparseable verdict: {exc}"
            raw = exc.response.text if exc.response is not None else exc.raw
            out.raw_reply = raw[:2000]
        return out

    async def _read(
        self,
        request: JudgeRequest,
        read: Callable[[JudgeResponse], T],
        ledger: ItemLedger | None,
        limiter: RateLimiter | None,
    ) -> tuple[JudgeResponse, T]:
        values: list[T] = []

        def accept(response: JudgeResponse) -> JudgeResponse:
            try:
                values.append(read(response))
            except ParseError as exc:
                exc.response = response
                raise
            return response

        response = await self._reply(request, accept, ledger, limiter)
        return response, values[-1]

    async def _reply(
        self,
        request: JudgeRequest,
        accept: Callable[[JudgeResponse], JudgeResponse],
        ledger: ItemLedger | None,
        limiter: RateLimiter | None,
    ) -> JudgeResponse:
        """A reply that `accept` took (it raises ParseError to reject one)."""
        self.stats.calls += 1
        if ledger is not None:
            ledger.calls += 1
        limiter = limiter or self.limiter
        if self.cache is None:
            return accept(await self._attempts(request, ledger, limiter))
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
            except ParseError:
                break  # the leader's reader rejected the reply: ask for ourselves
        if hit is not None:
            try:
                accepted = accept(hit)
            except ParseError:
                self.cache.delete(key)  # stored by an older version that kept everything
            else:
                self.stats.cache_hits += 1
                if ledger is not None:
                    ledger.cache_hits += 1
                return accepted
        future: asyncio.Future[JudgeResponse] = asyncio.get_running_loop().create_future()
        future.add_done_callback(_consume_exception)
        self._inflight[key] = future
        try:
            response = accept(await self._attempts(request, ledger, limiter))
        except asyncio.CancelledError:
            future.cancel()
            raise
        except BaseException as exc:
            if not future.done():
                future.set_exception(exc)
            raise
        else:
            self.cache.put(key, response, identity=self.identity, task=request.task)
            future.set_result(response)
            return response
        finally:
            del self._inflight[key]

    async def _attempts(
        self, request: JudgeRequest, ledger: ItemLedger | None, limiter: RateLimiter | None
    ) -> JudgeResponse:
        estimate = estimate_tokens(request.prompt_text()) if limiter is not None else 0
        attempt = 0
        while True:
            attempt += 1
            if limiter is not None:
                await limiter.acquire(estimate)
            self.stats.attempts += 1
            if ledger is not None:
                ledger.attempts += 1
            try:
                response = await _within(self.judge.complete(request), self.policy.timeout)
            except asyncio.TimeoutError:
                error: ProviderError = TransientProviderError(
                    f"no reply within {self.policy.timeout:g} s"
                )
            except ProviderError as exc:
                error = exc
            else:
                self._account(response, estimate, ledger, limiter)
                return response
            error.attempts = attempt
            if not error.retryable or attempt >= self.policy.max_attempts:
                self.stats.failures += 1
                if ledger is not None:
                    ledger.failures.append(
                        {"task": request.task, "reason": str(error), "attempts": attempt}
                    )
                raise error
            self.stats.retries += 1
            wait = self.policy.delay(attempt, error, self._rng)
            if limiter is not None and isinstance(error, RateLimitError):
                limiter.pause(wait)  # everyone backs off, not only this call
            await self._sleep(wait)

    def _account(
        self,
        response: JudgeResponse,
        estimate: int,
        ledger: ItemLedger | None,
        limiter: RateLimiter | None,
    ) -> None:
        usage = response.usage
        self.stats.usage = self.stats.usage + usage
        cost = 0.0
        if self.price is not None:
            cost = self.price.cost(usage)
            self.stats.cost_usd += cost
        if ledger is not None:
            ledger.usage = ledger.usage + usage
            ledger.cost_usd += cost
        if limiter is not None:
            # The limiter was charged an estimate of the prompt; settle with the real count.
            spent = usage.prompt_tokens + usage.completion_tokens
            limiter.settle(spent - estimate if spent else 0)


if sys.version_info >= (3, 11):

    async def _within(call: Awaitable[T], seconds: float | None) -> T:
        """`call`, cancelled after `seconds` (raising TimeoutError); no extra task."""
        async with asyncio.timeout(seconds):
            return await call

else:  # pragma: no cover - Python 3.10

    async def _within(call: Awaitable[T], seconds: float | None) -> T:
        """`call`, cancelled after `seconds` (raising TimeoutError)."""
        return await asyncio.wait_for(call, seconds)


def _consume_exception(future: asyncio.Future[JudgeResponse]) -> None:
    if not future.cancelled():
        future.exception()  # mark retrieved: no "exception never retrieved" warning


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
