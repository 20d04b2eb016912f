"""Consistency: are the summary's claims supported by the source, with nothing invented?

For conversation summaries it is judged on the rendered transcript and sections, or,
when accuracy is also requested, derived from the accuracy decomposition instead of asking
the judge again (the summary is decomposed once):

- 3 when every point is accurate;
- 2 when some points are inaccurate but fewer than half;
- 1 when half of the points or more are inaccurate.

The explanation lists the inaccurate points, and `score_mode` says the score was derived.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..plan import MetricPlan
from ..types import AccuracyPoint, MetricResult
from ._base import JudgeOptions, ScoreMetric, score_plan, subject_of
from ._conversation import ConversationContext
from .transcript import render_sections

__all__ = [
    "CONSISTENCY",
    "DERIVED_MODE",
    "conversation_plan",
    "derive_consistency",
    "derived_score",
    "derived_version",
]

CONSISTENCY = ScoreMetric(
    name="consistency",
    version="3",
    title="factual alignment with the source",
    definition=(
        "every claim (who did or said what, numbers, dates, names, decisions, outcomes, "
        "negations) is backed by the source. Anything added, altered or misattributed is "
        "a hallucination, however plausible."
    ),
    steps=(
        "Split the summary into its individual factual claims.",
        "For each claim, find the passage in the source that supports it; check numbers, "
        "dates, names, speakers and negations exactly.",
        "List the claims that are contradicted by the source or have no support in it.",
        "Weigh how many and how serious the unsupported claims are.",
    ),
    rubric={
        3: "No hallucinations: every claim is supported.",
        2: "Some hallucinations: a few claims are unsupported or wrong; most is faithful.",
        1: "Hallucinations dominate: many or central claims are unsupported or contradicted.",
    },
)


def derived_version(accuracy_version: str) -> str:
    """The version of consistency derived from accuracy of version `accuracy_version`."""
    return f"{CONSISTENCY.version}+accuracy-{accuracy_version}"


def conversation_plan(ctx: ConversationContext) -> MetricPlan[MetricResult]:
    """Consistency of a conversation summary, judged on its own (accuracy not requested)."""
    options = JudgeOptions(language=ctx.language, logprobs=False)
    # A judge that reads the material itself gets the plain turns and sections.
    source = "\n".join(t.text for t in ctx.turns)
    summary = "\n".join(t for t in ctx.item.sections.values() if t.strip())
    reads = ctx.capabilities.reads_prompt
    request = CONSISTENCY.build_request(
        # what an LLM is shown; a judge that reads no prompt is not shown it at all
        ctx.rendered_transcript if reads else source,
        render_sections(ctx.item.sections) if reads else summary,
        language=ctx.language,
        logprobs=False,
        max_tokens=options.max_tokens,
        render_prompt=reads,
    )
    subject = subject_of(source, summary, ctx.language, CONSISTENCY)
    return score_plan(CONSISTENCY, replace(request, subject=subject), options, ctx.capabilities)


DERIVED_MODE = "derived_from_accuracy"
_NOTE = (
    "Derived from the accuracy decomposition (no separate judge call): 3 if all points are "
    "accurate, 2 if fewer than half are inaccurate, 1 if half or more are inaccurate."
)


def derived_score(total: int, inaccurate: int) -> int:
    """The 1-3 consistency score for `inaccurate` wrong points out of `total`."""
    if total <= 0:
        raise ValueError("no points to derive a score from")
    if inaccurate == 0:
        return 3
    return 2 if 2 * inaccurate < total else 1


def derive_consistency(
    points: Sequence[AccuracyPoint], *, version: str, error: str | None = None
) -> MetricResult:
    """Consistency from accuracy points; an accuracy failure is passed on as the error."""
    name = CONSISTENCY.name
    full_version = derived_version(version)
    if error is not None:
        return MetricResult(name=name, version=full_version, error=f"accuracy failed: {error}")
    if not points:
        return MetricResult(
            name=name,
            version=full_version,
            error="the accuracy decomposition has no points to derive consistency from",
        )
    wrong = [p for p in points if not p.is_accurate]
    score = derived_score(len(points), len(wrong))
    if wrong:
        listed = "; ".join(f"[{p.section}] {p.point} ({p.accuracy})" for p in wrong)
        explanation = f"{len(wrong)} of {len(points)} points are inaccurate: {listed}"
    else:
        explanation = f"All {len(points)} points of the summary are supported by the transcript."
    evidence = tuple(f"{p.point} -> turns {list(p.turns)}" for p in wrong if p.turns)
    result = MetricResult(name, full_version, score, explanation, evidence=evidence)
    return replace(result, score_mode=DERIVED_MODE, score_mode_note=_NOTE)
