"""`--batch-api` on the command line: --no-wait, `sumjudge jobs`, kill -9 and rerun, cancel."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from sumjudge.batch.manifest import JobStore
from sumjudge.cli.main import main
from sumjudge.testing import FakeOpenAIServer

N = 6


def write_input(path: Path) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for i in range(N):
            source = f"Meeting {i}. Rina says the release ships on Friday. Budi will test it."
            fh.write(json.dumps({"id": f"m{i}", "input": source, "summary": f"Ships Friday {i}."}))
            fh.write("\n")


def flags(srv: FakeOpenAIServer, tmp: Path, out: str, *extra: str) -> list[str]:
    return [
        "evaluate",
        str(tmp / "in.jsonl"),
        "--base-url",
        srv.base_url,
        "--model",
        "openai/fake-model",
        "--price",
        "1,0.5,2",
        "--cache-dir",
        str(tmp / "cache"),
        "--no-progress",
        "--max-attempts",
        "2",
        "-o",
        str(tmp / out),
        *extra,
    ]


def records(path: Path) -> list[dict[str, Any]]:
    out = [json.loads(line) for line in path.read_text().splitlines()]
    for r in out:  # spend differs by design (batch price, provider prompt-cache hits)
        r["meta"].pop("run")
        r["meta"].pop("usage", None)
    return out


@pytest.fixture
def server(tmp_path: Path) -> Any:
    write_input(tmp_path / "in.jsonl")
    with FakeOpenAIServer(record_requests=False) as srv:
        yield srv


def test_no_wait_jobs_then_collect_matches_an_online_run(
    server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server.batches.delay = 3  # still running when --no-wait checks, even on a busy machine
    args = flags(server, tmp_path, "batch.jsonl", "--batch-api", "--batch-poll", "0.05")
    assert main([*args, "--no-wait"]) == 0
    err = capsys.readouterr().err
    assert "still running" in err and "collect with: sumjudge evaluate" in err
    assert "--no-wait" not in err.split("collect with:")[1]
    out = tmp_path / "batch.jsonl"
    assert not out.exists() or out.read_text() == ""  # no record until the job is collected
    assert main(["jobs", "--cache-dir", str(tmp_path / "cache")]) == 0
    listed = capsys.readouterr().out
    assert "running" in listed and f"0/{4 * N} request(s) answered" in listed
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "0 request(s) submitted now" in err and "round(s)" in err
    assert server.batches.created == 1
    assert main(flags(server, tmp_path, "online.jsonl", "--no-cache")) == 0
    capsys.readouterr()
    assert records(tmp_path / "batch.jsonl") == records(tmp_path / "online.jsonl")
    assert main(["jobs", "--cache-dir", str(tmp_path / "cache")]) == 0
    assert "no running jobs" in capsys.readouterr().err


def test_summary_json_has_the_batch_and_half_the_cost(
    server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = flags(server, tmp_path, "b.jsonl", "--batch-api", "--batch-poll", "0.05")
    assert main([*args, "--summary-json", str(tmp_path / "b.json")]) == 0
    online = flags(server, tmp_path, "o.jsonl", "--no-cache", "--summary-json")
    assert main([*online, str(tmp_path / "o.json")]) == 0
    b = json.loads((tmp_path / "b.json").read_text())
    o = json.loads((tmp_path / "o.json").read_text())
    assert b["batch"]["batches"] == 1 and b["batch"]["requests_submitted"] == 4 * N
    assert b["judge_calls"] == o["judge_calls"] == 4 * N
    assert b["usage"]["prompt_tokens"] == o["usage"]["prompt_tokens"]
    uncached = {**b["usage"], "cached_prompt_tokens": 0}
    assert uncached["prompt_tokens"] > 0
    assert b["cost_usd"] < o["cost_usd"]  # half price (provider prompt-cache hits differ)


def test_dry_run_prices_the_batch(
    server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*flags(server, tmp_path, "x.jsonl", "--dry-run")]) == 0
    online = json.loads(capsys.readouterr().out)
    assert main([*flags(server, tmp_path, "x.jsonl", "--dry-run", "--batch-api")]) == 0
    batch = json.loads(capsys.readouterr().out)
    assert batch["estimated_cost_usd"] == pytest.approx(online["estimated_cost_usd"] / 2)
    assert server.batches.created == 0


def test_flags_that_contradict_exit_2(
    server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*flags(server, tmp_path, "x.jsonl", "--no-wait")]) == 2
    assert "--no-wait needs --batch-api" in capsys.readouterr().err
    assert main(["evaluate", str(tmp_path / "in.jsonl"), "--model", "local", "--batch-api"]) == 2
    assert "batch endpoint" in capsys.readouterr().err
    assert main(["jobs", "cancel", "job-0000", "--cache-dir", str(tmp_path)]) == 2
    assert "no job job-0000" in capsys.readouterr().err


def test_cancel_stops_the_job_and_a_rerun_sends_the_rest(
    server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server.batches.delay = 30
    args = flags(server, tmp_path, "b.jsonl", "--batch-api", "--batch-poll", "0.05")
    assert main([*args, "--no-wait"]) == 0
    (job,) = JobStore(tmp_path / "cache" / "jobs").jobs()
    assert main(["jobs", "cancel", job.id, "--cache-dir", str(tmp_path / "cache")]) == 0
    assert "cancelled" in capsys.readouterr().err
    (job,) = JobStore(tmp_path / "cache" / "jobs").jobs()
    assert job.state == "cancelled"
    server.batches.delay = 0
    assert main(args) == 0  # the rerun collects nothing from the cancelled batch, resends all
    assert server.batches.created == 2
    assert [r["status"] for r in records(tmp_path / "b.jsonl")] == ["ok"] * N


def test_kill_9_while_waiting_then_rerun_submits_nothing_new(
    server: FakeOpenAIServer, tmp_path: Path
) -> None:
    server.batches.delay = 3
    args = flags(server, tmp_path, "b.jsonl", "--batch-api", "--batch-poll", "0.1")
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    cmd = [sys.executable, "-m", "sumjudge.cli.main", *args]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    store = JobStore(tmp_path / "cache" / "jobs")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        jobs = list(store.jobs())
        if jobs and jobs[0].batches and jobs[0].batches[0].batch_id:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert server.batches.created == 1
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert server.batches.created == 1  # collected, not submitted again
    assert [r["status"] for r in records(tmp_path / "b.jsonl")] == ["ok"] * N


def test_meta_eval_through_the_batch_endpoint_gives_the_online_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    slice_file = Path(__file__).parents[1] / "data" / "summeval_slice.jsonl"

    def meta(srv: FakeOpenAIServer, *extra: str) -> dict[str, Any]:
        card = tmp_path / f"card{len(extra)}.json"
        base = ["meta-eval", str(slice_file), "--model", "openai/test", "--base-url"]
        code = main(
            [*base, srv.base_url, "--dataset", "summeval", "--limit", "6", "--n-resamples",
             "20", "--card", str(card), "--no-progress", *extra]
        )  # fmt: skip
        assert code == 0
        data: dict[str, Any] = json.loads(card.read_text())
        return data

    with FakeOpenAIServer(record_requests=False) as srv:
        batch = meta(srv, "--batch-api", "--batch-poll", "0.05")
        assert srv.batches.created == 1
        online = meta(srv)
    capsys.readouterr()
    batch.pop("created_at")
    online.pop("created_at")
    assert batch == online  # the same statistics from the same replies


def test_no_key_in_the_manifest_even_in_a_base_url(
    server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = "sk-DO-NOT-KEEP-8d7f6e5d4c"
    url = server.base_url.replace("http://", f"http://user:{secret}@")
    args = flags(server, tmp_path, "b.jsonl", "--batch-api", "--batch-poll", "0.05")
    args[args.index(server.base_url)] = url
    main([*args, "--no-wait"])
    capsys.readouterr()
    files = list((tmp_path / "cache" / "jobs").glob("job-*.json"))
    assert files and server.batches.created == 1
    for file in files:
        assert secret not in file.read_text()
