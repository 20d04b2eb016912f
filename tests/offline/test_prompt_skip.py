"""A judge that reads no prompt (the offline judge) is sent requests without messages.

`Capabilities.reads_prompt` False: the metrics build the same requests (task, kind,
subject, schema, sampling) with empty `messages`. The results must be exactly those of a
run that renders the prompt; an LLM judge must still get the whole prompt; and a request
without messages must be told apart by its subject in the fingerprint, while every request
with messages keeps the key it always had.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from sumjudge import ScriptedJudge, SummarizationEvaluator, load_contact_center_dataset
from sumjudge.autoeval import AutoEvaluator
from sumjudge.metrics import SUMMARY_METRICS
from sumjudge.offline import OfflineScorer
from sumjudge.offline.backend import OfflineJudge
from sumjudge.protocol import (
    LLM_CAPABILITIES,
)

ROWS = [
    json.loads(line)
    for line in (Path(__file__).parents[1] / "data" / "summeval_slice.jsonl").open()
][:6]
ITEMS = [{"input": r["source"], "summary": r["summary"], "id": r["id"]} for r in ROWS]
LAYOUTS: list[dict[str, Any]] = [
    {},
    {"prompt_layout": "rubrics_first"},
    {"single_call": True},
]


def _judges(scorer: OfflineScorer) -> tuple[OfflineJudge, OfflineJudge]:
    """The offline judge as it is (no prompt) and the same judge made to read one."""
    skipping = OfflineJudge("local-lexical", scorer=scorer)
    rendering = OfflineJudge("local-lexical", scorer=scorer)
    rendering.capabilities = replace(rendering.capabilities, reads_prompt=True)
    return skipping, rendering


async def _records(evaluator: Any, items: Any) -> list[dict[str, Any]]:
    """Every record's JSON, in input order (they come as items finish)."""
    records = [r.to_dict() async for r in evaluator.evaluate_batch(items)]
    return sorted(records, key=lambda r: r["index"])


def test_the_offline_judge_reads_no_prompt_and_llm_judges_do() -> None:
    judge = OfflineJudge("local-lexical", scorer=OfflineScorer(use_embeddings=False))
    assert judge.capabilities.reads_prompt is False
    assert LLM_CAPABILITIES.reads_prompt is True
    assert ScriptedJudge().capabilities.reads_prompt is True


@pytest.mark.parametrize("layout", LAYOUTS, ids=["default", "rubrics_first", "single_call"])
async def test_summaries_judged_alike_with_and_without_the_prompt(
    lex: OfflineScorer, layout: dict[str, Any]
) -> None:
    skipping, rendering = _judges(lex)
    bare = SummarizationEvaluator(model=skipping, **layout)
    full = SummarizationEvaluator(model=rendering, **layout)
    for item in ITEMS:
        sent, shown = bare.plan_requests(item), full.plan_requests(item)
        assert [r.messages for r in sent] == [()] * len(shown)
        assert all(r.messages for r in shown)
        # the same request in every other respect (equality covers task, schema, sampling)
        assert [replace(r, messages=()) for r in shown] == sent
        assert [(r.kind, r.subject) for r in shown] == [(r.kind, r.subject) for r in sent]
    records = [await _records(bare, ITEMS), await _records(full, ITEMS)]
    assert records[0] == records[1]
    assert all(r["status"] == "ok" for r in records[0])


async def test_conversations_judged_alike_with_and_without_the_prompt(
    lex: OfflineScorer,
) -> None:
    data = load_contact_center_dataset()
    skipping, rendering = _judges(lex)
    out = []
    for judge, metrics in [(j, m) for m in (None, ["consistency"]) for j in (skipping, rendering)]:
        ev = AutoEvaluator(model=judge, sections=data.sections(), metrics=metrics)
        requests = [r for item in data.load() for r in ev.plan_requests(item)]
        assert requests and all(bool(r.messages) is (judge is rendering) for r in requests)
        out.append(await _records(ev, data.load()))
    assert out[0] == out[1] and out[2] == out[3]
    assert len(out[0]) == 4 and all(r["status"] == "ok" for r in out[0] + out[2])


async def test_an_llm_judge_still_gets_the_whole_prompt() -> None:
    reply = {"explanation": "Fine.", "score": 3}
    judge = ScriptedJudge(responder=lambda request: reply)
    ev = SummarizationEvaluator(model=judge, logprobs=False)
    item = ITEMS[0]
    await ev.evaluate(item)
    for request in judge.requests:
        metric = SUMMARY_METRICS[request.task.split("@")[0]]
        expected = metric.build_request(item["input"], item["summary"], logprobs=False)
        assert request.messages == expected.messages
        assert item["input"].strip() in request.prompt_text()
    assert len(judge.requests) == 4


async def test_an_llm_judge_still_gets_the_whole_conversation_prompt() -> None:
    data = load_contact_center_dataset()
    judge = ScriptedJudge(responder=lambda request: {"decomposition": []})
    ev = AutoEvaluator(model=judge, sections=data.sections(), metrics=["accuracy"])
    item = next(iter(data.load()))
    await ev.evaluate(item)
    [request] = judge.requests
    system, user = request.messages
    assert system.role == "system" and "careful evaluator" in system.content
    assert "<transcript-" in user.parts[0] and "Task: check the summary's ACCURACY" in user.parts[1]
    assert all(turn.text in user.parts[0] for turn in item.turns)


def test_two_offline_items_never_share_a_key(lex: OfflineScorer) -> None:
    """Their tasks and schemas are the same; their subjects are not."""
    bare = SummarizationEvaluator(model=OfflineJudge("local-lexical", scorer=lex))
    keys = {r.fingerprint() for item in ITEMS for r in bare.plan_requests(item)}
    assert len(keys) == 4 * len(ITEMS)


async def test_dry_run_and_window_check_of_a_judge_that_reads_no_prompt(
    lex: OfflineScorer,
) -> None:
    skipping, rendering = _judges(lex)
    bare = SummarizationEvaluator(model=skipping).estimate_cost(ITEMS).to_dict()
    full = SummarizationEvaluator(model=rendering).estimate_cost(ITEMS).to_dict()
    assert bare["requests"] == full["requests"] == 4 * len(ITEMS)
    assert bare["estimated_prompt_tokens"] == 0 < full["estimated_prompt_tokens"]
    assert bare["estimated_cost_usd"] == full["estimated_cost_usd"] == 0
    # a window, if one is given, is not filled by a prompt the judge never reads
    small = SummarizationEvaluator(model=skipping, context_window=1100)
    [record] = [r async for r in small.evaluate_batch(ITEMS[:1])]
    assert record.status == "ok"
