"""`batch_api=True` through the openai SDK against the fake server's Files and Batch routes."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from sumjudge import RetryPolicy, SummarizationEvaluator, SummaryData
from sumjudge.batch import BatchOptions
from sumjudge.batch.manifest import JobStore
from sumjudge.batch.openai import OpenAIBatches
from sumjudge.cost import Price
from sumjudge.runner import RunSummary
from sumjudge.testing import FakeOpenAIServer, Reply

NO_WAIT = RetryPolicy(initial_delay=0, max_delay=0, max_retry_after=0, jitter=False)
PRICE = Price(input=1.0, output=2.0)
ITEMS = [
    SummaryData(
        input=f"Rina ships parcel {i} on Friday; Budi tests the scanner on Monday.",
        summary=f"Parcel {i} ships Friday.",
        id=f"row{i}",
    )
    for i in range(3)
]


def evaluator(
    srv: FakeOpenAIServer, tmp: Path, cache: str, *, batch: bool = True, **options: Any
) -> SummarizationEvaluator:
    batch_api: Any = False
    if batch:
        batch_api = BatchOptions(poll_interval=0.02, jobs_dir=tmp / "jobs", **options)
    return SummarizationEvaluator(
        "openai/fake-model",
        base_url=srv.base_url,
        retry_policy=NO_WAIT,
        cache=tmp / cache,
        price=PRICE,
        batch_api=batch_api,
    )


async def run(ev: SummarizationEvaluator, **kwargs: Any) -> list[dict[str, Any]]:
    summary = RunSummary()
    records = [r.to_dict() async for r in ev.evaluate_batch(ITEMS, summary=summary, **kwargs)]
    await ev.aclose()
    return sorted(records, key=lambda r: r["index"])


def without_spend(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = json.loads(json.dumps(records))
    for r in out:  # what was spent differs (price, provider prompt-cache hits); nothing else
        r["meta"].pop("run")
        r["meta"].pop("usage", None)
    return out


def batches_created(srv: FakeOpenAIServer) -> int:
    return srv.batches.created


async def test_output_identical_to_an_online_run_at_half_the_price(
    server: FakeOpenAIServer, tmp_path: Path
) -> None:
    batch_ev = evaluator(server, tmp_path, "batch-cache")
    batch = await run(batch_ev)
    report = batch_ev.last_batch
    assert report is not None and (report.rounds, report.batches, report.submitted) == (1, 1, 12)
    online = await run(evaluator(server, tmp_path, "online-cache", batch=False))
    assert without_spend(batch) == without_spend(online)
    for b, o in zip(batch, online, strict=True):
        assert b["meta"]["run"]["judge_calls"] == o["meta"]["run"]["judge_calls"] == 4
        assert b["meta"]["run"]["cost_usd"] == pytest.approx(o["meta"]["run"]["cost_usd"] / 2)
    # every reply went into the response cache: a rerun submits nothing and costs nothing
    again = evaluator(server, tmp_path, "batch-cache")
    rerun = await run(again)
    assert batches_created(server) == 1
    assert again.last_batch is not None and again.last_batch.job_id is None
    assert without_spend(rerun) == without_spend(batch)
    assert all(r["meta"]["run"]["cache_hits"] == 4 for r in rerun)


async def test_unreadable_reply_is_repaired_in_a_second_round(
    server: FakeOpenAIServer, tmp_path: Path
) -> None:
    server.enqueue(Reply.text("I would rather not answer in JSON."))
    ev = evaluator(server, tmp_path, "c")
    records = await run(ev)
    assert ev.last_batch is not None
    assert (ev.last_batch.rounds, ev.last_batch.batches, ev.last_batch.submitted) == (2, 2, 13)
    assert all(r["status"] == "ok" for r in records)
    second = next(j for j in server.batches.jobs.values() if len(j.requests) == 1)
    ((_, body),) = second.requests
    assert "could not be used" in body["messages"][-1]["content"]
    # the online run asks the same two requests for that item: five calls on the first item
    assert sum(r["meta"]["run"]["judge_calls"] for r in records) == 13


async def test_a_failed_request_is_sent_again_and_a_rejected_one_fails(
    server: FakeOpenAIServer, tmp_path: Path
) -> None:
    server.enqueue(Reply.error(500, "overloaded"), Reply.error(400, "bad request body"))
    ev = evaluator(server, tmp_path, "c")
    records = await run(ev)
    assert ev.last_batch is not None and ev.last_batch.rounds == 2
    second = [j for j in server.batches.jobs.values() if len(j.requests) == 1]
    assert len(second) == 1  # only the 500 was sent again; the 400 is final
    failed = [f for r in records for f in r.get("failures", [])]
    assert len(failed) == 1 and "HTTP 400" in failed[0]["reason"]
    assert sum(r["status"] == "ok" for r in records) == 2


async def test_an_expired_batch_has_its_unfinished_requests_resubmitted(
    server: FakeOpenAIServer, tmp_path: Path
) -> None:
    server.batches.expire_next, server.batches.expire_after = 1, 5
    ev = evaluator(server, tmp_path, "c")
    records = await run(ev)
    sizes = [len(j.requests) for j in server.batches.jobs.values()]
    assert sizes == [12, 7]
    assert [j.status for j in server.batches.jobs.values()] == ["expired", "completed"]
    assert all(r["status"] == "ok" for r in records)


async def test_a_run_over_the_per_batch_limit_is_split(
    server: FakeOpenAIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(OpenAIBatches, "max_requests", 5)
    ev = evaluator(server, tmp_path, "c")
    records = await run(ev)
    assert [len(j.requests) for j in server.batches.jobs.values()] == [5, 5, 2]
    assert all(r["status"] == "ok" for r in records)


async def test_no_wait_then_rerun_collects_without_submitting_again(
    server: FakeOpenAIServer, tmp_path: Path
) -> None:
    server.batches.delay = 3  # still running when the first run checks, even on a busy machine
    first = evaluator(server, tmp_path, "c", wait=False)
    assert await run(first) == []
    assert first.last_batch is not None and first.last_batch.waiting
    (job,) = JobStore(tmp_path / "jobs").jobs()
    assert job.state == "running" and len(job.batches) == 1
    second = evaluator(server, tmp_path, "c")
    records = await run(second)
    assert batches_created(server) == 1
    assert second.last_batch is not None and second.last_batch.submitted == 0
    assert all(r["status"] == "ok" for r in records)
    (job,) = JobStore(tmp_path / "jobs").jobs()
    assert job.state == "done"


async def test_kill_between_create_and_manifest_update_is_found_by_tag(
    server: FakeOpenAIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_submit = OpenAIBatches.submit

    async def submit_then_die(self: OpenAIBatches, entries: Any, tag: Any) -> str:
        await real_submit(self, entries, tag)
        raise asyncio.CancelledError  # the process dies before it writes the batch id

    monkeypatch.setattr(OpenAIBatches, "submit", submit_then_die)
    with pytest.raises(asyncio.CancelledError):
        await run(evaluator(server, tmp_path, "c"))
    (job,) = JobStore(tmp_path / "jobs").jobs()
    assert job.batches[0].state == "submitting" and job.batches[0].batch_id is None
    monkeypatch.setattr(OpenAIBatches, "submit", real_submit)
    ev = evaluator(server, tmp_path, "c")
    records = await run(ev)
    assert batches_created(server) == 1  # found by its tag, not submitted again
    assert all(r["status"] == "ok" for r in records)


async def test_max_cost_is_checked_before_a_round_is_submitted(
    server: FakeOpenAIServer, tmp_path: Path
) -> None:
    ev = evaluator(server, tmp_path, "c")
    summary = RunSummary()
    records = [r async for r in ev.evaluate_batch(ITEMS, summary=summary, max_cost=0.0001)]
    await ev.aclose()
    assert batches_created(server) == 0
    assert all(r.status == "not_run" for r in records)  # as online: run them later
    assert summary.not_run == len(ITEMS) and summary.failed == 0
    assert summary.stopped is not None and "max cost" in summary.stopped
    assert records[0].failure is not None and "max cost" in records[0].failure["reason"]


async def test_max_cost_before_a_later_round_leaves_those_items_not_run(
    server: FakeOpenAIServer, tmp_path: Path
) -> None:
    # Round 1 (4 metrics x 3 items, its estimate) fits the budget; an unreadable reply asks a repair
    # in round 2, which would pass it: that item is not run, the others are ok.
    server.enqueue(Reply.text("not json at all"))
    ev = evaluator(server, tmp_path, "c")
    summary = RunSummary()
    first = ev.estimate_cost(ITEMS).cost(prompt_caching=False)
    assert first is not None
    records = [r async for r in ev.evaluate_batch(ITEMS, summary=summary, max_cost=first)]
    await ev.aclose()
    assert batches_created(server) == 1
    assert sorted(r.status for r in records) == ["not_run", "ok", "ok"]
    assert summary.stopped is not None and "batch round 2" in summary.stopped
    # the replies round 1 gave are in the cache: a rerun with the budget sends only the rest
    again = evaluator(server, tmp_path, "c")
    assert all(r["status"] == "ok" for r in await run(again))
    assert batches_created(server) == 2
    assert server.stats()["paths"]["/batch"]["requests"] == 13


def test_dry_run_uses_the_batch_price(tmp_path: Path) -> None:
    with FakeOpenAIServer() as srv:
        online = evaluator(srv, tmp_path, "c", batch=False).estimate_cost(ITEMS)
        batch = evaluator(srv, tmp_path, "c").estimate_cost(ITEMS)
    high, low = online.cost(prompt_caching=False), batch.cost(prompt_caching=False)
    assert high is not None and low is not None and low == pytest.approx(high / 2)


def test_the_model_table_can_set_its_own_batch_price() -> None:
    from sumjudge.cost import ModelTable

    table = ModelTable({"openai/gpt-4o-mini": {"batch_input": 0.1, "batch_output": 0.3}})
    price = table.batch_price("openai/gpt-4o-mini")
    assert price is not None and (price.input, price.output) == (0.1, 0.3)
    assert price.cached_input == pytest.approx(0.075 / 2)
    half = ModelTable().batch_price("openai/gpt-4o")
    assert half is not None and (half.input, half.output) == (1.25, 5.0)


async def test_a_stale_cached_reply_is_asked_again_and_replaced(
    server: FakeOpenAIServer, tmp_path: Path
) -> None:
    from sumjudge.cache import ResponseCache
    from sumjudge.protocol import JudgeResponse

    ev = evaluator(server, tmp_path, "c")
    first = ev.plan_requests(ITEMS[0])[0]
    assert ev.cache is not None
    key = ResponseCache.key(ev.judge.identity, first)
    ev.cache.put(key, JudgeResponse(text="not a verdict"), identity="x", task=first.task)
    records = await run(ev)
    assert ev.last_batch is not None and ev.last_batch.submitted == 12  # asked again
    assert all(r["status"] == "ok" for r in records)
    cache = ResponseCache(tmp_path / "c")
    stored = cache.get(key)
    cache.close()
    assert stored is not None and stored.text != "not a verdict"


def test_job_ids_are_checked_before_any_file_is_touched(tmp_path: Path) -> None:
    from sumjudge.errors import ConfigError

    store = JobStore(tmp_path)
    with pytest.raises(ConfigError, match="not a job id"):
        store.load("../../etc/passwd")
    assert store.load("job-0123abcd") is None


async def test_reruns_after_an_expiry_never_send_an_answered_request_again(
    server: FakeOpenAIServer, tmp_path: Path
) -> None:
    server.batches.expire_next, server.batches.expire_after = 1, 5
    server.batches.delay = 2  # still running when the first run checks
    first = evaluator(server, tmp_path, "c", wait=False)
    assert await run(first) == []  # round 1 submitted; the process "ends"
    for _ in range(600):  # the job is held 2 s, then expires after 5 requests
        if all(j.ended is not None for j in server.batches.jobs.values()):
            break
        await asyncio.sleep(0.05)
    assert [j.status for j in server.batches.jobs.values()] == ["expired"]
    second = evaluator(server, tmp_path, "c", wait=False)
    assert await run(second) == []  # reads the expired batch, sends only what it never ran
    third = evaluator(server, tmp_path, "c")
    records = await run(third)
    assert [len(j.requests) for j in server.batches.jobs.values()] == [12, 7]
    assert all(r["status"] == "ok" for r in records)


def test_google_batch_jobs_bill_cached_tokens_at_the_cache_rate() -> None:
    # Google's batch and cache discounts do not stack: the cache rate, not half of it.
    from sumjudge.cost import ModelTable

    table = ModelTable()
    online = table.price("google/gemini-2.5-flash")
    batch = table.batch_price("google/gemini-2.5-flash")
    assert online is not None and batch is not None
    assert batch.cached_input == online.cached_input and batch.input == online.input / 2
    anthropic = table.batch_price("anthropic/claude-haiku-4-5")
    assert anthropic is not None and anthropic.cached_input == 0.05  # stacked: half of 0.10
