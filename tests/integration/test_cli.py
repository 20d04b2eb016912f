"""`sumjudge evaluate` end to end in a subprocess against the local HTTP server."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

from sumjudge.testing.openai_server import FakeOpenAIServer

SRC = "Rina: we ship on Friday. Budi: the budget is 40 million rupiah."


def run_cli(
    *args: str, env_extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update(env_extra or {})
    return subprocess.run(
        [sys.executable, "-m", "sumjudge.cli.main", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def write_csv(path: Path, rows: list[dict[str, str]], fields: list[str]) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=fields)
        w.writeheader()
        for r in rows:
            w.writerow(r)


def test_csv_with_one_bad_row_yields_four_results_and_one_clear_error(tmp_path: Path) -> None:
    rows = [
        {"id": "a", "transcript": SRC, "generated": "They ship Friday."},
        {"id": "b", "transcript": SRC, "generated": "Budget is 40 million rupiah."},
        {"id": "c", "transcript": SRC, "generated": "   "},
        {"id": "d", "transcript": SRC, "generated": "Shipping Friday; budget 40m."},
        {"id": "e", "transcript": SRC, "generated": "Friday ship."},
    ]
    data = tmp_path / "in.csv"
    write_csv(data, rows, ["id", "transcript", "generated"])
    out = tmp_path / "out.jsonl"
    with FakeOpenAIServer() as srv:
        proc = run_cli(
            "evaluate",
            str(data),
            "--model",
            "openai/fake",
            "--base-url",
            srv.base_url,
            "--input-column",
            "transcript",
            "--summary-column",
            "generated",
            "--concurrency",
            "3",
            "-o",
            str(out),
            "--no-progress",
        )
    assert proc.returncode == 3, proc.stderr
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert sorted(r["index"] for r in lines) == [0, 1, 2, 3, 4]
    errors = [r for r in lines if "error" in r]
    results = [r for r in lines if "summary" in r]
    assert len(results) == 4 and len(errors) == 1
    assert errors[0]["index"] == 2 and errors[0]["error"]["field"] == "generated"
    assert "row 2" in proc.stderr and "'generated'" in proc.stderr
    for r in results:
        assert r["summary"]["relevancy_rating"] in ("good", "incomplete", "bad")
        assert r["meta"]["judge"] == "openai/fake"
        assert r["id"] in {"a", "b", "d", "e"}


def test_jsonl_bad_rows_missing_column_wrong_type_invalid_json(tmp_path: Path) -> None:
    data = tmp_path / "in.jsonl"
    data.write_text(
        "\n".join(
            [
                json.dumps({"input": SRC, "summary": "ok"}),
                json.dumps({"input": SRC}),
                json.dumps({"input": SRC, "summary": 42}),
                "{not json",
            ]
        )
        + "\n"
    )
    out = tmp_path / "out.jsonl"
    with FakeOpenAIServer() as srv:
        proc = run_cli(
            "evaluate",
            str(data),
            "--model",
            "openai/fake",
            "--base-url",
            srv.base_url,
            "-o",
            str(out),
            "--no-progress",
            "--metrics",
            "fluency",
        )
    lines = {r["index"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert "summary" in lines[0]
    assert lines[1]["error"]["field"] == "summary" and "missing" in lines[1]["error"]["message"]
    assert lines[2]["error"]["field"] == "summary" and "int" in lines[2]["error"]["message"]
    assert "invalid JSON" in lines[3]["error"]["message"]
    assert proc.returncode == 3


def test_single_pair_prints_the_spec_json(tmp_path: Path) -> None:
    (tmp_path / "t.txt").write_text(SRC)
    (tmp_path / "s.md").write_text("They ship on Friday with a 40 million rupiah budget.")
    with FakeOpenAIServer() as srv:
        proc = run_cli(
            "evaluate",
            "--input-file",
            str(tmp_path / "t.txt"),
            "--summary-file",
            str(tmp_path / "s.md"),
            "--model",
            "openai/fake",
            "--base-url",
            srv.base_url,
        )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert set(doc["summary"]) >= {"relevancy_rating", "avg_score", "coherence", "fluency"}


def test_missing_key_is_a_clear_config_error() -> None:
    proc = run_cli("evaluate", "--example", "--model", "google/gemini-2.5-flash")
    assert proc.returncode == 2
    assert "GOOGLE_API_KEY" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_default_model_announcement_prefers_present_keys() -> None:
    from sumjudge.cli._common import choose_model

    assert choose_model("openai/x", None) == "openai/x"
    os.environ["OPENAI_API_KEY"] = "sk-test-not-real"
    try:
        assert choose_model(None, None).startswith("openai/")
    finally:
        del os.environ["OPENAI_API_KEY"]
    assert choose_model(None, None) == "local"


def test_report_flag_writes_html_next_to_results(tmp_path: Path) -> None:
    report = tmp_path / "r.html"
    with FakeOpenAIServer() as srv:
        proc = run_cli(
            "evaluate",
            "--example",
            "--model",
            "openai/fake",
            "--base-url",
            srv.base_url,
            "--report",
            str(report),
            "--no-progress",
            "--no-cache",
        )
    assert proc.returncode in (0, 3), proc.stderr
    html = report.read_text(encoding="utf-8")
    results = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert len(results) == 6
    assert html.startswith("<!DOCTYPE html>") or html.lower().startswith("<!doctype html>")
    # nothing is fetched at view time (XML namespace URIs inside the SVGs are not fetches)
    for attr in ('src="http', "src='http", 'href="http', "href='http", "url(http", "@import"):
        assert attr not in html
    for r in results:
        assert r["id"] in html


def test_http_client_flag_chooses_the_openai_path(tmp_path: Path) -> None:
    data = tmp_path / "in.csv"
    write_csv(
        data,
        [{"id": "a", "input": SRC, "summary": "They ship Friday."}],
        ["id", "input", "summary"],
    )
    agents = {}
    for path in ("sdk", "direct"):
        with FakeOpenAIServer() as srv:
            proc = run_cli(
                "evaluate",
                str(data),
                "--model",
                "openai/fake",
                "--base-url",
                srv.base_url,
                "--metrics",
                "fluency",
                "--http-client",
                path,
                "--no-cache",
                env_extra={"SUMJUDGE_HTTP_CLIENT": ""},
            )
            assert proc.returncode == 0, proc.stderr
            agents[path] = srv.requests[0]["headers"].get("user-agent", "")
    assert agents["direct"].startswith("sumjudge/")
    assert not agents["sdk"].startswith("sumjudge/")
