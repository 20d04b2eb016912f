"""Multi-stage work as successive batch rounds: rubric then questions, notes then relevance."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from sumjudge import RetryPolicy, SummarizationEvaluator, SummaryData
from sumjudge.autoeval import AutoEvaluator
from sumjudge.batch import BatchOptions
from sumjudge.testing import FakeOpenAIServer, Reply

sys.path.insert(0, str(Path(__file__).parents[1] / "autoeval"))
from autoeval_helpers import ITEM, SECTIONS
from test_autoeval_http import http_responder

NO_WAIT = RetryPolicy(initial_delay=0, max_delay=0, max_retry_after=0, jitter=False)


def options(tmp: Path) -> BatchOptions:
    return BatchOptions(poll_interval=0.02, jobs_dir=tmp / "jobs")


def plain(records: list[Any]) -> list[dict[str, Any]]:
    ordered = sorted(records, key=lambda r: r.index)
    out = json.loads(json.dumps([r.to_dict() for r in ordered]))
    for r in out:  # spend differs (price, prompt-cache reads); nothing else
        r["meta"].pop("run", None)
        r["meta"].pop("usage", None)
    return out


def schema_names(job: Any) -> set[str]:
    return {body["response_format"]["json_schema"]["name"] for _, body in job.requests}


async def test_autoeval_rubric_questions_come_in_the_round_after_their_rubric(
    tmp_path: Path,
) -> None:
    async def run(batch: bool, cache: str) -> list[Any]:
        ev = AutoEvaluator(
            "openai/fake-model",
            model_credentials="sk-test",
            base_url=srv.base_url,
            sections=SECTIONS,
            retry_policy=NO_WAIT,
            cache=tmp_path / cache,
            batch_api=options(tmp_path) if batch else False,
        )
        try:
            return [r async for r in ev.evaluate_batch([ITEM, {**ITEM, "id": "abc-2"}])]
        finally:
            await ev.aclose()

    with FakeOpenAIServer() as srv:
        srv.responder = http_responder
        batch = await run(True, "b")
        first, second = srv.batches.jobs.values()
        online = await run(False, "o")
    assert schema_names(first) == {"section_rubric", "accuracy_decomposition"}
    assert schema_names(second) == {"adherence_rubrics", "completeness_rubrics"}
    # two rubrics (shared by both items) + one accuracy: the items' requests are identical,
    # and a request is submitted once however many items ask it
    assert len(first.requests) == 2 + 1
    assert all(r.status == "ok" for r in batch)
    assert plain(batch) == plain(online)


async def test_long_source_notes_then_relevance(tmp_path: Path) -> None:
    def respond(body: dict[str, Any]) -> Reply:
        name = body["response_format"]["json_schema"]["name"]
        if name.startswith("chunk_notes") or "key_points" in json.dumps(body["response_format"]):
            return Reply.json({"key_points": ["Part point one.", "Part point two."]})
        return Reply.json({"explanation": "Fine.", "score": 3})

    filler = "Budi reviewed the vendor contract and the invoice schedule in detail. "
    source = (filler * 60) + "Rina decided to ship the release on Friday. " + (filler * 60)
    item = SummaryData(input=source, summary="Rina decided to ship on Friday.", id="long")

    async def run(batch: bool, cache: str) -> list[Any]:
        ev = SummarizationEvaluator(
            "openai/fake-model",
            base_url=srv.base_url,
            retry_policy=NO_WAIT,
            context_window=3000,
            long_source="chunked",
            logprobs=False,
            cache=tmp_path / cache,
            batch_api=options(tmp_path) if batch else False,
        )
        try:
            return [r async for r in ev.evaluate_batch([item])]
        finally:
            await ev.aclose()

    with FakeOpenAIServer() as srv:
        srv.responder = respond
        batch = await run(True, "b")
        jobs = list(srv.batches.jobs.values())
        online = await run(False, "o")
    assert batch[0].status == "ok", batch[0].to_dict()
    prompts = [[json.dumps(b["messages"]) for _, b in j.requests] for j in jobs]
    assert len(jobs) >= 2
    assert not any("Part point one." in p for p in prompts[0])  # relevance waits for notes
    assert any("Part point one." in p for p in prompts[-1])
    assert plain(batch) == plain(online)
