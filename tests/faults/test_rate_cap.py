"""`--rpm N` means at most N requests in any 60-second window, with no burst above 2 s' share."""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from sumjudge.protocol import JudgeRequest, Message
from sumjudge.ratelimit import RateLimiter
from sumjudge.runner import JudgeCaller, RetryPolicy
from sumjudge.testing.openai_server import FakeOpenAIServer, Reply


def busiest(times: Sequence[float], window: float) -> int:
    """The most events in any window of `window` seconds (closed at the start)."""
    times = sorted(times)
    return max((bisect.bisect_left(times, t + window) - i for i, t in enumerate(times)), default=0)


class VirtualTime:
    """A clock that only moves when someone sleeps: minutes pass in milliseconds."""

    def __init__(self) -> None:
        self.now = 1000.0

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += max(seconds, 1e-6)


async def test_requests_per_minute_hold_over_any_window() -> None:
    vt = VirtualTime()
    limiter = RateLimiter(requests_per_minute=120, clock=vt.clock, sleep=vt.sleep)
    sent = []
    for _ in range(400):
        await limiter.acquire()
        sent.append(vt.now)
        vt.now += 0.001  # each request takes a moment to send
    assert busiest(sent, 60.0) <= 120
    assert busiest(sent, 1.0) <= 6  # the bucket's 2 s of budget, plus one second's share
    # and the cap is used, not merely respected: 400 requests in about 200 s
    assert sent[-1] - sent[0] < 205


async def test_the_old_bucket_bug_is_gone_after_an_idle_pause() -> None:
    """A pause refills the bucket; the window still counts the minute before it."""
    vt = VirtualTime()
    limiter = RateLimiter(requests_per_minute=60, clock=vt.clock, sleep=vt.sleep)
    sent = []
    for i in range(200):
        if i == 50:
            vt.now += 30  # idle: a bucket alone would now allow a fresh burst on top
        await limiter.acquire()
        sent.append(vt.now)
    assert busiest(sent, 60.0) <= 60


async def test_tokens_per_minute_count_the_real_tokens() -> None:
    vt = VirtualTime()
    limiter = RateLimiter(tokens_per_minute=10_000, clock=vt.clock, sleep=vt.sleep)
    spent: list[tuple[float, int]] = []
    for _ in range(100):
        ticket = await limiter.acquire(tokens=500)  # the estimate
        limiter.settle(+300, ticket)  # the reply says 800 were used
        spent.append((vt.now, 800))
    for start, _ in spent:
        assert sum(n for t, n in spent if start <= t < start + 60) <= 10_000


async def test_server_never_sees_more_than_the_cap_in_a_window() -> None:
    """Scaled down: 15 requests per 3-second window, 45 requests through a real server."""
    limiter = RateLimiter(
        requests_per_minute=15, window_seconds=3.0, burst_seconds=0.3, slack_seconds=0.5
    )
    request = JudgeRequest(messages=(Message.of("user", "Score this."),), task="t@1")
    async with FakeOpenAIServer() as srv:
        srv.responder = lambda body: Reply.json({"explanation": "ok", "score": 2})
        from sumjudge.judges.openai import OpenAIJudge

        judge = OpenAIJudge("fake-model", base_url=srv.base_url)
        caller = JudgeCaller(judge, RetryPolicy(jitter=False), limiter=limiter)
        import asyncio

        await asyncio.gather(*(caller.call(request) for _ in range(45)))
        await judge.aclose()
        arrivals = [r["at"] for r in srv.requests]
    assert len(arrivals) == 45
    assert busiest(arrivals, 3.0) <= 15
    assert max(arrivals) - min(arrivals) >= 6.0  # three windows' worth took two windows
