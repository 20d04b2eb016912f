"""No connection left open: the README's `asyncio.run(main())` pattern warns about nothing.

Each script runs in a fresh interpreter with every warning an error (`-W error`,
PYTHONWARNINGS=error), against `FakeOpenAIServer`: an "Unclosed client session" or an
"unclosed transport" at exit would show on its stderr.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sumjudge import SummarizationEvaluator, SummaryData
from sumjudge.testing.openai_server import FakeOpenAIServer

README_PATTERN = textwrap.dedent(
    """
    import asyncio, json, sys
    from sumjudge import SummarizationEvaluator, load_simple_summarization_dataset

    async def main():
        evaluator = SummarizationEvaluator(
            model=sys.argv[1], base_url=sys.argv[2], model_credentials="sk-test-not-a-key")
        data = load_simple_summarization_dataset().load()[0]
        result = await evaluator.evaluate(data)          # {"summary": {...}}
        print(json.dumps(result)[:40])

    asyncio.run(main())
    """
)


@pytest.mark.parametrize(
    ("model", "path", "client"),
    [
        ("openai/fake-model", "/v1", "direct"),  # aiohttp
        ("openai/fake-model", "/v1", "sdk"),  # the openai SDK (httpx)
        ("anthropic/claude-haiku-4-5", "", "sdk"),  # the anthropic SDK (httpx)
    ],
)
def test_the_readme_pattern_leaves_no_warning(
    model: str, path: str, client: str, server: FakeOpenAIServer, tmp_path: Path
) -> None:
    script = tmp_path / "main.py"
    script.write_text(README_PATTERN)
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update(
        PYTHONWARNINGS="error",
        SUMJUDGE_HTTP_CLIENT=client,
        SUMJUDGE_CACHE_DIR=str(tmp_path / "cache"),
    )
    result = subprocess.run(
        [sys.executable, "-W", "error", str(script), model, server.url + path],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith('{"summary": {')
    assert result.stderr == ""
    assert len(server.requests) >= 4  # judged by the server, not from a cache


async def test_closing_the_evaluator_leaves_no_task_behind(server: FakeOpenAIServer) -> None:
    data = SummaryData(input="The plant opened on Monday in Lyon.", summary="It opened.")
    async with SummarizationEvaluator(
        model="openai/fake-model", base_url=server.base_url, model_credentials="sk-test",
        cache=None,
    ) as evaluator:  # fmt: skip
        await evaluator.evaluate(data)
        assert len(asyncio.all_tasks()) == 2  # this test, and the watch on the connections
    assert asyncio.all_tasks() == {asyncio.current_task()}
