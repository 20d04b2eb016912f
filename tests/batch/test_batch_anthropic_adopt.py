"""Anthropic message batches carry no metadata: a kill between `create` and the manifest
update is recovered by adopting the batch that matches the intent written before it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from test_batch_providers import PROVIDERS, _has, evaluator, run

from sumjudge.batch.manifest import JobStore
from sumjudge.testing import FakeOpenAIServer

pytestmark = pytest.mark.skipif(not _has("anthropic"), reason="anthropic not installed")
ANTHROPIC = next(p.values[0] for p in PROVIDERS if p.id == "anthropic")


async def foreign_batch(srv: FakeOpenAIServer, n: int) -> str:
    """A batch someone else created in the same workspace (not ours)."""
    import anthropic

    client = anthropic.AsyncAnthropic(base_url=srv.url, api_key="k")
    params = {
        "model": "claude-fake",
        "max_tokens": 8,
        "messages": [{"role": "user", "content": "hi"}],
    }
    batch = await client.messages.batches.create(
        requests=[{"custom_id": f"other-{i}", "params": params} for i in range(n)]
    )
    await client.close()
    return str(batch.id)


def crash_at_create(monkeypatch: pytest.MonkeyPatch, instead: Any = None) -> Any:
    """Kill the run in `submit`: after `create` (or, with `instead`, doing that instead)."""
    from sumjudge.batch.anthropic import AnthropicBatches

    real = AnthropicBatches.submit

    async def submit_then_die(self: AnthropicBatches, entries: Any, tag: Any) -> str:
        if instead is not None:
            await instead()
        else:
            await real(self, entries, tag)
        raise asyncio.CancelledError  # killed before the manifest records the batch id

    monkeypatch.setattr(AnthropicBatches, "submit", submit_then_die)
    return real


async def test_a_kill_between_create_and_manifest_is_adopted_not_resubmitted(
    server: FakeOpenAIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sumjudge.batch.anthropic import AnthropicBatches

    real = crash_at_create(monkeypatch)
    with pytest.raises(asyncio.CancelledError):
        await run(evaluator(ANTHROPIC, server, tmp_path, "c"))
    (job,) = JobStore(tmp_path / "jobs").jobs()
    assert job.batches[0].state == "submitting" and job.batches[0].batch_id is None
    assert server.batches.created == 1
    monkeypatch.setattr(AnthropicBatches, "submit", real)
    records = await run(evaluator(ANTHROPIC, server, tmp_path, "c"))
    assert server.batches.created == 1  # adopted, not submitted again
    assert all(r["status"] == "ok" for r in records)
    (job,) = JobStore(tmp_path / "jobs").jobs()
    assert job.batches[0].batch_id == next(iter(server.batches.jobs))


async def test_batches_that_do_not_match_the_intent_are_not_adopted(
    server: FakeOpenAIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sumjudge.batch.anthropic import AnthropicBatches

    # Killed after the intent, before our `create`. Someone else's batch of our size (12)
    # is older than the intent; another, created after it, has a different size.
    monkeypatch.setattr("sumjudge.batch.anthropic.CLOCK_SKEW", 0.0)
    older = await foreign_batch(server, 12)
    await asyncio.sleep(0.05)
    real = crash_at_create(monkeypatch, instead=lambda: foreign_batch(server, 5))
    with pytest.raises(asyncio.CancelledError):
        await run(evaluator(ANTHROPIC, server, tmp_path, "c"))
    monkeypatch.setattr(AnthropicBatches, "submit", real)
    records = await run(evaluator(ANTHROPIC, server, tmp_path, "c"))
    assert all(r["status"] == "ok" for r in records)
    (job,) = JobStore(tmp_path / "jobs").jobs()
    lost, ours = job.batches
    assert lost.state == "lost" and lost.batch_id is None  # nothing adopted
    assert ours.batch_id not in (None, older) and len(ours.requests) == 12
    assert server.batches.created == 3  # the two foreign batches and ours, once
