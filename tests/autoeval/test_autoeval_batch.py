"""Batches, loaders, failures as data and dataset-level averages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from autoeval_helpers import ITEM, NO_WAIT, SECTIONS, TURNS, responder, spec_content

from sumjudge import DataError, RateLimitError, ScriptedJudge, load_contact_center_dataset
from sumjudge.autoeval import AutoEvaluator, DatasetSummary
from sumjudge.datasets.conversations import load_sections, read_conversation_rows

POINT = {
    "section": "Agent actions",
    "point": "The window is 1:30 to 2:45.",
    "turns": [3],
    "quote": "from 01:30 PM to 2:45 PM",
    "accuracy": "This is accurate.",
    "is_accurate": True,
}


async def test_bad_items_become_records_and_others_still_run() -> None:
    items: list[Any] = [
        ITEM,
        {"transcript": TURNS},
        {"transcript": [{"role": "agent", "text": "  "}], "summary": "x"},
        {"transcript": TURNS, "summary": {"Resolved": 3}},
        DataError("invalid JSON", item=4),
        "not a mapping",
        {**ITEM, "id": 7},
    ]
    judge = ScriptedJudge(responder=responder(points=[POINT], content=spec_content))
    ev = AutoEvaluator(judge, sections=SECTIONS, retry_policy=NO_WAIT)
    records = sorted(
        [r async for r in ev.evaluate_batch(items, concurrency=3)], key=lambda r: r.index
    )
    assert [r.error is None for r in records] == [True, False, False, False, False, False, True]
    assert str(records[1].error) == "row 1, field 'summary': is missing"
    assert (
        str(records[2].error) == "row 2, field 'transcript[1].text': Value error, must not be empty"
    )
    assert str(records[3].error) == "row 3, field 'summary.Resolved': must be text, got int"
    assert str(records[4].error) == "row 4: invalid JSON"
    assert "row 5" in str(records[5].error)
    assert records[6].id == "7"
    out = records[1].to_dict()
    assert out == {
        "index": 1,
        "status": "invalid",
        "error": {
            "field": "summary",
            "message": "is missing",
            "text": "row 1, field 'summary': is missing",
        },
    }
    good = records[0].to_dict()
    assert good["meta"]["judge"] == "scripted/judge"
    assert good["meta"]["metric_versions"] == {
        "accuracy": "2",
        "adherence": "2+rubric@2",
        "completeness": "2+rubric@2",
    }
    assert good["meta"]["calls"] == 3
    json.dumps(good)


async def test_provider_failure_is_data_not_an_exception() -> None:
    judge = ScriptedJudge(
        {"accuracy": [RateLimitError("slow down", retry_after=0.0)] * 5}, responder=responder()
    )
    ev = AutoEvaluator(judge, sections=SECTIONS, retry_policy=NO_WAIT)
    result = await ev.evaluate_result(ITEM)
    out = result.to_dict()
    assert out["accuracy"]["score"] is None
    assert out["accuracy"]["error"].startswith("RateLimitError: slow down (after 5 attempts)")
    assert out["adherence"]["score"] == 83.33  # the other metrics still ran (5 of 6)
    assert "accuracy" in result.errors


async def test_unparseable_reply_gets_one_repair() -> None:
    judge = ScriptedJudge(
        {"accuracy": ['{"decomposition": [{"point": "x"}]}', {"decomposition": [POINT]}]},
        responder=responder(),
    )
    ev = AutoEvaluator(judge, sections=SECTIONS, metrics=["accuracy"], retry_policy=NO_WAIT)
    out = await ev.evaluate(ITEM)
    assert out["accuracy"]["score"] == 100.0
    assert [r.task for r in judge.requests] == ["accuracy@2", "accuracy@2:repair"]
    assert "decomposition item 1" in judge.requests[1].messages[-1].content


async def test_dataset_summary_averages() -> None:
    data = load_contact_center_dataset()
    judge = ScriptedJudge(responder=responder(points=[POINT], content=spec_content))
    ev = AutoEvaluator(judge, sections=data.sections(), retry_policy=NO_WAIT)
    summary = DatasetSummary()
    async for record in ev.evaluate_batch([*data.load(), {"transcript": "x"}]):
        summary.add(record)
    out = summary.to_dict()
    assert out["items"] == 5 and out["item_errors"] == 1
    adherence = out["metrics"]["adherence"]
    # item 1 answers the categorical "Resolved" with prose: 0% there, 100% elsewhere
    assert adherence["sections"]["Resolved"] == {"average": 75.0, "scored": 4}
    assert adherence["sections"]["Customer sentiment"] == {"average": 100.0, "scored": 4}
    assert "Situation" not in adherence["sections"]  # prebuilt: N/A everywhere
    assert out["metrics"]["accuracy"]["average"] == 100.0
    text = summary.render()
    assert "adherence" in text and "Resolved" in text


def test_load_sections_yaml_and_json(tmp_path: Path) -> None:
    data = load_contact_center_dataset()
    sections = data.sections()
    assert [s.name for s in sections] == [
        "Situation",
        "Action",
        "Key details",
        "Resolution",
        "Customer sentiment",
        "Resolved",
    ]
    assert [s.kind for s in sections[:3]] == ["prebuilt", "prebuilt", "custom"]
    assert sections[5].allowed_values == ("Yes", "No")
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"sections": [s.model_dump() for s in sections]}))
    assert load_sections(path) == sections
    bad = tmp_path / "bad.yaml"
    bad.write_text("- name: A\n  instruction: ''\n")
    with pytest.raises(DataError, match=r"section 0.*instruction"):
        load_sections(bad)
    dup = tmp_path / "dup.yaml"
    dup.write_text("- {name: A, instruction: x}\n- {name: a, instruction: y}\n")
    with pytest.raises(DataError, match="defined twice"):
        load_sections(dup)


def test_read_conversation_rows(tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    rows = [
        {"conv": TURNS, "summ": {"A": "b"}, "key": 1},
        {"conv": "Agent: hi", "summ": ""},
        {"summ": "x"},
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n{broken\n")
    got = list(
        read_conversation_rows(
            path, transcript_column="conv", summary_column="summ", id_column="key"
        )
    )
    assert got[0].id == "1" and len(got[0].turns) == 5  # type: ignore[union-attr]
    assert str(got[1]) == "row 1, field 'summ': Value error, must not be empty"
    assert str(got[2]) == "row 2, field 'conv': is missing"
    assert isinstance(got[3], DataError) and "invalid JSON" in str(got[3])


def test_bundled_contact_center_dataset() -> None:
    data = load_contact_center_dataset()
    items = data.load()
    assert [i.id for i in items][:1] == ["cc-telecom-outage-credit"]
    assert len(items) == 4
    assert items[0].turns[4].name == "Devon"
    assert items[2].turns[0].timestamp is None
    assert all("notes" in r for r in data.rows())
