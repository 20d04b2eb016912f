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

from ..errors import ParseError
from ..plan import Call, Judged, MetricPlan
from ..protocol import Capabilities, JudgeRequest, JudgeResponse, Message, Usage
from ..types import MetricResult
from ._base import (
    SCORE_SCHEMA,
    JudgeOptions,
    ScoreMetric,
    score_result,
    shared_prefix,
    subject_of,
    system_message,
)
from ._parse import read_score_verdict
from ._read import reply_object

__all__ = [
    "LAYOUT_VERSION",
    "build_rubrics_first_request",
    "build_single_request",
    "single_call_plan",
    "static_system",
]

LAYOUT_VERSION = "3"
SINGLE_CALL_VERSION = LAYOUT_VERSION


def static_system(metrics: Sequence[ScoreMetric], options: JudgeOptions) -> str:
    """The run-wide system message: judging rules plus every metric's instructions."""
    blocks = "\n\n".join(f"### {m.name}\n" + m.instructions() for m in metrics)
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
        messages=_messages(metrics, source, summary, ask, options),
        task=f"{metric.task}+rubrics_first@{LAYOUT_VERSION}",
        schema=SCORE_SCHEMA,
        schema_name=f"{metric.name}_verdict",
        temperature=0.0,
        max_tokens=options.max_tokens,
        logprobs=options.logprobs,
        kind="score",
        subject=subject_of(source, summary, options.language, metric),
    )


def _messages(
    metrics: Sequence[ScoreMetric], source: str, summary: str, ask: str, options: JudgeOptions
) -> tuple[Message, ...]:
    """The combined layouts' prompt: every metric's rubric, then the texts and the ask.

    Empty for a judge that reads no prompt (`options.render_prompt` off).
    """
    if not options.render_prompt:
        return ()
    return (
        Message.of("system", static_system(metrics, options)),
        Message("user", (shared_prefix(source, summary), ask)),
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
        messages=_messages(metrics, source, summary, ask, options),
        task="single_call@" + SINGLE_CALL_VERSION + "[" + ",".join(m.task for m in metrics) + "]",
        schema=_schema(metrics),
        schema_name="summary_verdicts",
        temperature=0.0,
        max_tokens=options.max_tokens * len(metrics),
        logprobs=False,
        kind="single_call",
        subject=subject_of(source, summary, options.language, *metrics),
    )


def single_call_plan(
    metrics: Sequence[ScoreMetric],
    source: str,
    summary: str,
    options: JudgeOptions,
    capabilities: Capabilities,
) -> MetricPlan[MetricResult]:
    """Every metric from one call; each entry of the reply is validated on its own."""
    request = build_single_request(metrics, source, summary, options)

    def finish(judged: Sequence[Judged[Any]]) -> dict[str, MetricResult]:
        whole = judged[0]
        out: dict[str, MetricResult] = {}
        for i, m in enumerate(metrics):
            # The call's usage and calls are counted once, on the first metric.
            share = Judged[Any](
                error=whole.error,
                raw_reply=whole.raw_reply,
                usage=whole.usage if i == 0 else Usage(),
                calls=whole.calls if i == 0 else 0,
            )
            if whole.value is not None:
                entry = whole.value.get(m.name)
                try:
                    fake = JudgeResponse(text=json.dumps(entry), parsed=entry)
                    share.value = read_score_verdict(fake, m.low, m.high)
                except ParseError as exc:
                    share.error = f"unparseable verdict: {exc}"
                    share.raw_reply = json.dumps(entry)[:2000]
            out[m.name] = score_result(m, share, options, capabilities, note=_SINGLE_NOTE)
        return out

    return MetricPlan(metrics[0].name, (Call(request, reply_object),), finish)


_SINGLE_NOTE = "single-call mode: all metrics in one request, no logprob weighting"
