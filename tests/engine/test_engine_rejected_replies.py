"""A reply the reader rejects is never kept in the response cache (both evaluators).

Run once against a judge that answers prose (unusable, and so is the repair re-ask), then
again against a good judge with the same cache: the second run must ask again and score.
"""

from __future__ import annotations

from pathlib import Path

from sumjudge import ScriptedJudge, SummarizationEvaluator
from sumjudge.autoeval import AutoEvaluator
from sumjudge.cache import ResponseCache

GOOD = {"explanation": "Faithful and clear.", "score": 3}
ITEM = {"input": "Rina: we ship on Friday.", "summary": "The team ships on Friday."}
CONVERSATION = {
    "transcript": "Agent: Hello, how can I help?\nCustomer: My card was charged twice.",
    "summary": "The customer was charged twice.",
}
POINTS = {
    "decomposition": [
        {
            "section": "summary",
            "point": "The customer was charged twice.",
            "turns": [2],
            "quote": "My card was charged twice",
            "accuracy": "This is accurate.",
            "is_accurate": True,
        }
    ]
}


async def test_summarization_evaluate_does_not_keep_an_unparseable_reply(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    prose = ScriptedJudge(responder=lambda r: "I would rather not say.", name="scripted/j")
    first = SummarizationEvaluator(prose, enabled_metrics=["coherence"], cache=cache)
    out = await first.evaluate(ITEM)
    assert out["summary"]["coherence"]["score"] is None and len(prose.requests) == 3
    assert len(cache) == 0  # neither the reply nor the two repairs' replies were kept

    good = ScriptedJudge(responder=lambda r: GOOD, name="scripted/j")
    second = SummarizationEvaluator(good, enabled_metrics=["coherence"], cache=cache)
    again = await second.evaluate(ITEM)
    assert len(good.requests) == 1 and again["summary"]["coherence"]["score"] == 3
    third = SummarizationEvaluator(good, enabled_metrics=["coherence"], cache=cache)
    assert (await third.evaluate(ITEM))["summary"]["coherence"]["score"] == 3
    assert len(good.requests) == 1  # the accepted reply is served from the cache


async def test_autoevaluator_does_not_keep_an_unparseable_reply(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    prose = ScriptedJudge(responder=lambda r: "No JSON from me.", name="scripted/j")
    first = AutoEvaluator(prose, metrics=["accuracy"], cache=cache)
    out = await first.evaluate(CONVERSATION)
    assert out["accuracy"]["score"] is None and "error" in out["accuracy"]
    assert len(prose.requests) == 3 and len(cache) == 0

    good = ScriptedJudge(responder=lambda r: POINTS, name="scripted/j")
    second = AutoEvaluator(good, metrics=["accuracy"], cache=cache)
    again = await second.evaluate(CONVERSATION)
    assert len(good.requests) == 1 and again["accuracy"]["score"] == 100.0
