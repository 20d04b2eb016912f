"""A judge's server that is not there stops the run after a few attempts, not one per item.

A closed port on 127.0.0.1 (a socket bound, then closed: nothing listens there) is the
absent server; `FakeOpenAIServer` with connection resets is the one that answers sometimes.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

from sumjudge import RetryPolicy, SummarizationEvaluator
from sumjudge.firstcontact import UNREACHABLE_AFTER
from sumjudge.testing.openai_server import FakeOpenAIServer, Reply

FAST = RetryPolicy(initial_delay=0, max_delay=0, max_retry_after=0, jitter=False)
PATIENT = RetryPolicy(
    max_attempts=10, initial_delay=0, max_delay=0, max_retry_after=0, jitter=False
)


def closed_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port  # closed on leaving: a connection there is refused


def rows(n: int) -> list[dict[str, Any]]:
    return [
        {"id": f"r{i}", "input": f"Report {i}. The plant opened on Monday.", "summary": "Opened."}
        for i in range(n)
    ]


def evaluator(base_url: str, policy: RetryPolicy = FAST) -> SummarizationEvaluator:
    return SummarizationEvaluator(
        model="openai/fake-model",
        base_url=base_url,
        model_credentials="sk-test-not-a-key",
        cache=None,
        logprobs=False,
        retry_policy=policy,
    )


async def test_a_closed_port_stops_the_run_after_a_few_attempts() -> None:
    ev = evaluator(f"http://127.0.0.1:{closed_port()}/v1")
    async with ev:
        records = [r async for r in ev.evaluate_batch(rows(150), concurrency=8)]
    summary = ev.last_summary
    assert summary is not None
    # One attempt alone at a time until the server is taken for absent; nothing after.
    assert 1 <= summary.judge_calls <= UNREACHABLE_AFTER
    assert summary.unreachable and not summary.key_refused
    assert summary.stopped is not None and "cannot be reached" in summary.stopped
    assert len(records) == 150 and {r.status for r in records} == {"not_run"}
    assert "connection" in records[-1].to_dict()["error"]["message"]


async def test_a_server_that_answers_sometimes_is_not_stopped() -> None:
    with FakeOpenAIServer() as srv:
        # Four connection failures in a row at the start (one short of the stop), then
        # every third request dropped for the rest of the run.
        for _ in range(UNREACHABLE_AFTER - 1):
            srv.enqueue(Reply.reset())
        count = {"n": 0}
        default = srv.responder

        def sometimes(body: dict[str, Any]) -> Any:
            count["n"] += 1
            return Reply.reset() if count["n"] % 3 == 0 else default(body)

        srv.responder = sometimes
        # Room for retries: one call would need 10 of the dropped requests to fail.
        ev = evaluator(srv.base_url, PATIENT)
        async with ev:
            records = [r async for r in ev.evaluate_batch(rows(30), concurrency=4)]
    summary = ev.last_summary
    assert summary is not None and not summary.unreachable and summary.stopped is None
    assert [r.status for r in records] == ["ok"] * 30  # the retries got every verdict
    # Far more connection failures in all than the stop's count, after the first answer.
    assert count["n"] // 3 + UNREACHABLE_AFTER - 1 > 2 * UNREACHABLE_AFTER


def test_cli_exits_3_with_the_reason_and_the_resume_command(tmp_path: Path) -> None:
    src, out, summary_json = tmp_path / "in.jsonl", tmp_path / "out.jsonl", tmp_path / "s.json"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows(150)))
    url = f"http://127.0.0.1:{closed_port()}/v1"
    cmd = [sys.executable, "-m", "sumjudge.cli.main", "evaluate", str(src), "--model",
           "openai/fake-model", "--base-url", url, "-o", str(out), "--summary-json",
           str(summary_json), "--max-attempts", "2", "--no-progress"]  # fmt: skip
    env = {"OPENAI_API_KEY": "sk-test-not-a-key", "SUMJUDGE_CACHE_DIR": str(tmp_path / "c")}
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300,
                            env={**_base_env(), **env})  # fmt: skip
    assert result.returncode == 3, result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("sumjudge: error: the run stopped: the judge's server cannot be")
    assert "(150 item(s) not run)" in last and "rerun the same command with --resume" in last
    assert "Traceback" not in result.stderr
    summary = json.loads(summary_json.read_text())
    assert 1 <= summary["judge_calls"] <= UNREACHABLE_AFTER
    assert [json.loads(line)["status"] for line in out.read_text().splitlines()] == (
        ["not_run"] * 150
    )


def _base_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
