"""`batch_api=True` with anthropic/ and google/ judges: `messages.batches` and Gemini batch
mode (inline, and from an uploaded file) against the fake server, each through its real
SDK."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from sumjudge import RetryPolicy, SummarizationEvaluator, SummaryData
from sumjudge.batch import BatchOptions
from sumjudge.cost import Price
from sumjudge.testing import FakeOpenAIServer, Reply


class Provider(NamedTuple):
    sdk: str  # the SDK the test needs
    model: str  # the judge, "provider/model"
    busy: Reply  # a retryable per-request error of that provider
    file_mode: bool = False  # Gemini: every batch over the inline limit (an uploaded file)


def _has(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


PROVIDERS = [
    pytest.param(
        Provider("anthropic", "anthropic/claude-fake", Reply.error(529, "overloaded")),
        id="anthropic",
        marks=pytest.mark.skipif(not _has("anthropic"), reason="anthropic not installed"),
    ),
    pytest.param(
        Provider("google.genai", "google/gemini-fake", Reply.error(503, "unavailable")),
        id="gemini",
        marks=pytest.mark.skipif(not _has("google.genai"), reason="google-genai not installed"),
    ),
    pytest.param(
        Provider("google.genai", "google/gemini-fake", Reply.error(503, "unavailable"), True),
        id="gemini-file",
        marks=pytest.mark.skipif(not _has("google.genai"), reason="google-genai not installed"),
    ),
]
NO_WAIT = RetryPolicy(initial_delay=0, max_delay=0, max_retry_after=0, jitter=False)
ITEMS = [
    SummaryData(
        input=f"Rina ships parcel {i} on Friday; Budi tests the scanner on Monday.",
        summary=f"Parcel {i} ships Friday.",
        id=f"row{i}",
    )
    for i in range(3)
]


@pytest.fixture(autouse=True)
def _gemini_file_mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    callspec = getattr(request.node, "callspec", None)
    provider = callspec.params.get("provider") if callspec is not None else None
    if isinstance(provider, Provider) and provider.file_mode:
        from sumjudge.batch.gemini import GeminiBatches

        monkeypatch.setattr(GeminiBatches, "inline_limit", 0)


def evaluator(
    provider: Provider, srv: FakeOpenAIServer, tmp: Path, cache: str, *, batch: bool = True
) -> Any:
    options = BatchOptions(poll_interval=0.02, jobs_dir=tmp / "jobs") if batch else False
    return SummarizationEvaluator(
        provider.model,
        model_credentials="k",
        base_url=srv.url,
        retry_policy=NO_WAIT,
        cache=tmp / cache,
        price=Price(input=1.0, output=2.0),
        batch_api=options,
    )


async def run(ev: SummarizationEvaluator) -> list[dict[str, Any]]:
    records = [r.to_dict() async for r in ev.evaluate_batch(ITEMS)]
    await ev.aclose()
    out = json.loads(json.dumps(sorted(records, key=lambda r: r["index"])))
    for r in out:  # spend differs (price, prompt-cache reads); nothing else
        r["meta"].pop("run")
        r["meta"].pop("usage", None)
    return out


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_same_output_as_online_through_the_batch_endpoint(
    provider: Provider, server: FakeOpenAIServer, tmp_path: Path
) -> None:
    ev = evaluator(provider, server, tmp_path, "b")
    batch = await run(ev)
    assert ev.last_batch is not None and (ev.last_batch.batches, ev.last_batch.submitted) == (1, 12)
    ((_, first), *_) = next(iter(server.batches.jobs.values())).requests
    assert first["model"] == provider.model.split("/", 1)[1]
    assert await run(evaluator(provider, server, tmp_path, "o", batch=False)) == batch


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_repair_round_and_a_busy_request_sent_again(
    provider: Provider, server: FakeOpenAIServer, tmp_path: Path
) -> None:
    server.enqueue(Reply.text("no JSON today"), provider.busy)
    ev = evaluator(provider, server, tmp_path, "b")
    records = await run(ev)
    assert ev.last_batch is not None and ev.last_batch.rounds == 2
    assert [len(j.requests) for j in server.batches.jobs.values()] == [12, 2]
    assert all(r["status"] == "ok" for r in records)


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_expired_requests_are_sent_again(
    provider: Provider, server: FakeOpenAIServer, tmp_path: Path
) -> None:
    server.batches.expire_next, server.batches.expire_after = 1, 4
    records = await run(evaluator(provider, server, tmp_path, "b"))
    assert [len(j.requests) for j in server.batches.jobs.values()] == [12, 8]
    assert all(r["status"] == "ok" for r in records)
