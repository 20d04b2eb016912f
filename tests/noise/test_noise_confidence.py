"""Per-item confidence from the score token's logprobs, and the rating's confidence."""

from __future__ import annotations

import itertools
import json
import math
import random
from typing import Any

import pytest

from sumjudge import (
    JudgeResponse,
    RetryPolicy,
    ScriptedJudge,
    SummarizationEvaluator,
    SummaryData,
    TokenLogprob,
)
from sumjudge.rules import DEFAULT_RULE_BOOK, RuleBook, rate, rating_confidence
from sumjudge.testing.openai_server import FakeOpenAIServer

NO_WAIT = RetryPolicy(initial_delay=0.0, max_delay=0.0, max_retry_after=0.0, jitter=False)
DATA = SummaryData(input="Rina: we ship on Friday. Budi: agreed.", summary="They ship Friday.")
METRICS = ("coherence", "consistency", "relevance", "fluency")


def reply(score: int, probs: dict[str, float]) -> JudgeResponse:
    """A reply whose score token has the alternatives `probs`."""
    head = '{"explanation": "Checked.", "score": '
    tokens = (
        TokenLogprob(head, 0.0, ((head, 0.0),)),
        TokenLogprob(
            str(score),
            math.log(probs[str(score)]),
            tuple((t, math.log(p)) for t, p in probs.items()),
        ),
        TokenLogprob("}", 0.0, (("}", 0.0),)),
    )
    text = head + str(score) + "}"
    return JudgeResponse(text=text, logprobs=tokens)


def evaluator(judge: Any, **kw: Any) -> SummarizationEvaluator:
    return SummarizationEvaluator(judge, retry_policy=NO_WAIT, warm_prefix_tokens=None, **kw)


async def test_alternatives_half_point3_point2_give_confidence_half_and_uncertain() -> None:
    probs = {"3": 0.5, "2": 0.3, "1": 0.2}
    judge = ScriptedJudge({m: [reply(3, probs)] for m in METRICS})
    body = (await evaluator(judge).evaluate(DATA))["summary"]
    for m in METRICS:
        assert body[m]["distribution"] == {"1": 0.2, "2": 0.3, "3": 0.5}
        assert body[m]["confidence"] == pytest.approx(0.5)
        assert "confidence_note" not in body[m]
    assert body["relevancy_rating"] == "good"
    # good needs consistency = 3 and relevance = 3 (and coherence, fluency >= 2):
    good = 0.8 * 0.5 * 0.5 * 0.8
    assert body["rating_confidence"] == pytest.approx(good, abs=1e-4)
    assert body["uncertain"] is True


async def test_distribution_is_renormalised_over_valid_scores_only() -> None:
    probs = {"2": 0.6, "3": 0.2, "x": 0.2}
    judge = ScriptedJudge({"*": [reply(2, probs)]})
    body = (await evaluator(judge, enabled_metrics=["fluency"]).evaluate(DATA))["summary"]
    assert body["fluency"]["distribution"] == {"1": 0.0, "2": 0.75, "3": 0.25}
    assert body["fluency"]["confidence"] == pytest.approx(0.75)
    # fluency alone: good when >= 2, so the rating holds with probability 1 - P(1) = 1
    assert body["rating_confidence"] == pytest.approx(1.0)
    assert body["uncertain"] is False


async def test_threshold_is_configurable() -> None:
    probs = {"3": 0.5, "2": 0.3, "1": 0.2}
    judge = ScriptedJudge({"*": [reply(3, probs)]})
    ev = evaluator(judge, enabled_metrics=["consistency"], uncertain_below=0.4)
    body = (await ev.evaluate(DATA))["summary"]
    assert body["rating_confidence"] == pytest.approx(0.5)
    assert body["uncertain"] is False


async def test_without_logprobs_the_fields_are_null_with_the_reason() -> None:
    verdict = {"explanation": "Fine.", "score": 3}
    judge = ScriptedJudge({"*": [json.dumps(verdict)] * 4})
    body = (await evaluator(judge).evaluate(DATA))["summary"]
    for m in METRICS:
        assert body[m]["distribution"] is None and body[m]["confidence"] is None
        assert body[m]["confidence_note"] == "the judge returned no logprobs"
    assert body["rating_confidence"] is None and body["uncertain"] is None
    assert "no score distribution" in body["rating_confidence_note"]


async def test_logprobs_off_says_so() -> None:
    judge = ScriptedJudge({"*": [{"explanation": "Fine.", "score": 3}]})
    body = (await evaluator(judge, enabled_metrics=["fluency"], logprobs=False).evaluate(DATA))[
        "summary"
    ]
    assert body["fluency"]["confidence_note"] == "logprob weighting disabled"


def _brute_force(dists: dict[str, dict[int, float]], book: RuleBook, rating: str) -> float:
    """The same probability by a different road: the rating of every full score grid."""
    names = list(dists)
    total = 0.0
    for scores in itertools.product((1, 2, 3), repeat=len(names)):
        p = math.prod(dists[m].get(s, 0.0) for m, s in zip(names, scores, strict=True))
        if rate(dict(zip(names, scores, strict=True)), names, book).relevancy_rating == rating:
            total += p
    return total


@pytest.mark.parametrize("rating", ["good", "incomplete", "bad"])
def test_rating_confidence_is_the_exact_enumeration(rating: str) -> None:
    dists = {
        "coherence": {1: 0.1, 2: 0.3, 3: 0.6},
        "consistency": {1: 0.05, 2: 0.15, 3: 0.8},
        "relevance": {1: 0.0, 2: 0.4, 3: 0.6},
        "fluency": {1: 0.2, 2: 0.2, 3: 0.6},
    }
    got = rating_confidence(dists, list(dists), rating)
    assert got == pytest.approx(_brute_force(dists, DEFAULT_RULE_BOOK, rating))
    # closed forms of the default book, metrics independent
    p_ok = math.prod(1 - d[1] for d in dists.values())
    p_good = (
        (1 - dists["coherence"][1])
        * dists["consistency"][3]
        * dists["relevance"][3]
        * (1 - dists["fluency"][1])
    )
    expected = {"good": p_good, "bad": 1 - p_ok, "incomplete": p_ok - p_good}[rating]
    assert got == pytest.approx(expected)


def test_rating_confidence_is_bit_for_bit_the_per_combination_sum() -> None:
    """Ranking each score once gives the very float the per-combination rating gave."""
    rng = random.Random(7)
    books = [
        DEFAULT_RULE_BOOK,
        RuleBook.from_dict({m: {"good_at_least": 3, "bad_at_most": 2} for m in METRICS}),
    ]
    for _ in range(200):
        dists = {}
        for m in METRICS:
            w = [rng.random() * (rng.random() > 0.2) for _ in range(3)]
            total = sum(w) or 1.0
            dists[m] = {s: x / total for s, x in zip((1, 2, 3), w, strict=True)}
        names = rng.sample(list(dists), rng.randint(1, 4))
        book = rng.choice(books)
        for rating in ("good", "incomplete", "bad"):
            expected = 0.0
            support = [[(s, p) for s, p in dists[m].items() if p > 0] for m in names]
            for combo in itertools.product(*support):
                probability = 1.0
                for _, p in combo:
                    probability *= p
                scores = {m: s for m, (s, _) in zip(names, combo, strict=True)}
                if rate(scores, names, book).relevancy_rating == rating:
                    expected += probability
            assert rating_confidence(dists, names, rating, book) == expected


def test_rating_confidence_follows_a_custom_rule_book() -> None:
    book = RuleBook.from_dict({"coherence": {"good_at_least": 3, "bad_at_most": 2}})
    dists = {"coherence": {1: 0.1, 2: 0.3, 3: 0.6}}
    assert rating_confidence(dists, ["coherence"], "good", book) == pytest.approx(0.6)
    assert rating_confidence(dists, ["coherence"], "bad", book) == pytest.approx(0.4)


async def test_confidence_through_the_local_server() -> None:
    with FakeOpenAIServer(digit_probs=(0.5, 0.3, 0.2)) as srv:
        ev = SummarizationEvaluator(
            "openai/fake-model",
            base_url=srv.base_url,
            enabled_metrics=["coherence"],
            retry_policy=NO_WAIT,
        )
        async with ev:
            body = (await ev.evaluate(DATA))["summary"]
    assert body["coherence"]["confidence"] == pytest.approx(0.5, abs=1e-3)
    assert sum(body["coherence"]["distribution"].values()) == pytest.approx(1.0, abs=1e-3)
