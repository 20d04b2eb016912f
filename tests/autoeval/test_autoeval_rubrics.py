"""Rubric questions: generated once per distinct definition, cached in memory and on disk."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from autoeval_helpers import ACTIONS, ITEM, NO_WAIT, SECTIONS, TURNS, responder

from sumjudge import RequestError, ScriptedJudge
from sumjudge.autoeval import AutoEvaluator, RubricCache, SectionDefinition


def conversations(n: int) -> list[dict[str, Any]]:
    return [
        {
            "id": f"c{i}",
            "transcript": [*TURNS, {"role": "customer", "text": f"Ticket {i}, thanks."}],
            "summary": ITEM["summary"],
        }
        for i in range(n)
    ]


async def test_questions_generated_once_for_twenty_conversations() -> None:
    judge = ScriptedJudge(responder=responder(), delay=0.001)
    ev = AutoEvaluator(judge, sections=SECTIONS, retry_policy=NO_WAIT)
    records = [r async for r in ev.evaluate_batch(conversations(20), concurrency=8)]
    assert len(records) == 20 and all(r.result is not None for r in records)
    rubric_calls = judge.requests_for("rubric")
    # two free-form definitions (Agent actions, Call reason); the categorical one needs none
    assert len(rubric_calls) == 2
    assert {r.messages[-1].parts[0].splitlines()[1] for r in rubric_calls} == {
        "Name: Agent actions",
        "Name: Call reason",
    }
    assert len(judge.requests_for("accuracy")) == 20
    assert len(judge.requests_for("adherence")) == 20
    assert len(judge.requests_for("completeness")) == 20
    assert len(judge.requests) == 62
    assert ev.rubrics.generated == 2


async def test_disk_cache_is_reused_by_a_new_evaluator(tmp_path: Path) -> None:
    path = tmp_path / "rubrics.json"
    first = ScriptedJudge(responder=responder())
    ev = AutoEvaluator(first, sections=SECTIONS, rubric_cache=path, retry_policy=NO_WAIT)
    await ev.evaluate(ITEM)
    assert len(first.requests_for("rubric")) == 2
    stored = json.loads(path.read_text())
    assert sorted(e["section"] for e in stored.values()) == ["Agent actions", "Call reason"]
    assert all(e["task"] == "rubric@2" for e in stored.values())

    second = ScriptedJudge(responder=responder())
    ev2 = AutoEvaluator(second, sections=SECTIONS, rubric_cache=str(path), retry_policy=NO_WAIT)
    out = await ev2.evaluate(ITEM)
    assert second.requests_for("rubric") == []
    assert out["adherence"]["sections"]["Agent actions"]["questions"] == 5


async def test_changed_definition_gets_new_questions() -> None:
    cache = RubricCache()
    judge = ScriptedJudge(responder=responder())
    changed = SectionDefinition(
        name=ACTIONS.name, kind="custom", instruction=ACTIONS.instruction + " Be brief."
    )
    for sections in ([ACTIONS], [ACTIONS], [changed]):
        ev = AutoEvaluator(judge, sections=sections, rubric_cache=cache, retry_policy=NO_WAIT)
        await ev.evaluate({**ITEM, "summary": {"Agent actions": "Robyn helped."}})
    assert len(judge.requests_for("rubric")) == 2
    assert cache.generated == 2


async def test_failed_generation_is_reported_and_not_cached() -> None:
    judge = ScriptedJudge(
        {"rubric": [RequestError("bad request", status=400)]}, responder=responder()
    )
    ev = AutoEvaluator(
        judge, sections=[ACTIONS], metrics=["adherence", "completeness"], retry_policy=NO_WAIT
    )
    out = await ev.evaluate(ITEM)
    section = out["adherence"]["sections"]["Agent actions"]
    assert section["score"] is None
    assert "RequestError" in section["error"]
    assert out["adherence"]["score"] is None and "Agent actions" in out["adherence"]["error"]
    # both metrics waited on the same failed generation: one request, not two
    assert len(judge.requests_for("rubric")) == 1
    again = await ev.evaluate(ITEM)
    assert again["adherence"]["sections"]["Agent actions"]["score"] == 100.0
    assert len(judge.requests_for("rubric")) == 2
