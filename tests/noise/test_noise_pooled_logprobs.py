"""Pooling the logprob fields of several judgments (samples, a panel's members)."""

from __future__ import annotations

import pytest

from sumjudge.metrics.sampling import combine_samples, pooled_logprobs
from sumjudge.types import MetricResult


def _judged(score: int, distribution: dict[int, float] | None) -> MetricResult:
    weighted = None if distribution is None else sum(k * p for k, p in distribution.items())
    return MetricResult(
        "coherence", "1", score=score, weighted_score=weighted, distribution=distribution
    )


def test_every_judgment_with_logprobs_pools_the_mean_distribution() -> None:
    judged = [_judged(3, {2: 0.2, 3: 0.8}), _judged(2, {2: 0.6, 3: 0.4})]
    pooled = pooled_logprobs(judged, 3, no_logprobs_note="unused")
    assert pooled["score_mode"] == "logprob_weighted"
    assert pooled["distribution"] == pytest.approx({2: 0.4, 3: 0.6})
    assert pooled["weighted_score"] == pytest.approx(round((2.8 + 2.4) / 2, 4))
    assert pooled["confidence"] == pytest.approx(0.6) and pooled["confidence_note"] is None


def test_one_judgment_without_logprobs_makes_a_parsed_score_with_the_note() -> None:
    judged = [_judged(3, {3: 1.0}), _judged(3, None)]
    pooled = pooled_logprobs(judged, 3, no_logprobs_note="a panel member had no logprobs")
    assert pooled == {
        "weighted_score": None,
        "score_mode": "parsed",
        "distribution": None,
        "confidence": None,
        "confidence_note": "a panel member had no logprobs",
    }


def test_combined_samples_carry_the_pooled_fields() -> None:
    combined = combine_samples([_judged(3, {3: 1.0}), _judged(3, {2: 0.5, 3: 0.5})])
    assert combined.score == 3 and combined.score_mode == "logprob_weighted"
    assert combined.confidence == pytest.approx(0.75)
