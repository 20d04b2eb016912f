"""AutoEvaluator and `sumjudge autoeval` on the batch engine: cache, cost cap, resume, report."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from autoeval_helpers import ITEM, NO_WAIT, SECTIONS, TURNS, responder, spec_content
from test_autoeval_http import http_responder

from sumjudge import RateLimitError, ScriptedJudge, load_contact_center_dataset
from sumjudge.autoeval import AutoEvaluator
from sumjudge.cli.main import main
from sumjudge.cost import Price
from sumjudge.errors import ConfigError
from sumjudge.runner import RunSummary
from sumjudge.testing.openai_server import FakeOpenAIServer, Reply

IDS = [item.id for item in load_contact_center_dataset().load()]
PER_RUN = 16  # 4 rubric generations + 4 conversations x 3 metrics


def autoeval(srv: FakeOpenAIServer, *args: str) -> int:
    return main(
        [
            "autoeval",
            *args,
            "--model",
            "openai/fake-model",
            "--base-url",
            srv.base_url,
            "--no-progress",
        ]
    )


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def scores(records: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        r["id"]: [r[m]["score"] for m in ("accuracy", "adherence", "completeness")] for r in records
    }


def test_warm_rerun_makes_zero_requests_rubrics_included(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = ["--cache-dir", str(tmp_path / "cache")]
    with FakeOpenAIServer() as srv:
        srv.responder = http_responder
        first = autoeval(srv, "--example", *cache, "-o", str(tmp_path / "1.jsonl"))
        cold = len(srv.requests)
        err1 = capsys.readouterr().err
        second = autoeval(srv, "--example", *cache, "-o", str(tmp_path / "2.jsonl"))
        warm = len(srv.requests) - cold
        err2 = capsys.readouterr().err
    assert first == 0 and second == 0, err1 + err2
    assert cold == PER_RUN
    assert warm == 0  # rubric generation came from the response cache too
    assert "0 judge call(s)" in err2 and f"{PER_RUN} answered from the response cache" in err2
    one, two = lines(tmp_path / "1.jsonl"), lines(tmp_path / "2.jsonl")
    assert scores(one) == scores(two)
    assert all(r["status"] == "ok" for r in two)
    assert sum(r["meta"]["run"]["judge_calls"] for r in one) == PER_RUN
    assert sum(r["meta"]["run"]["cache_hits"] for r in two) == PER_RUN
    assert all(r["meta"]["run"]["cost_usd"] == 0 for r in two)
    assert "accuracy" in err2 and "Resolved" in err2  # the dataset averages are still printed


def test_dry_run_counts_requests_and_cache_hits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = ["--cache-dir", str(tmp_path / "cache")]
    with FakeOpenAIServer() as srv:
        srv.responder = http_responder
        assert autoeval(srv, "--example", *cache, "--dry-run") == 0
        cold = json.loads(capsys.readouterr().out)
        assert len(srv.requests) == 0
        assert autoeval(srv, "--example", *cache, "-o", str(tmp_path / "o.jsonl")) == 0
        capsys.readouterr()
        assert autoeval(srv, "--example", *cache, "--dry-run") == 0
        warm = json.loads(capsys.readouterr().out)
    assert cold["items"] == 4 and cold["requests"] == PER_RUN
    assert cold["estimated_cost_usd"] > 0 and "notes" in cold  # rubric questions guessed
    # Once run, the rubric directives are read from the cache: every request is exact.
    assert warm["requests"] == PER_RUN and warm["answered_from_response_cache"] == PER_RUN
    assert warm["estimated_cost_usd"] == 0 and "notes" not in warm


def test_max_cost_stops_and_the_rest_is_not_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.jsonl"
    with FakeOpenAIServer() as srv:
        srv.responder = http_responder
        code = autoeval(
            srv,
            "--example",
            "--no-cache",
            "--concurrency",
            "1",
            "--max-cost",
            "0.000001",
            "-o",
            str(out),
            "--summary-json",
            str(tmp_path / "summary.json"),
        )
    err = capsys.readouterr().err
    assert code == 4, err
    assert "max cost $1e-06 reached" in err
    records = lines(out)
    assert Counter(r["status"] for r in records) == {"ok": 1, "not_run": 3}
    assert sorted(r["index"] for r in records) == [0, 1, 2, 3]
    stopped = next(r for r in records if r["status"] == "not_run")
    assert stopped["failures"][0]["reason"].startswith("max cost")
    assert stopped["id"] in IDS
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["not_run"] == 3 and summary["cost_usd"] > 0
    assert summary["averages"]["not_run"] == 3


def test_report_writes_html_with_the_conversation_ids(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "run.html"
    with FakeOpenAIServer() as srv:
        srv.responder = http_responder
        code = autoeval(srv, "--example", "--no-cache", "--report", str(report))
    err = capsys.readouterr().err
    assert code == 0, err
    results = tmp_path / "run.jsonl"
    assert f"results for the report go to {results}" in err
    assert sorted(r["id"] for r in lines(results)) == sorted(IDS)
    html = report.read_text(encoding="utf-8")
    assert html.lstrip().lower().startswith("<!doctype html")
    for conversation_id in IDS:
        assert conversation_id in html
    assert "Devon" in html  # the transcript came from the inputs


def test_resume_skips_finished_indices(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.jsonl"
    with FakeOpenAIServer() as srv:
        srv.responder = http_responder
        assert autoeval(srv, "--example", "--no-cache", "-o", str(out)) == 0
        done = {r["index"]: r for r in lines(out)}
        # Keep 0 and 2 finished, 1 failed, 3 missing (as after a crash).
        failed = {**done[1], "status": "failed"}
        out.write_text(
            "".join(json.dumps(r) + "\n" for r in (done[0], failed, done[2])) + '{"index": 3, "sta'
        )
        before = len(srv.requests)
        code = autoeval(srv, "--example", "--no-cache", "-o", str(out), "--resume")
        bodies = [r["body"] for r in srv.requests[before:]]
    err = capsys.readouterr().err
    assert code == 0, err
    assert "2 item(s) already done" in err
    records = lines(out)
    assert sorted(r["index"] for r in records) == [0, 1, 2, 3]
    assert all(r["status"] == "ok" for r in records)
    accuracy = [b for b in bodies if "accuracy" in b["response_format"]["json_schema"]["name"]]
    assert len(accuracy) == 2  # only conversations 1 and 3 were judged again
    judged = "".join(b["messages"][-1]["content"] for b in accuracy)
    assert IDS[0] not in judged
    data = load_contact_center_dataset().load()
    assert data[1].turns[0].text in judged and data[3].turns[0].text in judged
    assert data[0].turns[0].text not in judged and data[2].turns[0].text not in judged


def test_csv_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "rows.csv"
    src.write_text(
        "key,conv,summ\n"
        'a,"Agent: Thanks for calling ABC.\nCustomer: Where is my order?",Asked about an order.\n'
        "b,,missing transcript\n",
        encoding="utf-8",
    )
    out = tmp_path / "out.jsonl"
    with FakeOpenAIServer() as srv:
        srv.responder = http_responder
        code = autoeval(
            srv,
            str(src),
            "--transcript-column",
            "conv",
            "--summary-column",
            "summ",
            "--id-column",
            "key",
            "--no-cache",
            "--metrics",
            "accuracy",
            "-o",
            str(out),
        )
    err = capsys.readouterr().err
    assert code == 3, err  # row 1 is invalid
    rows = {r["index"]: r for r in lines(out)}
    assert rows[0]["status"] == "ok" and rows[0]["id"] == "a"
    assert rows[1]["status"] == "invalid"


async def test_api_batch_status_failures_skip_and_summary(tmp_path: Path) -> None:
    judge = ScriptedJudge(
        {"accuracy": [RateLimitError("slow down", retry_after=0.0)] * 5},
        responder=responder(content=spec_content),
    )
    ev = AutoEvaluator(
        judge,
        sections=SECTIONS,
        retry_policy=NO_WAIT,
        cache=tmp_path / "c.sqlite3",
        price=Price(input=1.0, output=4.0),
    )
    summary = RunSummary()
    items: list[Any] = [ITEM, {**ITEM, "id": "x"}, {"transcript": TURNS}, {**ITEM, "id": "y"}]
    records = {
        r.index: r async for r in ev.evaluate_batch(items, concurrency=1, skip={3}, summary=summary)
    }
    await ev.aclose()
    assert sorted(records) == [0, 1, 2]
    assert records[0].status == "failed"
    assert records[0].failures[0]["metric"] == "accuracy"
    assert records[0].failures[0]["attempts"] == 5
    assert records[0].to_dict()["failures"][0]["reason"].startswith("RateLimitError")
    assert records[1].status == "ok"  # the scripted 429s are used up
    assert records[2].status == "invalid"
    assert (summary.ok, summary.failed, summary.invalid, summary.skipped) == (1, 1, 1, 1)
    assert summary.cost_usd > 0 and ev.last_summary is summary


async def test_api_cache_shared_between_evaluators_and_max_cost_needs_a_price(
    tmp_path: Path,
) -> None:
    path = tmp_path / "c.sqlite3"
    first = ScriptedJudge(responder=responder(content=spec_content))
    ev = AutoEvaluator(first, sections=SECTIONS, retry_policy=NO_WAIT, cache=path)
    a = [r.to_dict() async for r in ev.evaluate_batch([ITEM])]
    await ev.aclose()
    second = ScriptedJudge(responder=responder(content=spec_content))
    ev = AutoEvaluator(second, sections=SECTIONS, retry_policy=NO_WAIT, cache=path)
    b = [r.to_dict() async for r in ev.evaluate_batch([ITEM])]
    assert len(first.requests) == 5 and len(second.requests) == 0  # rubrics included
    assert {k: v for k, v in a[0].items() if k != "meta"} == {
        k: v for k, v in b[0].items() if k != "meta"
    }
    with pytest.raises(ConfigError, match="max_cost needs a price"):
        async for _ in ev.evaluate_batch([ITEM], max_cost=1.0):
            pass
    await ev.aclose()


async def test_unreadable_reply_is_not_replayed_from_the_cache(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    bad = ScriptedJudge(
        {"accuracy": ["not json", "still not json", "no json"]}, responder=responder()
    )
    ev = AutoEvaluator(
        bad, sections=SECTIONS, metrics=["accuracy"], retry_policy=NO_WAIT, cache=path
    )
    [record] = [r async for r in ev.evaluate_batch([ITEM])]
    await ev.aclose()
    assert record.status == "failed"
    good = ScriptedJudge(responder=responder())
    ev = AutoEvaluator(
        good, sections=SECTIONS, metrics=["accuracy"], retry_policy=NO_WAIT, cache=path
    )
    [again] = [r async for r in ev.evaluate_batch([ITEM])]
    await ev.aclose()
    assert [r.task for r in good.requests] == ["accuracy@2"]  # asked again, not replayed
    assert again.status == "ok"


KEY = "sk-test-DO-NOT-LEAK-77aa0c3e9b"


def test_key_echoed_by_the_provider_is_redacted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    out = tmp_path / "out.jsonl"
    with FakeOpenAIServer() as srv:
        srv.responder = http_responder
        srv.enqueue(Reply.error(401, f"Incorrect API key provided: {KEY}."))
        code = autoeval(
            srv,
            "--example",
            "--concurrency",
            "1",
            "--cache-dir",
            str(tmp_path / "cache"),
            "-o",
            str(out),
            "--summary-json",
            str(tmp_path / "summary.json"),
        )
    captured = capsys.readouterr()
    assert code == 2, captured.err  # the key was refused: the run stopped
    assert "[REDACTED]" in out.read_text()
    assert KEY not in captured.err + captured.out
    for p in tmp_path.rglob("*"):
        if p.is_file():
            assert KEY.encode() not in p.read_bytes(), f"key leaked into {p}"


async def test_conversation_larger_than_the_window_fails_clearly() -> None:
    judge = ScriptedJudge(responder=responder(content=spec_content))
    ev = AutoEvaluator(judge, sections=SECTIONS, retry_policy=NO_WAIT, context_window=500)
    [record] = [r async for r in ev.evaluate_batch([ITEM])]
    assert record.status == "failed" and judge.requests == []
    out = record.to_dict()
    assert out["failures"][0]["kind"] == "context"
    assert "500" in out["error"]["message"]
    assert out["meta"]["context"]["source_seen_fraction"] == 0.0
