"""SummarizationEvaluator with the scripted judge: shapes, failures, repair, retries."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sumjudge import (
    DataError,
    JudgeResponse,
    MissingCredentialsError,
    RateLimitError,
    RequestError,
    RetryPolicy,
    ScriptedJudge,
    SummarizationEvaluator,
    SummaryData,
    TokenLogprob,
    load_simple_summarization_dataset,
)

NO_WAIT = RetryPolicy(initial_delay=0.0, max_delay=0.0, max_retry_after=0.0, jitter=False)
DATA = SummaryData(input="Rina: we ship on Friday. Budi: agreed.", summary="They ship Friday.")
SPEC_KEYS = [
    "global_explanation",
    "relevancy_rating",
    "score",
    "possible_issues",
    "binary_score",
    "avg_score",
    "coherence",
    "consistency",
    "relevance",
    "fluency",
]


def verdict(score: int, text: str = "Because.") -> dict[str, Any]:
    return {"explanation": text, "score": score}


def evaluator(judge: ScriptedJudge, **kw: Any) -> SummarizationEvaluator:
    return SummarizationEvaluator(judge, retry_policy=NO_WAIT, **kw)


async def test_spec_shape_key_for_key() -> None:
    judge = ScriptedJudge(
        {
            "coherence": [verdict(3)],
            "consistency": [verdict(3)],
            "relevance": [verdict(3)],
            "fluency": [verdict(2, "Minor issues.")],
        }
    )
    out = await evaluator(judge).evaluate(DATA)
    body = out["summary"]
    assert list(out) == ["summary"]
    # The specification's keys in its order, then only our documented additions.
    assert list(body) == [*SPEC_KEYS, "rating_confidence", "uncertain", "rating_confidence_note"]
    assert body["global_explanation"] == "All metrics met the expected values."
    assert (body["relevancy_rating"], body["score"], body["binary_score"]) == ("good", 1.0, 1)
    assert body["avg_score"] == 0.92 and body["possible_issues"] == []
    assert body["fluency"]["score"] == 2 and body["fluency"]["normalized_score"] == 0.67
    assert body["fluency"]["explanation"] == "Minor issues."
    for m in ("coherence", "consistency", "relevance", "fluency"):
        assert list(body[m])[:3] == ["score", "explanation", "normalized_score"]
        assert body[m]["score_mode"] == "parsed"
        assert "weighted_score" not in body[m]
    json.dumps(out)  # serialisable
    assert len(judge.requests) == 4


async def test_enabled_metrics_subset() -> None:
    judge = ScriptedJudge({"coherence": [verdict(1)], "fluency": [verdict(3)]})
    ev = evaluator(judge, enabled_metrics=["coherence", "fluency"])
    body = (await ev.evaluate(DATA))["summary"]
    assert [k for k in body if k in ("coherence", "consistency", "relevance", "fluency")] == [
        "coherence",
        "fluency",
    ]
    assert body["relevancy_rating"] == "bad" and body["score"] == 0.0
    assert body["avg_score"] == round((0.33 + 1.0) / 2 + 1e-9, 2)
    assert len(body["possible_issues"]) == 1 and body["possible_issues"][0].startswith("coherence")
    assert {r.task for r in judge.requests} == {"coherence@3", "fluency@3"}


async def test_unparseable_reply_gets_one_repair_then_succeeds() -> None:
    judge = ScriptedJudge(
        {"coherence": ["I would say it is quite good.", verdict(3)], "*": []},
    )
    ev = evaluator(judge, enabled_metrics=["coherence"])
    body = (await ev.evaluate(DATA))["summary"]
    assert body["coherence"]["score"] == 3
    assert [r.task for r in judge.requests] == ["coherence@3", "coherence@3:repair"]
    repair = judge.requests[1]
    assert repair.messages[-2].role == "assistant"
    assert "could not be used" in repair.messages[-1].content


async def test_still_unparseable_after_repair_is_an_error_not_a_score() -> None:
    judge = ScriptedJudge(
        {"coherence": ["prose", "more prose", '{"explanation": "x", "score": 9}']}
    )
    ev = evaluator(judge, enabled_metrics=["coherence"])
    body = (await ev.evaluate(DATA))["summary"]
    assert body["coherence"]["score"] is None
    assert "outside the scale" in body["coherence"]["error"]
    assert body["relevancy_rating"] is None and body["score"] is None
    assert "coherence" in body["global_explanation"]


async def test_rate_limit_is_retried_then_succeeds() -> None:
    judge = ScriptedJudge({"fluency": [RateLimitError("slow down", retry_after=3), verdict(3)]})
    ev = evaluator(judge, enabled_metrics=["fluency"])
    body = (await ev.evaluate(DATA))["summary"]
    assert body["fluency"]["score"] == 3 and len(judge.requests) == 2
    assert ev.caller is not None and ev.caller.stats.retries == 1


async def test_non_retryable_error_fails_only_that_metric() -> None:
    judge = ScriptedJudge(
        {
            "coherence": [verdict(3)],
            "consistency": [RequestError("bad request", status=400)],
            "relevance": [verdict(3)],
            "fluency": [verdict(3)],
        }
    )
    body = (await evaluator(judge).evaluate(DATA))["summary"]
    assert body["consistency"]["score"] is None
    assert "RequestError" in body["consistency"]["error"]
    assert body["coherence"]["score"] == 3
    assert body["relevancy_rating"] is None
    assert len(judge.requests) == 4  # the 400 was not retried


async def test_retries_are_capped() -> None:
    judge = ScriptedJudge({"fluency": [RateLimitError("again") for _ in range(10)]})
    ev = SummarizationEvaluator(
        judge,
        enabled_metrics=["fluency"],
        retry_policy=RetryPolicy(max_attempts=3, jitter=False, initial_delay=0, max_delay=0),
    )
    body = (await ev.evaluate(DATA))["summary"]
    assert "after 3 attempts" in body["fluency"]["error"]
    assert len(judge.requests) == 3


async def test_logprob_weighted_score_is_reported() -> None:
    text = '{"explanation": "Fine.", "score": 2}'
    head = '{"explanation": "Fine.", "score": '
    tokens = (
        TokenLogprob(head, 0.0, ((head, 0.0),)),
        TokenLogprob("2", -0.2, (("2", -0.2), ("3", -2.0), ("1", -3.0))),
        TokenLogprob("}", 0.0, (("}", 0.0),)),
    )
    judge = ScriptedJudge({"fluency": [JudgeResponse(text=text, logprobs=tokens)]})
    body = (await evaluator(judge, enabled_metrics=["fluency"]).evaluate(DATA))["summary"]
    f = body["fluency"]
    assert f["score"] == 2 and f["score_mode"] == "logprob_weighted"
    assert 1.9 < f["weighted_score"] < 2.3
    assert judge.requests[0].logprobs is True


async def test_logprobs_absent_is_recorded_not_silent() -> None:
    judge = ScriptedJudge({"fluency": [verdict(3)]})
    body = (await evaluator(judge, enabled_metrics=["fluency"]).evaluate(DATA))["summary"]
    assert body["fluency"]["score_mode"] == "parsed"
    assert body["fluency"]["score_mode_note"]


async def test_explanation_language_reaches_the_prompt() -> None:
    judge = ScriptedJudge(responder=lambda r: verdict(3))
    await evaluator(judge, explanation_language="en").evaluate(DATA)
    assert all("Write the explanation in English." in r.messages[0].content for r in judge.requests)


def test_missing_key_names_the_env_var() -> None:
    with pytest.raises(MissingCredentialsError, match="GOOGLE_API_KEY"):
        SummarizationEvaluator(model_credentials=None)
    with pytest.raises(MissingCredentialsError, match="OPENAI_API_KEY"):
        SummarizationEvaluator("openai/gpt-4o-mini")


def test_unknown_metric_is_a_config_error() -> None:
    with pytest.raises(Exception, match="unknown metric"):
        SummarizationEvaluator(ScriptedJudge(), enabled_metrics=["coherence", "vibes"])


async def test_bad_item_is_a_data_error_naming_the_field() -> None:
    judge = ScriptedJudge(responder=lambda r: verdict(3))
    with pytest.raises(DataError, match="'summary'"):
        await evaluator(judge).evaluate({"input": "text", "summary": "   "})


async def test_batch_keeps_good_items_when_one_is_bad() -> None:
    judge = ScriptedJudge(responder=lambda r: verdict(3), delay=0.001)
    items: list[Any] = [DATA, {"input": "x"}, DATA, {"input": "x", "summary": 5}, DATA]
    records = [r async for r in evaluator(judge).evaluate_batch(items, concurrency=2)]
    assert sorted(r.index for r in records) == [0, 1, 2, 3, 4]
    bad = {r.index: r for r in records if r.error}
    assert set(bad) == {1, 3}
    assert bad[1].error is not None and bad[1].error.field == "summary"
    assert "row 1" in str(bad[1].error)
    good = [r for r in records if r.result]
    assert len(good) == 3 and all(r.result and r.result.rating.relevancy_rating for r in good)


async def test_bundled_dataset_loads_and_is_bilingual() -> None:
    ds = load_simple_summarization_dataset()
    items = ds.load()
    assert len(items) >= 5
    langs = {r["language"] for r in ds.rows()}
    assert {"en", "id"} <= langs
    assert ds.rows()[0]["language"] == "id" and ds.rows()[0]["flaw"] == ""
    assert sum(1 for r in ds.rows() if r["flaw"]) >= 3
