"""JudgeCaller retries, cache use and accounting; run_items stop; rate limiter; prices."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from sumjudge.cache import ResponseCache
from sumjudge.cost import CostEstimate, ModelTable, Price, estimate_tokens
from sumjudge.errors import (
    AuthError,
    RateLimitError,
    TransientProviderError,
)
from sumjudge.judges import JudgeRequest, JudgeResponse, Message, ScriptedJudge, Usage
from sumjudge.ratelimit import RateLimiter
from sumjudge.runner import CallContext, ItemLedger, JudgeCaller, RetryPolicy, run_items

REQ = JudgeRequest(messages=(Message.of("user", "x" * 400),), task="coherence@1")
OK = JudgeResponse(text="{}", usage=Usage(prompt_tokens=100, completion_tokens=10))


class Sleeps:
    def __init__(self) -> None:
        self.calls: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


async def test_retry_after_honoured_and_backoff_capped() -> None:
    sleeps = Sleeps()
    judge = ScriptedJudge(
        [RateLimitError("slow down", retry_after=7.0), TransientProviderError("500"), OK]
    )
    policy = RetryPolicy(initial_delay=0.5, max_delay=8.0, jitter=False)
    caller = JudgeCaller(judge, policy, sleep=sleeps)
    assert await caller.call(REQ) == OK
    assert sleeps.calls == [7.0, 1.0]  # Retry-After, then 0.5 * 2**1
    assert (caller.stats.attempts, caller.stats.retries) == (3, 2)


async def test_retry_after_clipped_and_jitter_bounds() -> None:
    import random

    policy = RetryPolicy(max_retry_after=10.0)
    rng = random.Random(0)
    assert policy.delay(1, RateLimitError("x", retry_after=3600), rng) == 10.0
    for attempt in range(1, 8):
        d = policy.delay(attempt, TransientProviderError("x"), rng)
        base = min(8.0, 0.5 * 2 ** (attempt - 1))
        assert base * 0.5 <= d <= base


async def test_attempt_cap_and_non_retryable() -> None:
    judge = ScriptedJudge([TransientProviderError("boom")] * 3)
    caller = JudgeCaller(judge, RetryPolicy(max_attempts=3), sleep=Sleeps())
    with pytest.raises(TransientProviderError) as info:
        await caller.call(REQ)
    assert info.value.attempts == 3  # type: ignore[attr-defined]
    judge = ScriptedJudge([AuthError("bad key")])
    caller = JudgeCaller(judge, RetryPolicy(), sleep=Sleeps())
    with pytest.raises(AuthError) as auth:
        await caller.call(REQ)
    assert auth.value.attempts == 1  # type: ignore[attr-defined]


async def test_per_call_timeout_is_retryable() -> None:
    class Slow:
        name = "slow/judge"
        calls = 0

        async def complete(self, request: JudgeRequest) -> JudgeResponse:
            self.calls += 1
            if self.calls == 1:
                await asyncio.sleep(10)
            return OK

        async def aclose(self) -> None:
            return None

    caller = JudgeCaller(Slow(), RetryPolicy(timeout=0.05), sleep=Sleeps())
    assert await caller.call(REQ) == OK
    assert caller.stats.retries == 1


async def test_cache_hit_makes_no_call_and_costs_nothing(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    judge = ScriptedJudge([OK])
    price = Price(input=1.0, cached_input=0.1, output=4.0)
    caller = JudgeCaller(judge, cache=cache, price=price)
    await caller.call(REQ)
    assert caller.stats.cost_usd == pytest.approx((100 * 1.0 + 10 * 4.0) / 1e6)
    again = JudgeCaller(judge, cache=cache, price=price)
    assert await again.call(REQ) == OK  # the script is empty: a call would raise
    assert (again.stats.attempts, again.stats.cache_hits, again.stats.cost_usd) == (0, 1, 0.0)


async def test_run_items_window_bounds_how_far_ahead_of_a_slow_item_it_starts() -> None:
    started: list[int] = []
    finished: list[int] = []

    async def work(i: int, _: None) -> int:
        started.append(i)
        if i == 0:
            await asyncio.sleep(0.05)  # the slow item
        else:
            await asyncio.sleep(0)
        finished.append(i)
        return i

    got = [i async for i, _ in run_items((None for _ in range(40)), work, concurrency=3, window=6)]
    assert sorted(got) == list(range(40))
    # While item 0 was in flight, nothing 6 or more positions after it was started.
    before_slow = started[: started.index(6)] if 6 in started else started
    assert max(before_slow) <= 5 and finished.index(0) < started.index(6)
    # Without a window, every later item starts (and finishes) while item 0 is slow.
    events: list[str] = []

    async def work2(i: int, _: None) -> int:
        events.append(f"start {i}")
        await asyncio.sleep(0.05 if i == 0 else 0)
        events.append(f"end {i}")
        return i

    _ = [x async for x in run_items((None for _ in range(40)), work2, concurrency=3)]
    assert events.index("start 39") < events.index("end 0")
    with pytest.raises(ValueError, match="window"):
        _ = [x async for x in run_items([1], work2, concurrency=3, window=2)]


async def test_run_items_ledgers_stop_and_on_stop() -> None:
    judge = ScriptedJudge(responder=lambda r: {"score": 1})
    caller = JudgeCaller(judge, price=Price(1.0, 1.0))

    async def work(i: int, item: int) -> tuple[int, int]:
        ledger = ItemLedger()  # each item's own, passed to its calls and returned
        for _ in range(item):
            request = JudgeRequest(messages=(Message.of("user", f"{i}-{_}"),), task="t")
            await caller.call(request, CallContext(ledger=ledger))
        return ledger.attempts, item

    out = [r async for r in run_items([1, 2, 3], work, concurrency=3)]
    assert sorted(r for _, r in out) == [(1, 1), (2, 2), (3, 3)]

    started: list[int] = []

    async def count(i: int, item: int) -> str:
        started.append(i)
        return "done"

    stops = iter([None, None, "budget"])
    res = [
        r
        async for r in run_items(
            range(6),
            count,
            concurrency=1,
            stop=lambda: next(stops, "budget"),
            on_stop=lambda i, item, why: f"not run: {why}",
        )
    ]
    assert started == [0, 1]
    assert [i for i, _ in res] == [0, 1, 2, 3, 4, 5]
    assert res[2][1] == "not run: budget"


async def test_rate_limiter_paces_requests_and_tokens() -> None:
    now = [0.0]
    waited: list[float] = []

    async def sleep(s: float) -> None:
        waited.append(s)
        now[0] += s

    limiter = RateLimiter(
        requests_per_minute=60,
        tokens_per_minute=6000,
        burst_seconds=1,
        clock=lambda: now[0],
        sleep=sleep,
    )
    for _ in range(5):
        await limiter.acquire(tokens=10)
    assert now[0] == pytest.approx(4.0)  # 1 request/s after a burst of 1
    limiter.settle(200)  # the real usage was larger: the token bucket goes negative
    await limiter.acquire(tokens=10)
    # tokens: 100 in the bucket less 50 taken, settle(200) -> -110; 10 more need 1.2 s
    assert now[0] == pytest.approx(4.0 + 1.2)
    limiter.pause(30)
    await limiter.acquire()
    assert now[0] == pytest.approx(5.2 + 30)


def test_prices_table_and_overrides(tmp_path: Path) -> None:
    table = ModelTable()
    assert table.price("openai/gpt-4o-mini-2024-07-18") == table.price("openai/gpt-4o-mini")
    assert table.price("gemini/gemini-2.5-flash") == table.price("google/gemini-2.5-flash")
    assert table.price("openai/unknown-model") is None
    f = tmp_path / "p.json"
    f.write_text('{"openai/gpt-4o-mini": {"input": 9}, "acme/x": {"input": 1, "output": 2}}')
    t2 = ModelTable(f)
    p = t2.price("openai/gpt-4o-mini")
    assert p is not None and p.input == 9 and p.output == 0.60
    assert t2.price("acme/x") == Price(input=1, output=2)
    usage = Usage(prompt_tokens=1000, completion_tokens=100, cached_prompt_tokens=600)
    price = Price(input=1.0, cached_input=0.1, output=4.0)
    assert price.cost(usage) == pytest.approx((400 * 1.0 + 600 * 0.1 + 100 * 4.0) / 1e6)
    assert Price.parse("0.15,0.075,0.6") == Price(0.15, 0.6, 0.075)


def test_cost_estimate_counts_shared_prefix() -> None:
    prefix = "s" * 8000
    reqs = [
        JudgeRequest(messages=(Message("user", (prefix, f"metric {i}")),), task=f"m{i}@1")
        for i in range(4)
    ]
    est = CostEstimate(price=Price(1.0, 4.0, 0.1))
    est.add_item(reqs, [False, False, False, True])
    d: dict[str, Any] = est.to_dict()
    assert d["requests"] == 4 and d["answered_from_response_cache"] == 1
    assert d["estimated_prompt_tokens"] == 3 * estimate_tokens(prefix + "metric 0")
    assert d["estimated_cacheable_prompt_tokens"] == 2 * estimate_tokens(prefix + "metric ")
    assert d["estimated_cost_usd_with_prompt_caching"] < d["estimated_cost_usd"]


async def test_duplicate_requests_in_flight_make_one_call(tmp_path: Path) -> None:
    judge = ScriptedJudge([OK], delay=0.01)  # a second call would exhaust the script
    caller = JudgeCaller(judge, cache=ResponseCache(tmp_path))
    results = await asyncio.gather(*(caller.call(REQ) for _ in range(5)))
    assert all(r == OK for r in results)
    assert (caller.stats.attempts, caller.stats.cache_hits) == (1, 4)


async def test_duplicate_in_flight_shares_the_failure(tmp_path: Path) -> None:
    judge = ScriptedJudge([AuthError("bad key")], delay=0.01)
    caller = JudgeCaller(judge, cache=ResponseCache(tmp_path), sleep=Sleeps())
    results = await asyncio.gather(*(caller.call(REQ) for _ in range(3)), return_exceptions=True)
    assert all(isinstance(r, AuthError) for r in results) and caller.stats.attempts == 1


@pytest.mark.parametrize(
    "parts",
    [
        [],
        [("",)],
        [("",), ("",)],
        [("abc",)],
        [("sys",), ("a" * 9, "b" * 7)],
        [("x" * 13,), ("",), ("y", "z" * 40, "")],
    ],
)
def test_prompt_tokens_are_counted_as_on_the_joined_text(parts: list[tuple[str, ...]]) -> None:
    from sumjudge.tokens import estimate_prompt_tokens

    request = JudgeRequest(messages=tuple(Message("user", p) for p in parts), task="t@1")
    assert estimate_prompt_tokens(request) == estimate_tokens(request.prompt_text())


def test_call_stats_since_covers_every_counter() -> None:
    """`since` is spelled out field by field: a counter it forgot would read 0 here."""
    from dataclasses import fields

    from sumjudge.accounting import CallStats

    values: dict[str, Any] = {}
    for i, f in enumerate(fields(CallStats), 2):
        values[f.name] = Usage(i, i + 1, i + 2, i + 3) if f.name == "usage" else i
    stats = CallStats(**values)
    assert stats.since(CallStats()) == stats
    assert stats.since(stats) == CallStats(usage=Usage())
