"""Accuracy and the foundation's consistency share one decomposition."""

from __future__ import annotations

from typing import Any

from autoeval_helpers import ITEM, NO_WAIT, SECTIONS, responder

from sumjudge import ScriptedJudge
from sumjudge.autoeval import AutoEvaluator


def point(ok: bool, text: str) -> dict[str, Any]:
    return {
        "section": "Agent actions",
        "point": text,
        "turns": [3],
        "quote": "The arrival window is from 01:30 PM",
        "accuracy": "This is accurate." if ok else "This is inaccurate. Wrong amount.",
        "is_accurate": ok,
    }


async def test_accuracy_and_consistency_decompose_once() -> None:
    points = [point(True, "A."), point(True, "B."), point(False, "C."), point(True, "D.")]
    judge = ScriptedJudge(responder=responder(points=points))
    ev = AutoEvaluator(
        judge, sections=SECTIONS, metrics=["accuracy", "consistency"], retry_policy=NO_WAIT
    )
    out = await ev.evaluate(ITEM)
    assert [r.task for r in judge.requests] == ["accuracy@2"]  # one decomposition, no more
    consistency = out["consistency"]
    assert consistency["score"] == 2  # a minority (1 of 4) inaccurate
    assert consistency["score_mode"] == "derived_from_accuracy"
    assert "Derived from the accuracy decomposition" in consistency["score_mode_note"]
    assert "1 of 4 points are inaccurate: [Agent actions] C." in consistency["explanation"]
    assert out["accuracy"]["score"] == 75.0
    assert ev.metric_versions["consistency"] == "3+accuracy-2"


async def test_derived_consistency_extremes_and_failure() -> None:
    cases = [([point(True, "A.")] * 3, 3), ([point(False, "A."), point(True, "B.")], 1)]
    for points, expected in cases:
        judge = ScriptedJudge(responder=responder(points=points))
        ev = AutoEvaluator(judge, metrics=["consistency", "accuracy"], retry_policy=NO_WAIT)
        out = await ev.evaluate(ITEM)
        assert list(out) == ["id", "consistency", "accuracy"]
        assert out["consistency"]["score"] == expected
    judge = ScriptedJudge({"accuracy": ["not json", "still not json", "no json"]})
    ev = AutoEvaluator(judge, metrics=["accuracy", "consistency"], retry_policy=NO_WAIT)
    out = await ev.evaluate(ITEM)
    assert out["accuracy"]["score"] is None and "unparseable" in out["accuracy"]["error"]
    assert out["consistency"]["score"] is None
    assert out["consistency"]["error"].startswith("accuracy failed: unparseable")
    assert len(judge.requests) == 3  # the request and its two repairs


async def test_consistency_alone_uses_the_foundation_metric() -> None:
    judge = ScriptedJudge(responder=responder())
    ev = AutoEvaluator(judge, metrics=["consistency"], retry_policy=NO_WAIT)
    out = await ev.evaluate(ITEM)
    assert [r.task for r in judge.requests] == ["consistency@3"]
    assert out["consistency"]["score"] == 3 and out["consistency"]["score_mode"] == "parsed"
    source = judge.requests[0].messages[1].parts[0]
    assert "[3] agent (Robyn, 00:00:15): The arrival window" in source
