"""The per-summary steps of AutoEvaluator: one judged request per metric, plus rubrics.

Each step takes the shared data prefix and the section plans and returns a
`MetricOutcome`; failures are recorded on the outcome, never raised.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ..errors import ParseError, ProviderError
from ..protocol import JudgeRequest, JudgeResponse, Usage
from ..runner import JudgeCaller
from . import accuracy as acc
from . import adherence as adh
from . import completeness as comp
from ._call import Judged, describe, judge_json
from ._questions import Question
from .model import SectionDefinition, Turn
from .offline import NEEDS_LLM
from .results import MetricOutcome, RubricAnswer, SectionOutcome
from .rubrics import CATEGORICAL_QUESTION, RubricCache, questions
from .sections import NO_DEFINITION, SectionPlan

__all__ = ["StepContext", "run_accuracy", "run_adherence", "run_completeness"]

NO_CUSTOM = "N/A: the summary has no custom sections (adherence applies to custom sections only)"
NO_FREE_FORM = (
    "N/A: the summary has no free-form sections with a definition "
    "(completeness applies to free-form sections only)"
)
EMPTY_CONTENT = "the transcript holds no content for any of this section's questions; not scored"


_V = TypeVar("_V")


async def _ask(
    ctx: StepContext,
    applicable: Sequence[SectionPlan],
    asked: Sequence[Question],
    build: Callable[..., JudgeRequest],
    read: Callable[[JudgeResponse, Sequence[Question]], _V],
) -> Judged[_V]:
    """One judged request answering every asked question (adherence or completeness)."""
    in_request = {q.section for q in asked}
    request = build(
        ctx.prefix,
        [p.definition for p in applicable if p.definition and p.name in in_request],
        asked,
        language=ctx.language,
        max_tokens=ctx.max_tokens,
    )
    return await judge_json(ctx.caller, request, lambda r: read(r, asked), repair=ctx.repair)


@dataclass(frozen=True)
class StepContext:
    """What every step of one summary needs."""

    caller: JudgeCaller
    rubrics: RubricCache
    prefix: str
    turns: Sequence[Turn]
    language: str | None
    repair: bool
    max_tokens: int


async def run_accuracy(ctx: StepContext, plans: Sequence[SectionPlan]) -> MetricOutcome:
    """Decompose and check all non-empty sections in one request."""
    names = [p.name for p in plans if p.text.strip()]
    if not names:
        return MetricOutcome(acc.NAME, acc.VERSION, reason="N/A: every section is empty")
    request = acc.accuracy_request(
        ctx.prefix, names, language=ctx.language, max_tokens=ctx.max_tokens
    )
    judged = await judge_json(
        ctx.caller, request, lambda r: acc.read_points(r, ctx.turns, names), repair=ctx.repair
    )
    if judged.value is None:
        return MetricOutcome(
            acc.NAME,
            acc.VERSION,
            error=judged.error,
            raw_reply=judged.raw_reply,
            usage=judged.usage,
            calls=judged.calls,
        )
    return MetricOutcome(
        acc.NAME,
        acc.VERSION,
        sections=acc.score_points(judged.value, names),
        decomposition=judged.value,
        usage=judged.usage,
        calls=judged.calls,
    )


async def _directives(
    ctx: StepContext, definitions: Sequence[SectionDefinition]
) -> dict[str, tuple[str, ...] | str]:
    """Directives per definition name, or the error text when generation failed."""

    async def one(d: SectionDefinition) -> tuple[str, ...] | str:
        try:
            return await ctx.rubrics.directives(d, ctx.caller, repair=ctx.repair)
        except ProviderError as exc:
            return describe(exc)
        except ParseError as exc:
            return str(exc)

    unique = {d.name: d for d in definitions}
    results = await asyncio.gather(*(one(d) for d in unique.values()))
    return dict(zip(unique, results, strict=True))


def _na_or_plan(
    plans: Sequence[SectionPlan], reason_for: dict[str, str]
) -> tuple[dict[str, SectionOutcome], list[SectionPlan]]:
    outcomes: dict[str, SectionOutcome] = {}
    applicable: list[SectionPlan] = []
    for p in plans:
        if p.name in reason_for:
            outcomes[p.name] = SectionOutcome(p.name, reason=reason_for[p.name])
        else:
            outcomes[p.name] = SectionOutcome(p.name)  # placeholder, keeps section order
            applicable.append(p)
    return outcomes, applicable


async def run_adherence(ctx: StepContext | None, plans: Sequence[SectionPlan]) -> MetricOutcome:
    """Custom sections only: categorical check, then one request for all questions.

    Without a context (offline mode) only the deterministic categorical check runs;
    free-form custom sections are N/A.
    """
    offline = ctx is None
    reasons: dict[str, str] = {}
    for p in plans:
        if p.definition is None:
            reasons[p.name] = NO_DEFINITION
        elif p.definition.kind == "prebuilt":
            reasons[p.name] = adh.PREBUILT_NA
        elif offline and not p.definition.categorical:
            reasons[p.name] = NEEDS_LLM
    outcomes, applicable = _na_or_plan(plans, reasons)
    if not applicable:
        return MetricOutcome(
            adh.NAME,
            adh.VERSION,
            sections=outcomes,
            reason=NO_CUSTOM,
            mode="offline" if offline else "judge",
        )
    free = [p.definition for p in applicable if p.definition and not p.definition.categorical]
    directives = await _directives(ctx, free) if ctx is not None and free else {}
    asked: list[Question] = []
    fixed: dict[str, list[RubricAnswer]] = {}
    checks: dict[str, dict[str, object]] = {}
    errors: dict[str, str] = {}
    for p in applicable:
        assert p.definition is not None
        if p.definition.categorical:
            check = adh.categorical_check(p.definition, p.text)
            checks[p.name] = check
            if not check["passed"]:
                fixed[p.name] = [adh.failed_check_answer(check)]
            elif offline:
                note = adh.passed_check_note(check)
                fixed[p.name] = [
                    RubricAnswer(
                        CATEGORICAL_QUESTION,
                        note + " Offline mode: whether it is the right value for this "
                        "conversation is not judged.",
                        True,
                    )
                ]
            else:
                asked.append(Question(f"Q{len(asked) + 1}", p.name, CATEGORICAL_QUESTION))
            continue
        found = directives.get(p.definition.name)
        if isinstance(found, str) or found is None:
            errors[p.name] = found or "no rubric questions"
            continue
        for text in questions(found, "adherence"):
            asked.append(Question(f"Q{len(asked) + 1}", p.name, text))
    answers: dict[str, RubricAnswer] = {}
    usage, calls, metric_error, raw = Usage(), 0, None, None
    if asked and ctx is not None:
        judged = await _ask(ctx, applicable, asked, adh.adherence_request, adh.read_answers)
        usage, calls, raw = judged.usage, judged.calls, judged.raw_reply
        if judged.value is None:
            metric_error = judged.error
        else:
            answers = judged.value
    for p in applicable:
        if p.name in errors:
            outcomes[p.name] = SectionOutcome(p.name, error=errors[p.name])
            continue
        mine = [q for q in asked if q.section == p.name]
        if mine and metric_error is not None:
            outcomes[p.name] = SectionOutcome(p.name, error=metric_error)
            continue
        rubric = list(fixed.get(p.name, []))
        for q in mine:
            a = answers[q.id]
            if p.name in checks:
                a = RubricAnswer(
                    a.question,
                    adh.passed_check_note(checks[p.name]) + " " + a.reasoning,
                    a.is_addressed,
                )
            rubric.append(a)
        outcomes[p.name] = SectionOutcome(
            p.name,
            numerator=sum(1 for a in rubric if a.is_addressed),
            denominator=len(rubric),
            rubrics=tuple(rubric),
            check=checks.get(p.name),
        )
    if metric_error is None and errors:
        metric_error = "; ".join(f"{n}: {e}" for n, e in errors.items())
    return MetricOutcome(
        adh.NAME,
        adh.VERSION,
        sections=outcomes,
        error=metric_error,
        raw_reply=raw,
        usage=usage,
        calls=calls,
        mode="offline" if offline else "judge",
    )


async def run_completeness(ctx: StepContext, plans: Sequence[SectionPlan]) -> MetricOutcome:
    """Free-form sections only: one request with every section's questions."""
    reasons: dict[str, str] = {}
    for p in plans:
        if p.definition is None:
            reasons[p.name] = NO_DEFINITION
        elif p.definition.categorical:
            reasons[p.name] = comp.CATEGORICAL_NA
    outcomes, applicable = _na_or_plan(plans, reasons)
    if not applicable:
        return MetricOutcome(comp.NAME, comp.VERSION, sections=outcomes, reason=NO_FREE_FORM)
    directives = await _directives(ctx, [p.definition for p in applicable if p.definition])
    asked: list[Question] = []
    errors: dict[str, str] = {}
    for p in applicable:
        assert p.definition is not None
        found = directives.get(p.definition.name)
        if isinstance(found, str) or found is None:
            errors[p.name] = found or "no rubric questions"
            continue
        for text in questions(found, "completeness"):
            asked.append(Question(f"Q{len(asked) + 1}", p.name, text))
    usage, calls, metric_error, raw = Usage(), 0, None, None
    rubrics = {}
    if asked:
        judged = await _ask(ctx, applicable, asked, comp.completeness_request, comp.read_rubrics)
        usage, calls, raw = judged.usage, judged.calls, judged.raw_reply
        if judged.value is None:
            metric_error = judged.error
        else:
            rubrics = judged.value
    for p in applicable:
        if p.name in errors or metric_error is not None:
            outcomes[p.name] = SectionOutcome(p.name, error=errors.get(p.name) or metric_error)
            continue
        mine = [rubrics[q.id] for q in asked if q.section == p.name]
        items = [c for r in mine for c in r.content_list]
        outcomes[p.name] = SectionOutcome(
            p.name,
            numerator=sum(1 for c in items if c.is_covered),
            denominator=len(items),
            rubrics=tuple(mine),
            note=None if items else EMPTY_CONTENT,
        )
    if metric_error is None and errors:
        metric_error = "; ".join(f"{n}: {e}" for n, e in errors.items())
    return MetricOutcome(
        comp.NAME,
        comp.VERSION,
        sections=outcomes,
        error=metric_error,
        raw_reply=raw,
        usage=usage,
        calls=calls,
    )
