"""Fault injection through the local OpenAI-compatible server: nothing lost, nothing doubled."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from sumjudge import RetryPolicy, SummarizationEvaluator, SummaryData
from sumjudge.runner import RunSummary
from sumjudge.testing.openai_server import FAULTS, FakeOpenAIServer, Reply

SOURCE = (
    "Rina opened the meeting. The team agreed to ship the release on Friday after the "
    "final QA pass. Budi will update the changelog and Sari will notify the customers. "
) * 3
ITEMS = [
    SummaryData(input=SOURCE, summary=f"Ship Friday; item {i}.", id=f"r{i}") for i in range(60)
]
NO_WAIT = RetryPolicy(
    max_attempts=3, initial_delay=0, max_delay=0, max_retry_after=0, jitter=False, timeout=0.8
)


async def test_every_item_ends_scored_or_failed_with_reason(tmp_path: Path) -> None:
    async with FakeOpenAIServer(
        error_rate=0.2, faults=FAULTS, seed=7, timeout_sleep=2.0, record_requests=False
    ) as srv:
        ev = SummarizationEvaluator(
            "openai/fake-model",
            base_url=srv.base_url,
            retry_policy=NO_WAIT,
            timeout=5.0,
            cache=tmp_path,
        )
        summary = RunSummary()
        records = [r async for r in ev.evaluate_batch(ITEMS, concurrency=16, summary=summary)]
        await ev.aclose()
        requests = srv.stats()["requests"]
    indices = [r.index for r in records]
    assert sorted(indices) == list(range(len(ITEMS)))  # none lost, none duplicated
    statuses = Counter(r.status for r in records)
    assert set(statuses) <= {"ok", "failed"} and statuses["ok"] > 0
    assert summary.items == len(ITEMS) and summary.ok + summary.failed == len(ITEMS)
    # every attempt is counted (a client-side timeout can fire before the server saw it)
    assert summary.retries > 0 and summary.judge_calls >= requests > 0
    for r in records:
        d = json.loads(json.dumps(r.to_dict()))
        assert d["index"] == r.index and d["id"] == f"r{r.index}"
        for metric in d["summary"].values():
            if isinstance(metric, dict) and "score" in metric and metric.get("error") is None:
                assert metric["score"] in (1, 2, 3)  # out-of-range scores never pass
        if r.status == "failed":
            assert d["failures"] and all(f["reason"] and f["attempts"] >= 1 for f in d["failures"])


async def test_each_fault_kind_is_handled() -> None:
    """Each fault kind in turn (scripted, sequential): retried, repaired or recorded."""
    good = Reply.json({"explanation": "fine", "score": 2})
    async with FakeOpenAIServer() as srv:
        srv.enqueue(
            # item 0: three transient faults, then an answer (attempt 4)
            Reply.error(429, headers={"Retry-After": "0"}),
            Reply.reset(),
            Reply.delay(1.0, good),  # longer than the 0.3 s per-call timeout
            good,
            # item 1: a server error
            Reply.error(500),
            good,
            # item 2: prose, then the repair re-ask answers
            Reply.text("I prefer not to give JSON."),
            good,
            # item 3: an out-of-range score, then the repair re-ask answers
            Reply.json({"explanation": "x", "score": 7}),
            good,
            # item 4: truncated at the token limit: asked again with more room, answered
            Reply.truncated('{"explanation": "cut'),
            good,
            # item 5: truncated twice: a failure that says so (the same cut is not re-sent)
            Reply.truncated('{"explanation": "cut'),
            Reply.truncated('{"explanation": "cut again'),
        )
        policy = RetryPolicy(
            max_attempts=6, initial_delay=0, max_delay=0, max_retry_after=0, timeout=0.3
        )
        ev = SummarizationEvaluator(
            "openai/fake-model",
            base_url=srv.base_url,
            retry_policy=policy,
            timeout=5.0,
            enabled_metrics=["coherence"],
            logprobs=False,
        )
        records = [r async for r in ev.evaluate_batch(ITEMS[:6], concurrency=1)]
        await ev.aclose()
        bodies = [r["body"] for r in srv.requests]
    assert [r.status for r in records] == ["ok"] * 5 + ["failed"], [r.to_dict() for r in records]
    assert [r.meta["run"]["judge_calls"] for r in records] == [4, 2, 2, 2, 2, 2]
    cut, roomier = bodies[10], bodies[11]
    limit = next(k for k in ("max_completion_tokens", "max_tokens") if k in cut)
    assert roomier[limit] == 2 * cut[limit]
    assert "brief" in roomier["messages"][-1]["content"]
    assert roomier["messages"][:-1] == cut["messages"][:-1]  # the prompt prefix is kept
    (failure,) = records[5].failures
    assert "Truncated" in failure["reason"] and failure["attempts"] == 1


async def test_hard_failures_are_recorded_not_raised() -> None:
    async with FakeOpenAIServer() as srv:
        srv.enqueue(*[Reply.error(400, "bad request")] * 4)
        ev = SummarizationEvaluator(
            "openai/fake-model",
            base_url=srv.base_url,
            retry_policy=NO_WAIT,
            logprobs=False,
            enabled_metrics=["coherence"],
        )
        (rec,) = [r async for r in ev.evaluate_batch(ITEMS[:1])]
        await ev.aclose()
    d = rec.to_dict()
    assert d["status"] == "failed"
    (f,) = d["failures"]
    assert f["metric"] == "coherence" and "400" in f["reason"] and f["attempts"] == 1
