"""Repeated judgments: one metric asked k times at a temperature, and the k verdicts combined.

Every sample is the metric's own request with the sampling temperature and a sample tag in
its task (`coherence@1#sample2`), so the k requests share the prompt prefix byte for byte
(the provider's prompt cache serves it after the first) while each has its own cache key:
a re-run of a finished batch is answered from the response cache, sample by sample.

The combined result: `samples` (the k integer scores), `mean`, `spread` (population
standard deviation), the integer `score` by majority (a tie for the most frequent score
is broken by the mean, rounded half up), `weighted_score` as the mean of the samples'
logprob expectations and `distribution` as the mean of their distributions (both only
when every judged sample had logprobs).
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from ..plan import Call, Judged, MetricPlan
from ..protocol import Capabilities, JudgeRequest, Usage
from ..types import MetricResult
from ._base import JudgeOptions, ScoreMetric, read_verdict, score_result

__all__ = [
    "combine_samples",
    "majority_score",
    "pooled_logprobs",
    "round_half_up",
    "sample_request",
    "sampled_plan",
]


def round_half_up(value: float) -> int:
    """`value` to the nearest integer, halves upwards (2.5 -> 3), as the issue asks."""
    return int(Decimal(repr(value)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def majority_score(scores: Sequence[int]) -> int:
    """The most frequent score; a tie between the most frequent is the mean, rounded half up."""
    counts = Counter(scores).most_common()
    top = counts[0][1]
    if sum(1 for _, c in counts if c == top) > 1:
        return round_half_up(statistics.fmean(scores))
    return counts[0][0]


def sample_request(request: JudgeRequest, index: int, temperature: float) -> JudgeRequest:
    """The `index`-th sample of `request`: same messages, its own task tag and temperature."""
    return replace(request, task=f"{request.task}#sample{index}", temperature=temperature)


def sampled_plan(
    metric: ScoreMetric,
    request: JudgeRequest,
    samples: int,
    temperature: float,
    options: JudgeOptions,
    capabilities: Capabilities,
) -> MetricPlan[MetricResult]:
    """A plan of `samples` requests for `metric`, combined into one result."""
    read = read_verdict(metric)
    calls = tuple(Call(sample_request(request, i, temperature), read) for i in range(samples))

    def finish(judged: Sequence[Judged[Any]]) -> dict[str, MetricResult]:
        results = [score_result(metric, j, options, capabilities) for j in judged]
        return {metric.name: combine_samples(results)}

    return MetricPlan(metric.name, calls, finish)


def combine_samples(results: Sequence[MetricResult]) -> MetricResult:
    """One metric's result from its samples' results (failed samples are left out).

    Every sample failed: the first failure, with every sample's spend. Some failed: the
    others decide, and `score_mode_note` says how many failed and why.
    """
    first = results[0]
    usage = sum((r.usage for r in results), Usage())
    calls = sum(r.calls for r in results)
    judged = [r for r in results if r.ok]
    if not judged:
        return replace(first, usage=usage, calls=calls)
    scores = [r.score for r in judged if r.score is not None]
    score = majority_score(scores)
    notes = []
    failed = [r for r in results if not r.ok]
    if failed:
        notes.append(f"{len(failed)} of {len(results)} samples failed: {failed[0].error}")
    if any(r.distribution is None for r in judged):
        notes.append(next(r.score_mode_note for r in judged if r.distribution is None) or "")
    note = "; ".join(n for n in notes if n) or None
    chosen = next(r for r in judged if r.score == score) if score in scores else judged[0]
    return MetricResult(
        name=first.name,
        version=first.version,
        score=score,
        explanation=chosen.explanation,
        score_mode_note=note,
        usage=usage,
        calls=calls,
        **pooled_logprobs(judged, score, no_logprobs_note=note),
        samples=tuple(scores),
        mean=round(statistics.fmean(scores), 4),
        spread=round(statistics.pstdev(scores), 4),
    )


def pooled_logprobs(
    judged: Sequence[MetricResult], score: int, *, no_logprobs_note: str | None
) -> dict[str, Any]:
    """The logprob fields of one result pooled from several judgments of the same score.

    Samples (`combine_samples`) and a judge panel pool alike: when every judgment in
    `judged` had logprobs, the weighted score is the mean of their expectations and the
    distribution the mean of theirs (the confidence is the pooled `score`'s share of it);
    else the result is a parsed score with no distribution, and `no_logprobs_note` says why.

    Returns:
        `weighted_score`, `score_mode`, `distribution`, `confidence` and `confidence_note`,
        as `MetricResult` keyword arguments.
    """
    if any(r.distribution is None for r in judged):
        return {
            "weighted_score": None,
            "score_mode": "parsed",
            "distribution": None,
            "confidence": None,
            "confidence_note": no_logprobs_note,
        }
    distribution: dict[int, float] = {}
    for r in judged:
        for k, p in (r.distribution or {}).items():
            distribution[k] = distribution.get(k, 0.0) + p / len(judged)
    return {
        "weighted_score": round(statistics.fmean(r.weighted_score or 0.0 for r in judged), 4),
        "score_mode": "logprob_weighted",
        "distribution": distribution,
        "confidence": distribution.get(score, 0.0),
        "confidence_note": None,
    }
