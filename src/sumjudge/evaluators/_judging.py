"""Judging one scored metric: request, retries (via the caller), parse, one repair re-ask."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ParseError, ProviderError
from ..metrics._base import ScoreMetric
from ..metrics._parse import read_score_verdict, weighted_score
from ..protocol import JudgeRequest, JudgeResponse, Message, Usage
from ..runner import JudgeCaller
from ..types import MetricResult

__all__ = ["JudgeOptions", "judge_score_metric", "repair_request"]


@dataclass(frozen=True)
class JudgeOptions:
    """Per-evaluator settings for judged metrics."""

    language: str | None = None
    logprobs: bool = True
    repair: bool = True
    max_tokens: int = 1024


def repair_request(request: JudgeRequest, reply: str, problem: str) -> JudgeRequest:
    """The same request plus the bad reply and a note saying what was wrong with it."""
    note = (
        f"Your previous reply could not be used: {problem}. Reply again with only the JSON "
        "object in the required format, keeping the same judgement if it was sound."
    )
    return JudgeRequest(
        messages=(
            *request.messages,
            Message.of("assistant", reply[:4000]),
            Message.of("user", note),
        ),
        task=request.task + ":repair",
        schema=request.schema,
        schema_name=request.schema_name,
        temperature=request.temperature,
        max_tokens=request.max_tokens,
        logprobs=request.logprobs,
        top_logprobs=request.top_logprobs,
    )


def _describe(error: ProviderError) -> str:
    attempts = getattr(error, "attempts", None)
    tail = f" (after {attempts} attempt{'s' if attempts != 1 else ''})" if attempts else ""
    return f"{type(error).__name__}: {error}{tail}"


async def judge_score_metric(
    metric: ScoreMetric,
    source: str,
    summary: str,
    caller: JudgeCaller,
    options: JudgeOptions,
    request: JudgeRequest | None = None,
) -> MetricResult:
    """Judge one metric; failures come back as a MetricResult with `error`, never raised.

    `request` replaces the metric's own request (another prompt layout, same reply shape).
    """
    if request is None:
        request = metric.build_request(
            source,
            summary,
            language=options.language,
            logprobs=options.logprobs,
            max_tokens=options.max_tokens,
        )
    usage = Usage()
    calls = 0
    response: JudgeResponse | None = None
    try:
        response = await caller.call(request)
        calls += 1
        usage = usage + response.usage
        try:
            score, explanation = read_score_verdict(response, metric.low, metric.high)
        except ParseError as first:
            if not options.repair:
                raise
            response = await caller.call(repair_request(request, response.text, str(first)))
            calls += 1
            usage = usage + response.usage
            score, explanation = read_score_verdict(response, metric.low, metric.high)
    except ProviderError as exc:
        return MetricResult(
            name=metric.name,
            version=metric.version,
            error=_describe(exc),
            usage=usage,
            calls=calls + 1,
        )
    except ParseError as exc:
        return MetricResult(
            name=metric.name,
            version=metric.version,
            error=f"unparseable verdict: {exc}",
            raw_reply=(response.text if response is not None else exc.raw)[:2000],
            usage=usage,
            calls=calls,
        )
    weighted: float | None = None
    note: str | None = None
    if options.logprobs:
        weighted, note = weighted_score(response, metric.low, metric.high)
    else:
        note = "logprob weighting disabled"
    return MetricResult(
        name=metric.name,
        version=metric.version,
        score=score,
        explanation=explanation,
        weighted_score=weighted,
        score_mode="logprob_weighted" if weighted is not None else "parsed",
        score_mode_note=note,
        usage=usage,
        calls=calls,
    )
