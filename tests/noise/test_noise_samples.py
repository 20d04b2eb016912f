"""Repeated judgments: k requests per metric, majority score, spread, cache and dry run."""

from __future__ import annotations

import math
import statistics
from pathlib import Path
from typing import Any

import pytest

from sumjudge import (
    ConfigError,
    JudgeResponse,
    RetryPolicy,
    ScriptedJudge,
    SummarizationEvaluator,
    SummaryData,
    TokenLogprob,
)
from sumjudge.cache import ResponseCache
from sumjudge.metrics.sampling import majority_score, round_half_up
from sumjudge.testing.openai_server import FakeOpenAIServer

NO_WAIT = RetryPolicy(initial_delay=0.0, max_delay=0.0, max_retry_after=0.0, jitter=False)
DATA = SummaryData(input="Rina: we ship on Friday. Budi: agreed.", summary="They ship Friday.")


def v(score: int) -> dict[str, Any]:
    return {"explanation": f"Scored {score}.", "score": score}


def lp_reply(score: int, probs: dict[str, float]) -> JudgeResponse:
    head = '{"explanation": "Checked.", "score": '
    top = tuple((t, math.log(p)) for t, p in probs.items())
    tokens = (
        TokenLogprob(head, 0.0, ((head, 0.0),)),
        TokenLogprob(str(score), math.log(probs[str(score)]), top),
        TokenLogprob("}", 0.0, (("}", 0.0),)),
    )
    return JudgeResponse(text=head + str(score) + "}", logprobs=tokens)


def ev(judge: Any, **kw: Any) -> SummarizationEvaluator:
    kw.setdefault("warm_prefix_tokens", None)
    return SummarizationEvaluator(judge, retry_policy=NO_WAIT, **kw)


@pytest.mark.parametrize(
    ("scores", "expected"),
    [([3, 3, 2], 3), ([1, 2, 2, 3, 3], 2), ([1, 1, 3, 3], 2), ([2, 3], 3), ([1, 2], 2), ([2], 2)],
)
def test_majority_with_ties_broken_by_the_mean_rounded_half_up(
    scores: list[int], expected: int
) -> None:
    # [1, 2, 2, 3, 3]: 2 and 3 tie, the mean 2.2 gives 2; [1, 1, 3, 3]: the mean 2 gives 2
    assert majority_score(scores) == expected


def test_round_half_up() -> None:
    assert [round_half_up(x) for x in (1.5, 2.5, 2.4999, 2.0)] == [2, 3, 2, 2]


async def test_k_samples_make_k_requests_per_metric_with_temperature_and_tags() -> None:
    judge = ScriptedJudge({"coherence": [v(3), v(2), v(3), v(3), v(1)], "fluency": [v(2)] * 5})
    evaluator = ev(judge, enabled_metrics=["coherence", "fluency"], samples=5)
    body = (await evaluator.evaluate(DATA))["summary"]
    assert len(judge.requests_for("coherence")) == 5 and len(judge.requests_for("fluency")) == 5
    tasks = sorted(r.task for r in judge.requests_for("coherence"))
    assert tasks == [
        f"coherence@{evaluator.metric_versions['coherence']}#sample{i}" for i in range(5)
    ]
    assert {r.temperature for r in judge.requests} == {0.7}
    # every sample of one item shares the prompt byte for byte (the provider caches it)
    assert len({r.messages for r in judge.requests_for("coherence")}) == 1
    c = body["coherence"]
    assert c["samples"] == [3, 2, 3, 3, 1]
    assert c["score"] == 3
    assert c["mean"] == pytest.approx(2.4)
    assert c["spread"] == pytest.approx(statistics.pstdev([3, 2, 3, 3, 1]), abs=1e-4)
    assert c["explanation"] == "Scored 3."
    assert body["fluency"]["spread"] == 0.0
    # the rule book uses the majority scores: coherence 3, fluency 2 -> good
    assert body["relevancy_rating"] == "good"


async def test_weighted_score_is_the_mean_of_sample_expectations() -> None:
    a = {"3": 0.5, "2": 0.5}
    b = {"2": 0.8, "1": 0.2}
    judge = ScriptedJudge({"*": [lp_reply(3, a), lp_reply(2, b), lp_reply(3, a)]})
    body = (await ev(judge, enabled_metrics=["fluency"], samples=3).evaluate(DATA))["summary"]
    f = body["fluency"]
    assert f["samples"] == [3, 2, 3] and f["score"] == 3
    assert f["weighted_score"] == pytest.approx((2.5 + 1.8 + 2.5) / 3, abs=1e-4)
    assert f["distribution"] == {
        "1": pytest.approx(0.2 / 3, abs=1e-4),
        "2": pytest.approx(1.8 / 3, abs=1e-4),
        "3": pytest.approx(1.0 / 3, abs=1e-4),
    }
    assert f["confidence"] == pytest.approx(1.0 / 3, abs=1e-4)


async def test_a_failed_sample_leaves_the_others() -> None:
    judge = ScriptedJudge({"*": [v(3), "not json at all", v(2)]})
    evaluator = ev(judge, enabled_metrics=["fluency"], samples=3, repair=False)
    result = await evaluator.evaluate_result(DATA)
    fluency = result.metrics["fluency"]
    assert fluency.samples == (3, 2) and len(judge.requests) == 3
    assert fluency.score == 3  # a tie of 3 and 2: the mean 2.5 rounds half up
    assert fluency.score_mode_note and fluency.score_mode_note.startswith("1 of 3 samples failed")


def test_samples_with_the_offline_judge_are_refused() -> None:
    with pytest.raises(ConfigError, match="same verdict every time"):
        SummarizationEvaluator("local", samples=3)


def test_samples_with_single_call_is_refused() -> None:
    with pytest.raises(ConfigError, match="single_call"):
        ev(ScriptedJudge(), samples=3, single_call=True)


async def test_k_samples_through_the_server_and_zero_calls_on_a_rerun(tmp_path: Path) -> None:
    items = [DATA, SummaryData(input="Ana: the demo is on Monday.", summary="Demo Monday.")]
    with FakeOpenAIServer() as srv:
        cache = ResponseCache(tmp_path)

        async def run() -> list[Any]:
            evaluator = SummarizationEvaluator(
                "openai/fake-model",
                base_url=srv.base_url,
                retry_policy=NO_WAIT,
                samples=5,
                cache=cache,
            )
            async with evaluator:
                return [r async for r in evaluator.evaluate_batch(items)]

        first = await run()
        assert len(srv.requests) == 2 * 4 * 5  # items x metrics x samples
        assert all(r.status == "ok" for r in first)
        assert all(len(r.result.metrics["coherence"].samples) == 5 for r in first)
        again = await run()
        assert len(srv.requests) == 40  # the re-run made 0 calls

        def bodies(records: list[Any]) -> list[Any]:
            return [r.to_dict()["summary"] for r in sorted(records, key=lambda r: r.index)]

        assert bodies(again) == bodies(first)
        cache.close()


def test_dry_run_counts_k_requests_per_metric() -> None:
    one = ev(ScriptedJudge(), price=None).estimate_cost([DATA])
    five = ev(ScriptedJudge(), samples=5).estimate_cost([DATA])
    assert one.requests == 4 and five.requests == 20
