"""Python API: DataFrames in and out, rate-limit parameters, long sources, warm prefix."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from sumjudge import RetryPolicy, ScriptedJudge, SummarizationEvaluator, SummaryData
from sumjudge.cost import Price
from sumjudge.runner import RunSummary

NO_WAIT = RetryPolicy(initial_delay=0, max_delay=0, max_retry_after=0, jitter=False)


def judge() -> ScriptedJudge:
    return ScriptedJudge(responder=lambda r: {"explanation": "Fine.", "score": 3})


async def test_evaluate_dataframe_keeps_index_and_order() -> None:
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame(
        {"input": ["Rina ships Friday.", "", "Budi tests."], "summary": ["Fri.", "x", "Tests."]},
        index=[10, 20, 30],
    )
    ev = SummarizationEvaluator(judge(), retry_policy=NO_WAIT, enabled_metrics=["coherence"])
    out = await ev.evaluate_dataframe(df, concurrency=3, requests_per_minute=6000)
    assert list(out.index) == [10, 20, 30]
    assert list(out["status"]) == ["ok", "invalid", "ok"]
    assert list(out["coherence_score"])[::2] == [3, 3]
    assert "empty" in out["error"].iloc[1]


async def test_source_larger_than_the_window_fails_clearly_never_truncated() -> None:
    j = judge()
    ev = SummarizationEvaluator(j, retry_policy=NO_WAIT, context_window=2000)
    items = [
        SummaryData(input="word " * 4000, summary="long", id="big"),
        SummaryData(input="short source", summary="short", id="small"),
    ]
    summary = RunSummary()
    records = {r.id: r async for r in ev.evaluate_batch(items, summary=summary)}
    big = records["big"]
    assert big.status == "failed"
    (f,) = big.failures
    assert "2000 tokens" in f["reason"] and "never truncates" in f["reason"]
    assert big.meta["context"]["source_seen_fraction"] == 0.0
    assert records["small"].status == "ok"
    assert all("word word word" not in r.prompt_text() for r in j.requests)
    assert len(j.requests) == 4  # only the small item was sent
    assert (summary.ok, summary.failed) == (1, 1)


async def test_single_evaluate_also_refuses_a_source_that_does_not_fit() -> None:
    j = judge()
    ev = SummarizationEvaluator(j, retry_policy=NO_WAIT, context_window=2000)
    body = (await ev.evaluate(SummaryData(input="word " * 4000, summary="long")))["summary"]
    assert j.requests == []
    assert body["relevancy_rating"] is None
    for m in ("coherence", "consistency", "relevance", "fluency"):
        assert body[m]["score"] is None and "2000 tokens" in body[m]["error"]


async def test_warm_prefix_sends_one_metric_first_for_long_sources() -> None:
    order: list[str] = []

    def respond(request: object) -> dict[str, object]:
        order.append(request.task)  # type: ignore[attr-defined]
        return {"explanation": "Fine.", "score": 3}

    j = ScriptedJudge(responder=respond)
    ev = SummarizationEvaluator(j, retry_policy=NO_WAIT, warm_prefix_tokens=100)
    await ev.evaluate(SummaryData(input="Rina ships on Friday. " * 100, summary="Friday."))
    assert order[0].startswith("coherence") and len(order) == 4


async def test_cache_param_and_cost_tracking(tmp_path: Path) -> None:
    price = Price(input=1.0, cached_input=0.1, output=4.0)
    items = [SummaryData(input=f"Source {i}.", summary="S.") for i in range(3)]
    ev = SummarizationEvaluator(judge(), retry_policy=NO_WAIT, cache=tmp_path, price=price)
    first = RunSummary()
    _ = [r async for r in ev.evaluate_batch(items, summary=first)]
    assert first.judge_calls == 12 and first.cost_usd > 0
    again = SummarizationEvaluator(
        ScriptedJudge(), retry_policy=NO_WAIT, cache=tmp_path, price=price
    )
    second = RunSummary()
    records = [r async for r in again.evaluate_batch(items, summary=second)]
    assert all(r.status == "ok" for r in records)
    assert (second.judge_calls, second.cache_hits, second.cost_usd) == (0, 12, 0.0)


async def test_single_call_mode_one_request_per_item_and_partial_failure() -> None:
    replies = [
        {
            "coherence": {"explanation": "Clear.", "score": 3},
            "consistency": {"explanation": "Faithful.", "score": 3},
            "relevance": {"explanation": "Misses a point.", "score": 2},
            "fluency": {"explanation": "x", "score": 9},  # out of range: this metric fails
        }
    ]
    j = ScriptedJudge(replies)
    ev = SummarizationEvaluator(j, retry_policy=NO_WAIT, single_call=True)
    (rec,) = [r async for r in ev.evaluate_batch([SummaryData(input="Src.", summary="S.")])]
    assert len(j.requests) == 1 and j.requests[0].task.startswith("single_call@")
    body = rec.to_dict()["summary"]
    assert body["relevance"]["score"] == 2 and body["fluency"]["score"] is None
    assert rec.status == "failed" and rec.failures[0]["metric"] == "fluency"
    # The system message (instructions for every metric) is identical across items.
    other = ev.plan_requests(SummaryData(input="Another source.", summary="T."))[0]
    assert other.messages[0] == j.requests[0].messages[0]


async def test_rubrics_first_layout_static_system_and_distinct_cache_key() -> None:
    j = judge()
    ev = SummarizationEvaluator(j, retry_policy=NO_WAIT, prompt_layout="rubrics_first")
    out = await ev.evaluate(SummaryData(input="Rina ships Friday.", summary="Friday."))
    assert out["summary"]["coherence"]["score"] == 3
    systems = {r.messages[0].content for r in j.requests}
    assert len(systems) == 1 and "### fluency" in systems.pop()
    assert all("+rubrics_first@" in r.task for r in j.requests)
    assert j.requests[0].messages[1].parts[-1].startswith("Rate the summary's COHERENCE only")


async def test_chunked_long_source_states_strategy_and_coverage() -> None:
    from sumjudge.evaluators.longsource import split_chunks

    def respond(request: object) -> dict[str, object]:
        task = request.task  # type: ignore[attr-defined]
        if task.startswith("chunk_notes"):
            return {"key_points": ["Part point one.", "Part point two."]}
        return {"explanation": "Fine.", "score": 3}

    j = ScriptedJudge(responder=respond)
    filler = "Budi reviewed the vendor contract and the invoice schedule in detail. "
    source = (filler * 60) + "Rina decided to ship the release on Friday. " + (filler * 60)
    summary = "Rina decided to ship on Friday."
    ev = SummarizationEvaluator(
        j, retry_policy=NO_WAIT, context_window=3000, long_source="chunked", logprobs=False
    )
    (rec,) = [r async for r in ev.evaluate_batch([SummaryData(input=source, summary=summary)])]
    assert rec.status == "ok", rec.to_dict()
    ctx = rec.meta["context"]
    assert ctx["strategy"] == "chunked" and ctx["chunks"] > 1
    seen = ctx["source_seen_fraction"]
    assert 0 < seen["consistency"] < 1 and seen["relevance"] == 1.0
    consistency = next(r for r in j.requests if r.task.startswith("consistency"))
    assert "Rina decided to ship the release on Friday" in consistency.prompt_text()
    assert "[Excerpts from a source too long" in consistency.prompt_text()
    notes = [r for r in j.requests if r.task.startswith("chunk_notes")]
    assert len(notes) == ctx["chunks"] == ctx["notes_calls"]
    relevance = next(r for r in j.requests if r.task.startswith("relevance"))
    assert "Part point one." in relevance.prompt_text()
    # chunks cover the source exactly, in order, with nothing dropped
    chunks = split_chunks(source, 300)
    assert "".join(c.text for c in chunks) == source[chunks[0].start :]


async def test_the_dry_run_of_a_long_source_counts_its_parts() -> None:
    def respond(request: object) -> dict[str, object]:
        if request.task.startswith("chunk_notes"):  # type: ignore[attr-defined]
            return {"key_points": ["Part point one."]}
        return {"explanation": "Fine.", "score": 3}

    source = "Budi reviewed the vendor contract and the invoice schedule in detail. " * 150
    item = SummaryData(input=source, summary="Budi reviewed the contract.")
    options: dict[str, Any] = {"retry_policy": NO_WAIT, "context_window": 3000, "logprobs": False}
    j = ScriptedJudge(responder=respond)
    ev = SummarizationEvaluator(j, long_source="chunked", **options)
    estimate = ev.estimate_cost([item])
    _ = [r async for r in ev.evaluate_batch([item])]
    assert estimate.requests == len(j.requests) > 4
    failing = SummarizationEvaluator(ScriptedJudge(responder=respond), **options)
    assert failing.estimate_cost([item]).requests == 0


async def test_failed_metric_reply_is_not_replayed_from_cache(tmp_path: Path) -> None:
    ok = {"score": 3, "explanation": "ok"}
    bad = ScriptedJudge({"coherence": ["No JSON.", "Still prose.", "Prose again."], "*": [ok] * 3})
    ev = SummarizationEvaluator(bad, retry_policy=NO_WAIT, cache=tmp_path, logprobs=False)
    item = SummaryData(input="Rina ships Friday.", summary="Friday.")
    (first,) = [r async for r in ev.evaluate_batch([item], concurrency=1)]
    assert first.status == "failed" and first.failures[0]["metric"] == "coherence"
    good = ScriptedJudge([{"score": 2, "explanation": "Now fine."}])
    ev2 = SummarizationEvaluator(good, retry_policy=NO_WAIT, cache=tmp_path, logprobs=False)
    summary = RunSummary()
    (second,) = [r async for r in ev2.evaluate_batch([item], summary=summary)]
    assert second.status == "ok" and len(good.requests) == 1  # only the failed metric re-asked
    assert summary.cache_hits == 3


async def test_two_batches_on_one_evaluator_keep_their_own_rate_limits() -> None:
    """The limiter belongs to the run: a slow run does not throttle another one."""
    from sumjudge import ScriptedJudge, SummarizationEvaluator

    judge = ScriptedJudge(responder=lambda r: {"explanation": "Fine.", "score": 3})
    ev = SummarizationEvaluator(judge, enabled_metrics=["coherence"], logprobs=False)
    items = [{"input": f"Source {i}.", "summary": f"Summary {i}."} for i in range(5)]

    async def collect(**limits: float) -> list[str]:
        return [r.status async for r in ev.evaluate_batch(items, concurrency=1, **limits)]

    slow = asyncio.ensure_future(collect(requests_per_minute=6))  # one call per 10 s
    fast = await asyncio.wait_for(collect(), timeout=30)
    assert fast == ["ok"] * 5 and not slow.done()
    slow.cancel()
