"""Gemini batch mode from an uploaded JSONL file (runs over the 20 MB inline limit), through
google-genai's Files API and `batches.create(src="files/...")` against the fake server.

The provider tests (`test_batch_providers.py`, id "gemini-file") run the same output,
repair, retry and expiry checks in file mode; these check the files themselves."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_batch_providers import PROVIDERS, _has, evaluator, run

from sumjudge.batch.gemini import GeminiBatches
from sumjudge.testing import FakeOpenAIServer

pytestmark = pytest.mark.skipif(not _has("google.genai"), reason="google-genai not installed")
GEMINI = next(p.values[0] for p in PROVIDERS if p.id == "gemini")


@pytest.fixture
def file_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    # every batch is "over the inline limit": it goes as an uploaded file
    monkeypatch.setattr(GeminiBatches, "inline_limit", 0)


def counted(srv: FakeOpenAIServer, path: str) -> int:
    return int(srv.stats()["paths"].get(path, {}).get("requests", 0))


async def test_a_file_batch_gives_the_same_output_as_online(
    server: FakeOpenAIServer, tmp_path: Path, file_mode: None
) -> None:
    ev = evaluator(GEMINI, server, tmp_path, "b")
    batch = await run(ev)
    assert ev.last_batch is not None and (ev.last_batch.batches, ev.last_batch.submitted) == (1, 12)
    (job,) = server.batches.jobs.values()
    assert job.extra["from_file"] and len(job.requests) == 12
    assert counted(server, "/upload/files") == 1 and counted(server, "/files:download") == 1
    uploaded = [f for f in server.batches.files.values() if f[0] == "gemini"]
    assert len(uploaded) == 1 and uploaded[0][2].count(b"\n") == 12  # one line per request
    assert await run(evaluator(GEMINI, server, tmp_path, "o", batch=False)) == batch


async def test_small_batches_stay_inline(server: FakeOpenAIServer, tmp_path: Path) -> None:
    await run(evaluator(GEMINI, server, tmp_path, "b"))
    (job,) = server.batches.jobs.values()
    assert not job.extra["from_file"] and counted(server, "/upload/files") == 0
