"""The CLI end to end in subprocesses: kill -9 and resume, warm re-run, no key in any file."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from sumjudge.testing.openai_server import FakeOpenAIServer, Reply

N = 40
KEY = "sk-test-DO-NOT-LEAK-4f9a2b7c1d"


def write_input(path: Path, n: int = N) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            source = f"Meeting {i}. Rina says the release ships on Friday. Budi will test it."
            fh.write(json.dumps({"id": f"m{i}", "input": source, "summary": f"Ships Friday {i}."}))
            fh.write("\n")


def cli(args: list[str], tmp: Path, **env: str) -> list[str]:
    base = {
        k: v for k, v in os.environ.items() if not k.endswith("_API_KEY") and "BASE_URL" not in k
    }
    base.update(SUMJUDGE_CACHE_DIR=str(tmp / "cache"), **env)
    return [sys.executable, "-m", "sumjudge.cli.main", "evaluate", *args], base  # type: ignore[return-value]


def run_cli(args: list[str], tmp: Path, **env: str) -> subprocess.CompletedProcess[str]:
    cmd, e = cli(args, tmp, **env)
    return subprocess.run(cmd, env=e, capture_output=True, text=True, timeout=60)


def indices(path: Path) -> list[int]:
    return [json.loads(line)["index"] for line in path.read_text().splitlines()]


def test_kill_9_then_resume_redoes_only_unfinished(tmp_path: Path) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_input(src)
    with FakeOpenAIServer(latency=0.1, record_requests=False) as srv:
        judge = [
            str(src),
            "--model",
            "openai/fake-model",
            "--base-url",
            srv.base_url,
            "--concurrency",
            "2",
            "--no-progress",
        ]
        common = [*judge, "-o", str(out)]
        cmd, env = cli(common, tmp_path)
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if out.exists() and len(out.read_text().splitlines()) >= 8:
                break
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        done_before = set(indices(out))
        assert 8 <= len(done_before) < N, "the run should have been killed mid-way"
        calls_first = srv.stats()["requests"]

        resumed = run_cli([*common, "--resume", "--concurrency", "10"], tmp_path)
        assert resumed.returncode == 0, resumed.stderr
        calls_resume = srv.stats()["requests"] - calls_first
        # Only unfinished items cost calls (in-flight calls answered before the kill are in
        # the cache, so it can be fewer than 4 per unfinished item, never more).
        assert 0 < calls_resume <= 4 * (N - len(done_before))
        assert calls_first + calls_resume >= 4 * N
        got = indices(out)
        assert sorted(got) == list(range(N)), Counter(got).most_common(3)
        assert f"{len(done_before)} already done" in resumed.stderr

        # Warm re-run of the finished batch into a fresh file: zero judge calls.
        again = run_cli([*judge, "-o", str(tmp_path / "again.jsonl")], tmp_path)
        assert again.returncode == 0, again.stderr
        assert srv.stats()["requests"] - calls_first - calls_resume == 0
        assert "0 judge call(s)" in again.stderr and f"{4 * N} answered from" in again.stderr
        assert sorted(indices(tmp_path / "again.jsonl")) == list(range(N))


def test_no_api_key_in_any_written_file(tmp_path: Path) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_input(src, 6)
    with FakeOpenAIServer() as srv:
        # A provider error that echoes the key back, as some providers do on a 401.
        srv.enqueue(Reply.error(401, f"Incorrect API key provided: {KEY}."))
        result = run_cli(
            [
                str(src),
                "--model",
                "openai/fake-model",
                "--base-url",
                srv.base_url,
                "-o",
                str(out),
                "--summary-json",
                str(tmp_path / "summary.json"),
                "--concurrency",
                "1",
            ],
            tmp_path,
            OPENAI_API_KEY=KEY,
        )
        sent = [r["headers"].get("authorization", "") for r in srv.requests]
    assert any(KEY in h for h in sent), "the key should reach the server"
    (tmp_path / "stderr.log").write_text(result.stderr + result.stdout)
    assert result.returncode == 2  # the key was refused: the run stopped
    assert "[REDACTED]" in out.read_text()
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.name.startswith("responses.sqlite3") for p in files)
    for p in files:
        assert KEY.encode() not in p.read_bytes(), f"key leaked into {p}"


def test_dry_run_calls_nothing_and_max_cost_stops(tmp_path: Path) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_input(src, 12)
    with FakeOpenAIServer() as srv:
        base = [
            str(src),
            "--model",
            "openai/fake-model",
            "--base-url",
            srv.base_url,
            "--no-cache",
            "--no-progress",
        ]
        dry = run_cli([*base, "--dry-run"], tmp_path)
        assert dry.returncode == 0, dry.stderr
        assert srv.stats()["requests"] == 0
        estimate = json.loads(dry.stdout)
        assert estimate["requests"] == 48 and estimate["estimated_cost_usd"] > 0
        assert "characters per token" in dry.stderr

        capped = run_cli(
            [*base, "-o", str(out), "--concurrency", "1", "--max-cost", "0.0004"], tmp_path
        )
        assert capped.returncode == 4, capped.stderr
        assert "max cost $0.0004 reached" in capped.stderr
        statuses = Counter(json.loads(x)["status"] for x in out.read_text().splitlines())
        assert statuses["ok"] >= 1 and statuses["not_run"] >= 1
        assert statuses["ok"] + statuses["not_run"] == 12


@pytest.mark.parametrize("kind", ["csv", "parquet"])
def test_csv_and_parquet_input(tmp_path: Path, kind: str) -> None:
    pd = pytest.importorskip("pandas")
    if kind == "parquet":
        pytest.importorskip("pyarrow")
    df = pd.DataFrame(
        {
            "id": ["a", "b", "c"],
            "input": ["Rina ships Friday.", "Budi tests.", None],
            "summary": ["Ships Friday.", "Tests.", "x"],
        }
    )
    src = tmp_path / f"in.{kind}"
    df.to_csv(src, index=False) if kind == "csv" else df.to_parquet(src)
    out = tmp_path / "out.jsonl"
    with FakeOpenAIServer() as srv:
        r = run_cli(
            [
                str(src),
                "--model",
                "openai/fake-model",
                "--base-url",
                srv.base_url,
                "-o",
                str(out),
                "--no-progress",
            ],
            tmp_path,
        )
    rows = {json.loads(x)["index"]: json.loads(x) for x in out.read_text().splitlines()}
    assert r.returncode == 3  # row 2 is invalid
    assert rows[0]["status"] == "ok" and rows[0]["id"] == "a"
    assert rows[2]["status"] == "invalid" and rows[2]["error"]["field"] == "input"
