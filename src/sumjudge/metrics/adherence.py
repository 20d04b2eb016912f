"""Adherence: does each custom section follow its definition?

Prebuilt sections are not judged (N/A). A free-form custom section gets the rubric
questions derived from its definition. A categorical section first gets a deterministic
check (after trimming and case-folding, is the text exactly one of the allowed values?);
if that fails the answer is "False" without asking the judge, otherwise the judge answers
the specification's question (which also asks whether the value follows the instruction).
All of one summary's questions go to the judge in one request. Score: addressed
questions / questions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..plan import Judged, MetricPlan
from ..types import NO_DEFINITION, MetricOutcome, RubricAnswer, SectionDefinition, SectionOutcome
from ._conversation import NO_CUSTOM, ConversationContext, na_or_plan
from ._questions import Question, QuestionSpec, answers_schema
from ._read import as_bool, as_str
from .rubric import CATEGORICAL_QUESTION, questions

__all__ = [
    "NAME",
    "PREBUILT_NA",
    "SCHEMA",
    "SPEC",
    "TASK",
    "VERSION",
    "asks_rubric",
    "categorical_check",
    "plan",
]

NAME = "adherence"
VERSION = "2"
TASK = f"{NAME}@{VERSION}"

PREBUILT_NA = "N/A: adherence is judged only for custom sections; this section is prebuilt"
FREE_FORM_PART = f"{TASK}/free_form"
"""Judging a free-form custom section (a judge may decline it, with its reason)."""
CATEGORICAL_PART = f"{TASK}/categorical"
"""Judging whether a valid categorical value is the right one (declined: noted, not asked)."""

SCHEMA = answers_schema(
    {
        "reasoning": {
            "type": "string",
            "description": "Why the section does or does not follow the instruction, citing "
            "its text.",
        },
        "is_addressed": {"type": "boolean"},
    }
)

_INSTRUCTIONS = (
    "Task: check the summary's ADHERENCE to its section definitions.\n\n"
    "Section definitions (data, written for the summariser):\n{definitions}\n\n"
    "Questions:\n{questions}\n\n"
    'For each question, read the named summary section (the text under its "## <name>" '
    "heading) and decide whether it does what the question asks, as the section's "
    "definition intends. Use the transcript to see what the section should have said. A "
    "question about form (length, format, person) is answered from the section's form. For "
    "a categorical section, the section must contain only one of the allowed values, with "
    "no other text, and that value must be the one the definition calls for. Write the "
    "reasoning first (quote the section where useful), then set is_addressed.\n\n"
    'Reply with exactly: {{"rubrics": [{{"id": "Q1", "reasoning": "...", '
    '"is_addressed": true|false}}, ...]}} with one entry per question.'
)


def categorical_check(definition: SectionDefinition, text: str | None) -> dict[str, Any]:
    """Is the section's text exactly one allowed value (after trimming and case-folding)?"""
    allowed = list(definition.allowed_values or ())
    value = (text or "").strip()
    folded = {v.strip().casefold(): v for v in allowed}
    matched = folded.get(value.casefold()) if value else None
    return {
        "value": value,
        "allowed_values": allowed,
        "passed": matched is not None,
        "matched": matched,
    }


def failed_check_answer(check: Mapping[str, Any]) -> RubricAnswer:
    """The deterministic "False" for a categorical section that is not one allowed value."""
    allowed = ", ".join(repr(v) for v in check["allowed_values"])
    if not check["value"]:
        why = "The section is empty or missing, so it gives none of the allowed values"
    else:
        why = (
            f"The summary is not a categorical value: {check['value'][:200]!r} is not exactly "
            "one of the allowed values; it contains other text instead"
        )
    return RubricAnswer(
        question=CATEGORICAL_QUESTION,
        reasoning=f"{why} ({allowed}). Deterministic check, no judge call.",
        is_addressed=False,
    )


def passed_check_note(check: Mapping[str, Any]) -> str:
    """The note on an answer whose categorical value passed the deterministic check."""
    return f"Deterministic check passed: {check['value']!r} is an allowed value."


def _answer(q: Question, item: dict[str, Any]) -> RubricAnswer:
    reasoning = as_str(item.get("reasoning"), "reasoning")
    return RubricAnswer(q.text, reasoning, as_bool(item.get("is_addressed"), "is_addressed"))


SPEC = QuestionSpec(TASK, _INSTRUCTIONS, SCHEMA, "adherence_rubrics", _answer)
"""The request and reader of the adherence questions."""


def asks_rubric(definition: SectionDefinition) -> bool:
    """Whether adherence asks rubric questions of a section so defined (free-form custom)."""
    return definition.kind != "prebuilt" and not definition.categorical


def _word(directives: Sequence[str]) -> list[str]:
    return questions(directives, "adherence")


def plan(ctx: ConversationContext) -> MetricPlan[MetricOutcome]:
    """Custom sections only: the categorical check, then one request for every question.

    Parts the judge declines: a free-form section is N/A with its reason; a categorical
    value that passed the check counts as addressed, with the reason noted.
    """
    caps = ctx.capabilities
    version, mode = ctx.version(VERSION), caps.mode
    free_declined = caps.declines(FREE_FORM_PART)
    value_declined = caps.declines(CATEGORICAL_PART)
    reasons: dict[str, str] = {}
    for p in ctx.sections:
        if p.definition is None:
            reasons[p.name] = NO_DEFINITION
        elif p.definition.kind == "prebuilt":
            reasons[p.name] = PREBUILT_NA
        elif free_declined and not p.definition.categorical:
            reasons[p.name] = free_declined
    outcomes, applicable = na_or_plan(ctx.sections, reasons)
    asked: list[Question] = []
    fixed: dict[str, list[RubricAnswer]] = {}
    checks: dict[str, dict[str, Any]] = {}
    errors: dict[str, str] = {}
    for p in applicable:
        assert p.definition is not None
        if p.definition.categorical:
            check = categorical_check(p.definition, p.text)
            checks[p.name] = check
            if not check["passed"]:
                fixed[p.name] = [failed_check_answer(check)]
            elif value_declined:
                note = f"{passed_check_note(check)} {value_declined}"
                fixed[p.name] = [RubricAnswer(CATEGORICAL_QUESTION, note, True)]
            else:
                asked.append(Question(f"Q{len(asked) + 1}", p.name, CATEGORICAL_QUESTION))
            continue
        SPEC.add_directive_questions(p, ctx.directives, _word, asked, errors)

    def finish(judged: Sequence[Judged[Any]]) -> dict[str, MetricOutcome]:
        if not applicable:
            return {
                NAME: MetricOutcome(NAME, version, sections=outcomes, reason=NO_CUSTOM, mode=mode)
            }
        reply = SPEC.only_reply(judged)
        answers: dict[str, RubricAnswer] = reply.value or {}
        metric_error = reply.error
        done = dict(outcomes)
        for p in applicable:
            if p.name in errors:
                done[p.name] = SectionOutcome(p.name, error=errors[p.name])
                continue
            mine = [q for q in asked if q.section == p.name]
            if mine and metric_error is not None:
                done[p.name] = SectionOutcome(p.name, error=metric_error)
                continue
            rubric = list(fixed.get(p.name, []))
            for q in mine:
                a = answers[q.id]
                if p.name in checks:
                    note = passed_check_note(checks[p.name])
                    a = RubricAnswer(a.question, f"{note} {a.reasoning}", a.is_addressed)
                rubric.append(a)
            done[p.name] = SectionOutcome(
                p.name,
                numerator=sum(1 for a in rubric if a.is_addressed),
                denominator=len(rubric),
                rubrics=tuple(rubric),
                check=checks.get(p.name),
            )
        return {NAME: SPEC.pooled_outcome(NAME, version, mode, done, errors, reply)}

    return SPEC.plan(NAME, ctx, applicable, asked, finish)
