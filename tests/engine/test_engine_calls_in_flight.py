"""`calls_in_flight`: judge calls in flight bounded across items, not per item."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sumjudge import ConfigError, RetryPolicy, SummarizationEvaluator, SummaryData
from sumjudge.errors import TransientProviderError
from sumjudge.protocol import LLM_CAPABILITIES, JudgeRequest, JudgeResponse
from sumjudge.testing.openai_server import FakeOpenAIServer, Reply

NO_WAIT = RetryPolicy(initial_delay=0, max_delay=0, max_retry_after=0, jitter=False)
VERDICT = '{"explanation": "Fine.", "score": 3}'


class CountingJudge:
    """Answers every request after `delay` seconds and keeps the peak of calls in flight.

    `slow` tasks (by prefix) take `slow_delay` instead; `fail_first` makes the first
    attempt of every request fail with a retryable error.
    """

    capabilities = LLM_CAPABILITIES

    def __init__(self, name: str = "counting/judge", *, delay: float = 0.01, **kw: Any) -> None:
        self.name = self.identity = name
        self.delay = delay
        self.slow: str | None = kw.get("slow")
        self.slow_delay: float = kw.get("slow_delay", delay)
        self.fail_first: bool = kw.get("fail_first", False)
        self.now = self.peak = self.calls = self.slow_now = self.slow_peak = 0
        self.seen: set[str] = set()

    async def complete(self, request: JudgeRequest) -> JudgeResponse:
        self.now += 1
        self.calls += 1
        self.peak = max(self.peak, self.now)
        try:
            slow = self.slow is not None and request.task.startswith(self.slow)
            self.slow_now += slow
            self.slow_peak = max(self.slow_peak, self.slow_now)
            await asyncio.sleep(self.slow_delay if slow else self.delay)
            self.slow_now -= slow
            key = request.prompt_text()
            if self.fail_first and key not in self.seen:
                self.seen.add(key)
                raise TransientProviderError("busy, try again")
            return JudgeResponse(text=VERDICT)
        finally:
            self.now -= 1

    async def aclose(self) -> None:
        return None


def items(n: int) -> list[SummaryData]:
    return [SummaryData(input=f"Rina ships on day {i}.", summary=f"Day {i}.") for i in range(n)]


async def run(judge: Any, n: int = 12, **kw: Any) -> list[Any]:
    ev = SummarizationEvaluator(judge, retry_policy=NO_WAIT, warm_prefix_tokens=None)
    return [r async for r in ev.evaluate_batch(items(n), **kw)]


async def test_calls_in_flight_bounds_calls_across_items() -> None:
    judge = CountingJudge()
    records = await run(judge, concurrency=8, calls_in_flight=5)
    assert [r.status for r in records] == ["ok"] * 12
    assert judge.peak == 5  # 8 items x 4 metrics would send 32 at once
    unbounded = CountingJudge()
    await run(unbounded, concurrency=8)
    assert unbounded.peak >= 28  # (the very first call goes alone: firstcontact)


async def test_a_slot_is_not_held_through_a_back_off() -> None:
    judge = CountingJudge(fail_first=True)
    records = await run(judge, n=4, concurrency=4, calls_in_flight=3)
    assert [r.status for r in records] == ["ok"] * 4
    assert judge.calls == 32 and judge.peak == 3  # every request failed once, then passed


async def test_items_waiting_on_a_slow_call_leave_their_slots_to_the_next_items() -> None:
    # One metric of each item is 50x slower than the others. Counting items (2 at once,
    # 8 calls), an item holds its 4 slots until its slow call is back: at most 2 slow calls
    # are ever out. Counting calls (8 at once), the fast calls' slots go to later items,
    # and all 8 items' slow calls end up out together.
    by_items = CountingJudge(delay=0.001, slow="fluency", slow_delay=0.05)
    await run(by_items, n=8, concurrency=2)
    assert by_items.peak <= 8 and by_items.slow_peak == 2
    by_calls = CountingJudge(delay=0.001, slow="fluency", slow_delay=0.05)
    await run(by_calls, n=8, concurrency=8, calls_in_flight=8)
    assert by_calls.peak <= 8 and by_calls.slow_peak == 8


async def test_a_panel_member_keeps_its_own_bound() -> None:
    a, b = CountingJudge("counting/a"), CountingJudge("counting/b")
    ev = SummarizationEvaluator([a, b], retry_policy=NO_WAIT, warm_prefix_tokens=None)
    records = [r async for r in ev.evaluate_batch(items(6), concurrency=6, calls_in_flight=4)]
    assert [r.status for r in records] == ["ok"] * 6
    assert (a.peak, b.peak) == (4, 4)


@pytest.mark.parametrize("bad", [0, -1])
def test_a_bound_below_one_is_refused(bad: int) -> None:
    ev = SummarizationEvaluator(CountingJudge(), retry_policy=NO_WAIT)
    with pytest.raises(ConfigError, match="calls_in_flight must be at least 1"):
        ev.evaluate_batch(items(1), calls_in_flight=bad)


def cli(args: list[str], tmp: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env["SUMJUDGE_CACHE_DIR"] = str(tmp / "cache")
    cmd = [sys.executable, "-m", "sumjudge.cli.main", "evaluate", *args]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)


def test_the_cli_flag_bounds_the_calls_a_server_sees(tmp_path: Path) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    rows = (json.dumps(item.model_dump(exclude_none=True)) for item in items(10))
    src.write_text("".join(row + "\n" for row in rows))
    seen = {"now": 0, "peak": 0}

    async def answer(body: dict[str, Any]) -> Reply:
        seen["now"] += 1
        seen["peak"] = max(seen["peak"], seen["now"])
        await asyncio.sleep(0.02)
        seen["now"] -= 1
        return Reply.json({"explanation": "Fine.", "score": 3})

    with FakeOpenAIServer(record_requests=False) as srv:
        srv.responder = answer
        flags = ["--model", "openai/fake-model", "--base-url", srv.base_url, "--no-progress"]
        done = cli(
            [str(src), *flags, "--concurrency", "8", "--calls-in-flight", "3", "-o", str(out)],
            tmp_path,
        )
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["status"] for line in out.read_text().splitlines()] == ["ok"] * 10
    assert seen["peak"] == 3

    refused = cli([str(src), *flags, "--calls-in-flight", "0"], tmp_path)
    assert refused.returncode == 2
    assert "--calls-in-flight" in refused.stderr and "Traceback" not in refused.stderr
