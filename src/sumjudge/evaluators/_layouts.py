"""Cost-oriented prompt layouts (opt-in): rubrics first, and a single call per item.

Both put a *static* block first: the system message holds the shared judging instructions
and every enabled metric's definition, steps and scale, so it is byte-identical for every
request of a run and the provider serves it from its prompt cache after the first call.
The source and summary follow, then a one-line request.

- `rubrics_first`: still one request per metric; each ends with "rate COHERENCE only".
  Per item only the source, the summary and that last line are new; per metric the
  ~300-token instructions are no longer billed at the full rate every time.
- `single_call`: one request per item; the reply is one JSON object with one
  {"explanation", "score"} per metric. Each metric is validated on its own: one bad entry
  fails that metric only. An unreadable reply gets one repair re-ask. Trade-off: the judge
  rates all qualities in one pass (less independent than separate calls), and logprob
  weighting is not used (score_mode "parsed").

The default layout (`metrics/_base.py`: source first, metric instructions last) is
unchanged; a layout is part of the request's task string and therefore of the cache key.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..errors import ParseError, ProviderError
from ..metrics._base import SCORE_SCHEMA, ScoreMetric, shared_prefix, system_message
from ..metrics._parse import extract_json, read_score_verdict
from ..protocol import JudgeRequest, JudgeResponse, Message, Usage
from ..runner import JudgeCaller
from ..types import MetricResult
from ._judging import JudgeOptions, repair_request

__all__ = [
    "LAYOUT_VERSION",
    "build_rubrics_first_request",
    "build_single_request",
    "judge_single_call",
    "static_system",
]

LAYOUT_VERSION = "1"
SINGLE_CALL_VERSION = LAYOUT_VERSION


def static_system(metrics: Sequence[ScoreMetric], options: JudgeOptions) -> str:
    """The run-wide system message: judging rules plus every metric's instructions."""
    blocks = "\n\n".join(
        f"### {m.name}\n" + m.instructions().rsplit("\n\nReply with exactly:", 1)[0]
        for m in metrics
    )
    return (
        system_message(options.language)
        + "\n\nYou rate summaries on the qualities below, each independently, using its own "
        "definition, steps and scale.\n\n" + blocks
    )


def build_rubrics_first_request(
    metric: ScoreMetric,
    metrics: Sequence[ScoreMetric],
    source: str,
    summary: str,
    options: JudgeOptions,
) -> JudgeRequest:
    """One metric's request in the rubrics-first layout (same reply shape as per-metric)."""
    scale = ", ".join(str(v) for v in range(metric.low, metric.high + 1))
    ask = (
        f"Rate the summary's {metric.name.upper()} only, following its definition, steps and "
        f'scale above. Reply with exactly: {{"explanation": "<your reasoning>", "score": '
        f"<{scale}>}}"
    )
    return JudgeRequest(
        messages=(
            Message.of("system", static_system(metrics, options)),
            Message("user", (shared_prefix(source, summary), ask)),
        ),
        task=f"{metric.task}+rubrics_first@{LAYOUT_VERSION}",
        schema=SCORE_SCHEMA,
        schema_name=f"{metric.name}_verdict",
        temperature=0.0,
        max_tokens=options.max_tokens,
        logprobs=options.logprobs,
    )


def _schema(metrics: Sequence[ScoreMetric]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {m.name: SCORE_SCHEMA for m in metrics},
        "required": [m.name for m in metrics],
        "additionalProperties": False,
    }


def build_single_request(
    metrics: Sequence[ScoreMetric], source: str, summary: str, options: JudgeOptions
) -> JudgeRequest:
    """One request judging every metric in `metrics`."""
    shape = ", ".join(f'"{m.name}": {{"explanation": "...", "score": 1|2|3}}' for m in metrics)
    names = ", ".join(m.name for m in metrics)
    ask = f"Rate the summary's {names}. Reply with exactly one JSON object: {{{shape}}}"
    return JudgeRequest(
        messages=(
            Message.of("system", static_system(metrics, options)),
            Message("user", (shared_prefix(source, summary), ask)),
        ),
        task="single_call@" + SINGLE_CALL_VERSION + "[" + ",".join(m.task for m in metrics) + "]",
        schema=_schema(metrics),
        schema_name="summary_verdicts",
        temperature=0.0,
        max_tokens=options.max_tokens * len(metrics),
        logprobs=False,
    )


def _read(response: JudgeResponse) -> dict[str, Any]:
    data = response.parsed if response.parsed is not None else extract_json(response.text)
    if not isinstance(data, dict):
        raise ParseError("the reply's JSON is not an object", raw=response.text)
    return data


async def judge_single_call(
    metrics: Sequence[ScoreMetric],
    source: str,
    summary: str,
    caller: JudgeCaller,
    options: JudgeOptions,
) -> dict[str, MetricResult]:
    """Every metric's result from one call; failures come back as results with `error`."""
    request = build_single_request(metrics, source, summary, options)
    usage = Usage()
    calls = 0
    try:
        response = await caller.call(request)
        calls += 1
        usage = usage + response.usage
        try:
            data = _read(response)
        except ParseError as first:
            if not options.repair:
                raise
            response = await caller.call(repair_request(request, response.text, str(first)))
            calls += 1
            usage = usage + response.usage
            data = _read(response)
    except (ProviderError, ParseError) as exc:
        attempts = getattr(exc, "attempts", None)
        tail = f" (after {attempts} attempts)" if attempts else ""
        reason = f"{type(exc).__name__}: {exc}{tail}"
        return {
            m.name: MetricResult(
                name=m.name, version=m.version, error=reason, usage=usage, calls=calls
            )
            for m in metrics
        }
    out: dict[str, MetricResult] = {}
    for i, m in enumerate(metrics):
        share = usage if i == 0 else Usage()  # the call's usage is counted once
        entry = data.get(m.name)
        try:
            fake = JudgeResponse(text=json.dumps(entry), parsed=entry)
            score, explanation = read_score_verdict(fake, m.low, m.high)
        except ParseError as exc:
            out[m.name] = MetricResult(
                name=m.name,
                version=m.version,
                error=f"unparseable verdict: {exc}",
                raw_reply=json.dumps(entry)[:2000],
                usage=share,
                calls=calls if i == 0 else 0,
            )
            continue
        out[m.name] = MetricResult(
            name=m.name,
            version=m.version,
            score=score,
            explanation=explanation,
            score_mode="parsed",
            score_mode_note="single-call mode: all metrics in one request, no logprob weighting",
            usage=share,
            calls=calls if i == 0 else 0,
        )
    return out
