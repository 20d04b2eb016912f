"""Nine kinds of fault at 20% through a real server: every row once, nearly all of them ok."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from sumjudge import RetryPolicy, SummarizationEvaluator, SummaryData
from sumjudge.runner import RunSummary
from sumjudge.testing.openai_server import FAULTS, FakeOpenAIServer

SOURCE = (
    "Rina opened the meeting. The team agreed to ship the release on Friday after the "
    "final QA pass. Budi will update the changelog and Sari will notify the customers. "
)
ROWS = 80


async def test_nine_fault_kinds_at_twenty_percent(tmp_path: Path) -> None:
    assert len(FAULTS) == 9
    items = [
        SummaryData(input=SOURCE + f"Row {i}.", summary=f"Ship Friday; row {i}.", id=f"r{i}")
        for i in range(ROWS)
    ]
    policy = RetryPolicy(
        max_attempts=5, initial_delay=0, max_delay=0, max_retry_after=0, jitter=False, timeout=0.5
    )
    async with FakeOpenAIServer(
        error_rate=0.2, faults=FAULTS, seed=11, timeout_sleep=1.0, retry_after=0.0
    ) as srv:
        ev = SummarizationEvaluator(
            "openai/fake-model", base_url=srv.base_url, retry_policy=policy, cache=tmp_path
        )
        summary = RunSummary()
        records = [r async for r in ev.evaluate_batch(items, concurrency=16, summary=summary)]
        await ev.aclose()
        bodies = [r["body"] for r in srv.requests]
    assert sorted(r.index for r in records) == list(range(ROWS))  # every row exactly once
    statuses = Counter(r.status for r in records)
    assert statuses["ok"] >= 0.95 * ROWS, statuses
    for r in records:
        if r.status != "ok":
            assert r.failures and all(f["reason"] for f in r.failures)
    # truncated replies were asked again with more room, and prose was repaired (twice)
    assert any("length limit" in str(b["messages"][-1]["content"]) for b in bodies)
    assert any(b["messages"][-2]["role"] == "assistant" for b in bodies)
