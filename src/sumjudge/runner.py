"""The async engine: where a request meets a judge.

`JudgeCaller.ask` is the one call -> read -> repair loop of the package. It looks the
request up in the response cache, waits for the run's rate limiter, applies the retry
policy (exponential back-off with jitter, Retry-After honoured, a per-call timeout, a cap
on attempts), reads the reply with the caller's reader, and re-asks when the reply cannot
be used (`reask`): up to two repairs for a reply that cannot be read, and once with more
room for a reply cut at the token limit (raised here, as `TruncatedResponseError`, for
every backend alike: an adapter only reports the finish reason). The caller is the only
owner of the cache: a reply is stored only once its reader accepted it, so a rejected
reply is never replayed.

Where replies enter. Every reply and every provider error passes `redaction.redact`
before anything reads, stores or reports it, so a key a server echoes never reaches the
cache, a record or a terminal.

A refused key (401/403) stops the caller: the calls already in flight finish, and every
later call fails at once without being sent (`JudgeCaller.refused`), so that a run with
a wrong key sends a handful of requests, not one per item. A server that cannot be
reached at all stops it the same way (`JudgeCaller.unreachable`, `firstcontact`):
`UNREACHABLE_AFTER` connection failures in a row, across items, before any answer.

What a call spends is counted on the caller (`CallStats`) and on the item's own
`ItemLedger`. What the calls of one item share (its ledger, the run's rate limiter,
whether to repair) is one frozen `CallContext`, built once per item (and per panel
member) and passed with every call. `run_items` (in `scheduling`) runs the items.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

from .accounting import CallContext, CallStats, ItemLedger, RunSummary
from .errors import (
    AuthError,
    ConnectionFailedError,
    ParseError,
    ProviderError,
    RateLimitError,
    TransientProviderError,
    TruncatedResponseError,
)
from .firstcontact import FirstContact
from .loopguard import LoopGuard
from .plan import Judged
from .protocol import Judge, JudgeRequest, JudgeResponse, Usage
from .reask import repair_request, roomier_request
from .redaction import redact_error, redact_response
from .retry import RetryPolicy, describe_error, within
from .scheduling import run_items
from .tokens import estimate_prompt_tokens

if TYPE_CHECKING:
    from .cache import ResponseCache
    from .cost import Price
    from .ratelimit import RateLimiter, Ticket

__all__ = [
    "CallContext",
    "CallStats",
    "ItemLedger",
    "JudgeCaller",
    "Judged",
    "RetryPolicy",
    "RunSummary",
    "describe_error",
    "repair_request",
    "roomier_request",
    "run_items",
    "settle_all",
]

T = TypeVar("T")


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
        limiter: a `RateLimiter` waited on before every attempt, unless a call's
            context has its own (a batch run passes the run's limiter).
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
        self._refused: str | None = None
        # The first request goes alone: if the key is refused or the server is not there,
        # the run has sent one request instead of one per metric of every item in flight.
        self._contact = FirstContact()
        # Connections opened on a loop are closed when it ends, closed or not by the owner.
        self.loop_guard = LoopGuard(judge.aclose)

    @property
    def identity(self) -> str:
        """The judge's cache identity: name, plus base URL for custom servers."""
        return self.judge.identity

    def settle(self) -> None:
        """Write the replies the cache holds in its write window now (a run's end).

        So that the next run, through another caller or process on the same cache file,
        finds every reply of this one.
        """
        if self.cache is not None:
            self.cache.flush()

    def cached(self, request: JudgeRequest) -> bool:
        """Whether the response cache holds a reply to `request` (no judge is called)."""
        return self.cache is not None and self.cache.key(self.identity, request) in self.cache

    def peek(self, request: JudgeRequest) -> JudgeResponse | None:
        """The cached reply to `request`, if any, for estimates (no judge is called)."""
        return (
            None if self.cache is None else self.cache.get(self.cache.key(self.identity, request))
        )

    def _context(self, context: CallContext | None) -> CallContext:
        """The call's context, with this caller's own limiter where it names none."""
        context = context or CallContext()
        if context.limiter is None and self.limiter is not None:
            return replace(context, limiter=self.limiter)
        return context

    async def call(
        self, request: JudgeRequest, context: CallContext | None = None
    ) -> JudgeResponse:
        """One request, accepting any reply: from the cache, or from the judge with retries.

        Raises the last `ProviderError` (with `.attempts` set) when every try failed or
        the error is not retryable.
        """
        context = self._context(context)
        try:
            return await self._reply(request, _accept, context)
        except ProviderError as exc:
            self._failed(Judged(), exc, request, context.ledger)
            raise

    async def ask(
        self,
        request: JudgeRequest,
        read: Callable[[JudgeResponse], T],
        context: CallContext | None = None,
    ) -> Judged[T]:
        """Ask the judge and read its reply with `read`, re-asking when it cannot be used.

        A reply `read` rejects is repaired up to `policy.max_repairs` times (not at all
        when the context's `repair` is False); a reply cut at the token limit is asked
        again once with more room. Every re-ask is counted in `calls`, `usage` and the
        ledger. Failures come back as data (`Judged.error`), never raised.
        """
        context = self._context(context)
        ledger = context.ledger
        out: Judged[T] = Judged()
        base = current = request
        repairs = self.policy.max_repairs if context.repair else 0
        roomy = 1
        while True:
            try:
                response, value = await self._read(current, read, context)
            except TruncatedResponseError as exc:
                out.calls += 1
                out.usage = out.usage + (exc.usage or Usage())
                if roomy:
                    roomy -= 1
                    base, current = roomier_request(base), roomier_request(current)
                    continue
                self._failed(out, exc, current, ledger)
            except ProviderError as exc:
                out.calls += 1
                self._failed(out, exc, current, ledger)
            except ParseError as exc:
                if exc.response is not None:
                    out.calls += 1
                    out.usage = out.usage + exc.response.usage
                if repairs and exc.response is not None:
                    repairs -= 1
                    current = repair_request(base, exc.response.text, str(exc))
                    continue
                out.error = f"unparseable verdict: {exc}"
                raw = exc.response.text if exc.response is not None else exc.raw
                out.raw_reply = raw[:2000]
            else:
                out.calls += 1
                out.usage = out.usage + response.usage
                out.value, out.response = value, response
            return out

    def _failed(
        self,
        out: Judged[T],
        error: ProviderError,
        request: JudgeRequest,
        ledger: ItemLedger | None,
    ) -> None:
        """Record a call that failed for good, on the caller, the ledger and `out`."""
        out.error = describe_error(error)
        self.stats.failures += 1
        if ledger is not None:
            ledger.failures.append(
                {"task": request.task, "reason": str(error), "attempts": error.attempts}
            )

    @property
    def refused(self) -> str | None:
        """Why the judge refused our key (401/403), once it has; later calls are not sent."""
        return self._refused

    @property
    def unreachable(self) -> str | None:
        """Why the judge's server is taken for absent, once it is; later calls are not sent."""
        return self._contact.unreachable

    async def _read(
        self, request: JudgeRequest, read: Callable[[JudgeResponse], T], context: CallContext
    ) -> tuple[JudgeResponse, T]:
        values: list[T] = []

        def accept(response: JudgeResponse) -> JudgeResponse:
            try:
                values.append(read(response))
            except ParseError as exc:
                exc.response = response
                raise
            return response

        response = await self._reply(request, accept, context)
        return response, values[-1]

    async def _reply(
        self,
        request: JudgeRequest,
        accept: Callable[[JudgeResponse], JudgeResponse],
        context: CallContext,
    ) -> JudgeResponse:
        """A reply that `accept` took (it raises ParseError to reject one)."""
        ledger = context.ledger
        self.stats.calls += 1
        if ledger is not None:
            ledger.calls += 1
        if self.cache is None:
            return accept(await self._attempts(request, context))
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
                accepted = accept(redact_response(hit))  # a cache written before redaction existed
            except ParseError:
                self.cache.delete(key)  # stored by an older version that kept everything
            else:
                self.stats.cache_hits += 1
                if ledger is not None:
                    ledger.cache_hits += 1
                return accepted
        # No done-callback on the future: it would keep the reply (with its few hundred
        # logprob objects) alive until the loop's next turn, and the garbage collector
        # counts on most objects dying young.
        future: asyncio.Future[JudgeResponse] = asyncio.get_running_loop().create_future()
        self._inflight[key] = future
        try:
            response = accept(await self._attempts(request, context))
        except asyncio.CancelledError:
            future.cancel()
            raise
        except BaseException as exc:
            if not future.done():
                future.set_exception(exc)
                future.exception()  # retrieved: no "exception never retrieved" warning
            raise
        else:
            self.cache.put(key, response, identity=self.identity, task=request.task)
            future.set_result(response)
            return response
        finally:
            del self._inflight[key]

    async def _attempts(self, request: JudgeRequest, context: CallContext) -> JudgeResponse:
        # once settled, no wait: the common case costs no coroutine
        probe = False if self._contact.settled else await self._contact.admit()
        try:
            return await self._send(request, context)
        finally:
            if probe:
                self._contact.probe_done()

    async def _send(self, request: JudgeRequest, context: CallContext) -> JudgeResponse:
        limiter, gate = context.limiter, context.gate
        estimate = estimate_prompt_tokens(request) if limiter is not None else 0
        attempt = 0
        while True:
            if self._refused is not None:  # a wrong key fails every call: do not send more
                raise AuthError(f"not sent: {self._refused}")
            if self._contact.unreachable is not None:  # nor to a server that is not there
                raise ConnectionFailedError(f"not sent: {self._contact.unreachable}")
            attempt += 1
            if gate is None:
                outcome = await self._attempt(request, context, estimate)
            else:  # the slot is held for the attempt only, not for the back-off below
                async with gate:
                    outcome = await self._attempt(request, context, estimate)
            if isinstance(outcome, JudgeResponse):
                return outcome
            error = outcome
            self._contact.seen(error)
            if isinstance(error, AuthError) and self._refused is None:
                self._refused = str(error)
            error.attempts = attempt
            if not error.retryable or attempt >= self.policy.max_attempts:
                raise error
            self.stats.retries += 1
            wait = self.policy.delay(attempt, error, self._rng)
            if limiter is not None and isinstance(error, RateLimitError):
                limiter.pause(wait)  # everyone backs off, not only this call
            await self._sleep(wait)

    async def _attempt(
        self, request: JudgeRequest, context: CallContext, estimate: int
    ) -> JudgeResponse | ProviderError:
        """One attempt: the judge's reply (accounted), or the error it failed with."""
        limiter, ledger = context.limiter, context.ledger
        ticket = await limiter.acquire(estimate) if limiter is not None else None
        self.loop_guard.arm()
        self.stats.attempts += 1
        if ledger is not None:
            ledger.attempts += 1
        try:
            response = _received(
                await within(self.judge.complete(request), self.policy.timeout), request
            )
        except asyncio.TimeoutError:
            return TransientProviderError(f"no reply within {self.policy.timeout:g} s")
        except ProviderError as exc:
            error = redact_error(exc)
            if isinstance(error, TruncatedResponseError):  # a cut reply was paid for
                self._account(error.usage or Usage(), estimate, context, ticket)
            return error
        self._contact.seen(None)
        self._account(response.usage, estimate, context, ticket)
        return response

    def _account(
        self,
        usage: Usage,
        estimate: int,
        context: CallContext,
        ticket: Ticket | None = None,
    ) -> None:
        ledger, limiter = context.ledger, context.limiter
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
            limiter.settle(spent - estimate if spent else 0, ticket)


def settle_all(callers: Iterable[JudgeCaller]) -> None:
    """`settle` each distinct caller (a panel's members, the evaluator's own) once."""
    for caller in {id(c): c for c in callers}.values():
        caller.settle()


def _received(response: JudgeResponse, request: JudgeRequest) -> JudgeResponse:
    """A reply as it may enter our code: keys removed, and a cut reply raised as such.

    The one place a cut reply becomes `TruncatedResponseError`, for every backend (an
    adapter, a plugin, the scripted and offline judges, a batch's collected replies).
    """
    if response.finish_reason in ("length", "max_tokens"):  # any backend, same handling
        raise TruncatedResponseError(
            f"reply truncated at the token limit ({request.max_tokens}); "
            "raise max_tokens or shorten the prompt",
            usage=response.usage,
        )
    return redact_response(response)
