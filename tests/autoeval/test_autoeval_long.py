"""Conversations beyond the judge's window: `long_source="chunked"` on the AutoEvaluator."""

from __future__ import annotations

from typing import Any

from autoeval_helpers import NO_WAIT, SECTIONS, SUMMARY, TURNS, responder, spec_content

from sumjudge import JudgeRequest, ScriptedJudge
from sumjudge.autoeval import AutoEvaluator
from sumjudge.tokens import estimate_tokens

# The specification's call, buried in small talk: 5 real turns among 400.
FILLER = [
    {"role": "customer" if i % 2 else "agent", "text": f"Small talk number {i} about the weather."}
    for i in range(395)
]
LONG_TURNS: list[dict[str, Any]] = FILLER[:200] + TURNS + FILLER[200:]
ITEM = {"id": "long-1", "transcript": LONG_TURNS, "summary": SUMMARY}
WINDOW = 8000  # the whole transcript needs ~10,000 tokens with the reply budget
POINTS = [
    {
        "section": "Agent actions",
        "point": "The arrival window is from 01:30 PM to 2:45 PM.",
        "turns": [203],
        "quote": "The arrival window is from 01:30 PM to 2:45 PM",
        "accuracy": "This is accurate.",
        "is_accurate": True,
    }
]


def _answer(request: JudgeRequest) -> Any:
    if request.task.startswith("chunk_notes"):
        return {"key_points": ["The agent gave the arrival window from 01:30 PM to 2:45 PM."]}
    return responder(points=POINTS, content=spec_content)(request)


async def test_a_long_conversation_is_judged_by_parts() -> None:
    judge = ScriptedJudge(responder=_answer)
    ev = AutoEvaluator(
        judge,
        sections=SECTIONS,
        metrics=["accuracy", "adherence", "completeness"],
        context_window=WINDOW,
        long_source="chunked",
        retry_policy=NO_WAIT,
    )
    (record,) = [r async for r in ev.evaluate_batch([ITEM])]
    out = record.to_dict()
    assert record.status == "ok", out
    context = out["meta"]["context"]
    assert context["strategy"] == "chunked" and 203 in context["excerpt_turns"]
    assert context["source_seen_fraction"]["completeness"] == 1.0
    assert 0 < context["source_seen_fraction"]["accuracy"] < 1
    # Every request fits the window; the excerpt keeps the turns' own numbers.
    assert all(estimate_tokens(r.prompt_text()) + r.max_tokens <= WINDOW for r in judge.requests)
    accuracy = next(r for r in judge.requests if r.task.startswith("accuracy"))
    assert "[203] agent (Robyn, 00:00:15): The arrival window" in accuracy.prompt_text()
    assert "[...]" in accuracy.prompt_text()
    completeness = next(r for r in judge.requests if r.task.startswith("completeness"))
    assert "Key points of every part" in completeness.prompt_text()
    assert context["notes_calls"] == sum(r.task.startswith("chunk_notes") for r in judge.requests)
    # The quote is verified against the whole transcript.
    (point,) = out["accuracy"]["decomposition"]
    assert point["quote_verified"] is True and point["turns"] == [203]


async def test_without_chunking_the_same_conversation_fails_before_any_call() -> None:
    judge = ScriptedJudge(responder=_answer)
    ev = AutoEvaluator(judge, sections=SECTIONS, context_window=WINDOW, retry_policy=NO_WAIT)
    (record,) = [r async for r in ev.evaluate_batch([ITEM])]
    assert record.status == "failed" and judge.requests == []
    assert "context window" in record.failures[0]["reason"]


def _long_evaluator(judge: ScriptedJudge, long_source: str) -> AutoEvaluator:
    return AutoEvaluator(
        judge,
        sections=SECTIONS,
        metrics=["accuracy", "adherence", "completeness"],
        context_window=WINDOW,
        long_source=long_source,
        retry_policy=NO_WAIT,
    )


async def test_the_dry_run_counts_what_judging_by_parts_sends() -> None:
    judge = ScriptedJudge(responder=_answer)
    ev = _long_evaluator(judge, "chunked")
    _ = [r async for r in ev.evaluate_batch([ITEM])]
    sent = [r for r in judge.requests if not r.task.startswith("rubric")]
    fresh = _long_evaluator(ScriptedJudge(responder=_answer), "chunked")
    estimate = fresh.estimate_cost([ITEM])
    rubric_requests = sum(r.task.startswith("rubric") for r in judge.requests)
    assert estimate.requests == len(sent) + rubric_requests
    assert any("judged by parts" in n for n in estimate.notes)
    # The notes and the excerpt are counted at their size, not the whole transcript's.
    whole = _long_evaluator(ScriptedJudge(responder=_answer), "fail").plan_requests(ITEM)
    assert estimate.prompt_tokens < 3 * sum(estimate_tokens(r.prompt_text()) for r in whole)


def test_the_dry_run_counts_nothing_for_an_item_that_will_fail() -> None:
    ev = _long_evaluator(ScriptedJudge(responder=_answer), "fail")
    estimate = ev.estimate_cost([ITEM])
    assert (estimate.items, estimate.requests, estimate.prompt_tokens) == (1, 0, 0)
    assert any("will fail before any call" in n for n in estimate.notes)
