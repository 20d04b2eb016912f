"""Completeness: does each free-form section carry what the transcript holds for it?

Categorical sections are not judged (N/A). For each rubric question of a free-form
section, the judge lists the transcript content the question asks for and, for each
item, the summary text that conveys it ("" when none) and whether it is covered. A
question with an empty content list is kept but not scored. Score: covered items / items.
All of one summary's questions go to the judge in one request.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import ParseError
from ..plan import Judged, MetricPlan
from ..types import (
    NO_DEFINITION,
    CompletenessRubric,
    ContentItem,
    MetricOutcome,
    SectionDefinition,
    SectionOutcome,
)
from ._conversation import NO_FREE_FORM, ConversationContext, na_or_plan
from ._questions import Question, QuestionSpec, answers_schema
from ._read import as_bool, as_str
from .rubric import questions

__all__ = [
    "CATEGORICAL_NA",
    "NAME",
    "SCHEMA",
    "SPEC",
    "TASK",
    "VERSION",
    "asks_rubric",
    "plan",
]

NAME = "completeness"
VERSION = "2"
TASK = f"{NAME}@{VERSION}"

EMPTY_CONTENT = "the transcript holds no content for any of this section's questions; not scored"
CATEGORICAL_NA = (
    "N/A: completeness is judged only for free-form sections; this section is categorical"
)

SCHEMA = answers_schema(
    {
        "content_list": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "transcript_content": {
                        "type": "string",
                        "description": "One piece of information from the transcript that the "
                        "question asks for.",
                    },
                    "related_content_from_summary": {
                        "type": "string",
                        "description": "The summary text that conveys it, copied exactly; "
                        "empty string if the summary lacks it.",
                    },
                    "is_covered": {"type": "boolean"},
                },
                "required": ["transcript_content", "related_content_from_summary", "is_covered"],
                "additionalProperties": False,
            },
        }
    }
)

_INSTRUCTIONS = (
    "Task: check the summary's COMPLETENESS against the transcript.\n\n"
    "Section definitions (data, written for the summariser):\n{definitions}\n\n"
    "Questions:\n{questions}\n\n"
    "For each question, list in content_list every separate piece of information in the "
    "transcript that the question asks the named section to include (one fact per item, "
    "stated briefly as transcript_content). For each item, copy the words of the named "
    'summary section that convey it into related_content_from_summary, or give "" if the '
    "section does not convey it; then set is_covered. If the transcript holds nothing the "
    "question asks for, give an empty content_list for it; do not invent content.\n\n"
    'Reply with exactly: {{"rubrics": [{{"id": "Q1", "content_list": [{{"transcript_content":'
    ' "...", "related_content_from_summary": "...", "is_covered": true|false}}]}}, ...]}} '
    "with one entry per question."
)


def _item(raw: Any) -> ContentItem:
    if not isinstance(raw, dict):
        raise ParseError("a content_list entry is not an object")
    related = as_str(
        raw.get("related_content_from_summary", ""), "related_content", allow_empty=True
    )
    covered = as_bool(raw.get("is_covered"), "is_covered")
    # The specification's rule: uncovered content has no related summary text, and
    # covered content must show it. A "covered" item with no proof counts as uncovered.
    if not related:
        covered = False
    if not covered:
        related = ""
    return ContentItem(
        transcript_content=as_str(raw.get("transcript_content"), "transcript_content"),
        related_content_from_summary=related,
        is_covered=covered,
    )


def _rubric(q: Question, answer: dict[str, Any]) -> CompletenessRubric:
    raw = answer.get("content_list")
    if raw is None:
        raw = []
    if not isinstance(raw, list):
        raise ParseError("content_list is not a list")
    return CompletenessRubric(q.text, tuple(_item(r) for r in raw))


SPEC = QuestionSpec(TASK, _INSTRUCTIONS, SCHEMA, "completeness_rubrics", _rubric)
"""The request and reader of the completeness questions."""


def asks_rubric(definition: SectionDefinition) -> bool:
    """Whether completeness asks rubric questions of a section so defined (free-form)."""
    return not definition.categorical


def _word(directives: Sequence[str]) -> list[str]:
    return questions(directives, "completeness")


def plan(ctx: ConversationContext) -> MetricPlan[MetricOutcome]:
    """Free-form sections only: one request with every section's questions.

    A judge that declines the metric makes every section N/A with its reason.
    """
    version, mode = ctx.version(VERSION), ctx.capabilities.mode
    declined = ctx.capabilities.declines(TASK)
    if declined:
        sections = {p.name: SectionOutcome(p.name, reason=declined) for p in ctx.sections}

        def declined_finish(_: Sequence[Judged[Any]]) -> dict[str, MetricOutcome]:
            outcome = MetricOutcome(NAME, version, sections=sections, reason=declined, mode=mode)
            return {NAME: outcome}

        return MetricPlan(NAME, (), declined_finish)
    reasons: dict[str, str] = {}
    for p in ctx.sections:
        if p.definition is None:
            reasons[p.name] = NO_DEFINITION
        elif p.definition.categorical:
            reasons[p.name] = CATEGORICAL_NA
    outcomes, applicable = na_or_plan(ctx.sections, reasons)
    asked: list[Question] = []
    errors: dict[str, str] = {}
    for p in applicable:
        assert p.definition is not None
        SPEC.add_directive_questions(p, ctx.directives, _word, asked, errors)

    def finish(judged: Sequence[Judged[Any]]) -> dict[str, MetricOutcome]:
        if not applicable:
            outcome = MetricOutcome(
                NAME, version, sections=outcomes, reason=NO_FREE_FORM, mode=mode
            )
            return {NAME: outcome}
        reply = SPEC.only_reply(judged)
        rubrics: dict[str, CompletenessRubric] = reply.value or {}
        metric_error = reply.error
        done = dict(outcomes)
        for p in applicable:
            if p.name in errors or metric_error is not None:
                done[p.name] = SectionOutcome(p.name, error=errors.get(p.name) or metric_error)
                continue
            mine = [rubrics[q.id] for q in asked if q.section == p.name]
            items = [c for r in mine for c in r.content_list]
            done[p.name] = SectionOutcome(
                p.name,
                numerator=sum(1 for c in items if c.is_covered),
                denominator=len(items),
                rubrics=tuple(mine),
                note=None if items else EMPTY_CONTENT,
            )
        return {NAME: SPEC.pooled_outcome(NAME, version, mode, done, errors, reply)}

    return SPEC.plan(NAME, ctx, applicable, asked, finish)
