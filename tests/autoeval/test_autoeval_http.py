"""End to end over real HTTP: the OpenAI adapter against the local fake server, and the CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from autoeval_helpers import ITEM, NO_WAIT, SECTIONS, TURNS

from sumjudge.autoeval import AutoEvaluator
from sumjudge.cli.main import main

server_module = pytest.importorskip(
    "sumjudge.testing.openai_server", reason="sumjudge.testing.openai_server is not available"
)
FakeOpenAIServer = server_module.FakeOpenAIServer
Reply = server_module.Reply

_QUESTION = re.compile(r"^(Q\d+) \(section \"(.+?)\"\): (.*)$", re.MULTILINE)


def http_responder(body: dict[str, Any]) -> Any:
    """Valid replies for every autoevaluation request, chosen by the schema name."""
    name = body["response_format"]["json_schema"]["name"]
    prompt = body["messages"][-1]["content"]
    questions = _QUESTION.findall(prompt)
    if name == "section_rubric":
        section = re.search(r"Name: (.*)", prompt)
        assert section
        return Reply.json(
            {"analysis": "One thing.", "directives": [f"Describe {section.group(1).strip()}"]}
        )
    if name == "accuracy_decomposition":
        quote = "the arrival window is from 01:30 PM to 2:45 PM" if "Robyn" in prompt else "zzz"
        return Reply.json(
            {
                "decomposition": [
                    {
                        "section": "Agent actions" if "Robyn" in prompt else "Action",
                        "point": "A point.",
                        "turns": [3],
                        "quote": quote,
                        "accuracy": "This is accurate.",
                        "is_accurate": True,
                    }
                ]
            }
        )
    if name == "adherence_rubrics":
        return Reply.json(
            {
                "rubrics": [
                    {"id": q, "reasoning": "Followed.", "is_addressed": True}
                    for q, _, _ in questions
                ]
            }
        )
    if name == "completeness_rubrics":
        item = {
            "transcript_content": "Something.",
            "related_content_from_summary": "Something.",
            "is_covered": True,
        }
        return Reply.json({"rubrics": [{"id": q, "content_list": [item]} for q, _, _ in questions]})
    raise AssertionError(name)


async def test_through_the_openai_adapter() -> None:
    with FakeOpenAIServer() as srv:
        srv.responder = http_responder
        srv.enqueue(Reply.error(429, headers={"Retry-After": "0"}))  # retried by the runner
        ev = AutoEvaluator(
            "openai/fake-model",
            model_credentials="sk-test",
            base_url=srv.base_url,
            sections=SECTIONS,
            retry_policy=NO_WAIT,
        )
        try:
            out = await ev.evaluate(ITEM)
        finally:
            await ev.aclose()
        bodies = [r["body"] for r in srv.requests]
    assert out["accuracy"]["score"] == 100.0
    assert out["accuracy"]["decomposition"][0]["quote_verified"] is True
    assert out["adherence"]["score"] == 50.0  # Agent actions 1/1, Resolved (prose) 0/1
    assert out["completeness"]["score"] == 100.0
    formats = [b["response_format"]["json_schema"]["name"] for b in bodies]
    # 1 rejected + accuracy, adherence, completeness + 2 rubric generations
    assert len(formats) == 6
    assert sorted(formats[1:]) == sorted(
        ["accuracy_decomposition", "adherence_rubrics", "completeness_rubrics"]
        + ["section_rubric"] * 2
    )
    assert all(b["response_format"]["json_schema"]["strict"] is True for b in bodies)


async def test_default_schema_filler_replies_become_data() -> None:
    """The server's default replies fit the schemas but not our ids: errors, not crashes."""
    with FakeOpenAIServer() as srv:
        ev = AutoEvaluator(
            "openai/fake-model",
            model_credentials="sk-test",
            base_url=srv.base_url,
            sections=SECTIONS,
            retry_policy=NO_WAIT,
        )
        try:
            out = await ev.evaluate(ITEM)
        finally:
            await ev.aclose()
    points = out["accuracy"]["decomposition"]
    assert points and all(p["quote_verified"] is False for p in points)  # invented quotes
    assert out["accuracy"]["unverified_quotes"] == len(points)
    # a filled-in reply misses our question ids (an error) unless a repair got them right
    for metric in ("adherence", "completeness"):
        body = out[metric]
        assert "no answer for question" in body.get("error", "") or body["score"] is not None
    assert out["adherence"]["sections"]["Resolved"]["score"] == 0.0  # deterministic still


def test_cli_example(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.jsonl"
    with FakeOpenAIServer() as srv:
        srv.responder = http_responder
        code = main(
            [
                "autoeval",
                "--example",
                "--base-url",
                srv.base_url,
                "--model",
                "openai/fake-model",
                "--concurrency",
                "2",
                "--no-progress",
                "--rubric-cache",
                str(tmp_path / "rubrics.json"),
                "--cache-dir",
                str(tmp_path / "cache"),
                "-o",
                str(out),
            ]
        )
        rubric_requests = sum(
            1
            for r in srv.requests
            if r["body"]["response_format"]["json_schema"]["name"] == "section_rubric"
        )
    err = capsys.readouterr().err
    assert code == 0, err
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["id"] for r in records) == sorted(
        [
            "cc-telecom-outage-credit",
            "cc-retail-mouse-return",
            "cc-utility-smart-meter-appointment",
            "cc-subscription-duplicate-charge",
        ]
    )
    assert rubric_requests == 4  # Situation, Action, Key details, Resolution: once each
    mouse = next(r for r in records if r["id"] == "cc-retail-mouse-return")
    assert mouse["adherence"]["sections"]["Resolved"]["rubrics"][0]["is_addressed"] == "False"
    assert "accuracy" in err and "adherence" in err and "completeness" in err
    assert "Resolved" in err and "4 conversation(s) judged, 0 with errors" in err
    assert json.loads((tmp_path / "rubrics.json").read_text())


def test_cli_file_with_bad_row(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = tmp_path / "rows.jsonl"
    rows.write_text(
        json.dumps({"id": "a", "transcript": TURNS, "summary": ITEM["summary"]})
        + "\n"
        + json.dumps({"id": "b", "transcript": TURNS})
        + "\n"
    )
    sections = tmp_path / "sections.json"
    sections.write_text(json.dumps([s.model_dump() for s in SECTIONS]))
    with FakeOpenAIServer() as srv:
        srv.responder = http_responder
        code = main(
            [
                "autoeval",
                str(rows),
                "--sections",
                str(sections),
                "--base-url",
                srv.base_url,
                "--metrics",
                "adherence,completeness",
                "--no-progress",
                "--no-cache",
            ]
        )
    captured = capsys.readouterr()
    assert code == 3
    assert "sumjudge: error: row 1, field 'summary': is missing" in captured.err
    lines = [json.loads(line) for line in captured.out.splitlines()]
    assert {line["index"] for line in lines} == {0, 1}
    good = next(line for line in lines if line["index"] == 0)
    assert list(good)[:5] == ["index", "status", "id", "adherence", "completeness"]


def test_cli_long_source_chunked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--long-source chunked` on `autoeval`: a conversation beyond the window is judged."""
    filler = [{"role": "agent", "text": f"Filler turn {i} about nothing."} for i in range(300)]
    rows = tmp_path / "rows.jsonl"
    row = {"id": "a", "transcript": [*TURNS, *filler], "summary": ITEM["summary"]}
    rows.write_text(json.dumps(row) + "\n")
    sections = tmp_path / "sections.json"
    sections.write_text(json.dumps([s.model_dump() for s in SECTIONS]))

    def answer(body: dict[str, Any]) -> Any:
        if body["response_format"]["json_schema"]["name"] == "chunk_notes":
            return Reply.json({"key_points": ["The agent gave the arrival window."]})
        return http_responder(body)

    common = ["autoeval", str(rows), "--sections", str(sections), "--no-progress", "--no-cache"]
    with FakeOpenAIServer() as srv:
        srv.responder = answer
        flags = ["--base-url", srv.base_url, "--context-window", "7000"]
        failed = main([*common, *flags])
        failed_out = capsys.readouterr().out
        code = main([*common, *flags, "--long-source", "chunked"])
    out = json.loads(capsys.readouterr().out.splitlines()[0])
    assert failed == 3 and "context window" in failed_out
    assert code == 0 and out["status"] == "ok", out
    assert out["meta"]["context"]["strategy"] == "chunked"
    assert out["meta"]["context"]["notes_calls"] >= 1
