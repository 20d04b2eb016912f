"""Numbered questions about named sections, sent to the judge in one request per metric."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ..errors import ParseError
from ..plan import Call, Judged, MetricPlan
from ..protocol import JudgeRequest, JudgeResponse
from ..types import MetricOutcome, SectionDefinition, SectionOutcome, SectionPlan
from ._conversation import build_request, restrict
from ._delimit import fenced
from ._read import reply_object

__all__ = [
    "ID_PATH",
    "Question",
    "QuestionSpec",
    "add_directive_questions",
    "answers_by_id",
    "answers_schema",
    "asked_definitions",
    "only_reply",
    "pooled_outcome",
    "read_each",
    "render_definitions",
    "render_questions",
]

T = TypeVar("T")


def answers_schema(answer: dict[str, Any]) -> dict[str, Any]:
    """The schema of a reply answering numbered questions: `{"rubrics": [{"id", ...}]}`.

    `answer` holds the properties of one answer besides its id; all are required.
    """
    item = {
        "type": "object",
        "properties": {
            "id": {"type": "string", "description": "The question id, e.g. Q1."},
            **answer,
        },
        "required": ["id", *answer],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {"rubrics": {"type": "array", "items": item}},
        "required": ["rubrics"],
        "additionalProperties": False,
    }


ID_PATH = ("properties", "rubrics", "items", "properties", "id")
"""Where the question id sits in the adherence and completeness schemas."""


@dataclass(frozen=True)
class Question:
    """One question about one section; `id` ("Q3") is how the judge refers to it."""

    id: str
    section: str
    text: str


def render_definitions(definitions: Sequence[SectionDefinition], code: str) -> str:
    """The definitions as delimited data blocks (their text is untrusted).

    `code` is the prompt's delimiter code (`ConversationContext.seal`), which avoids the
    definitions' texts as well as the transcript's and the summary's.
    """
    parts = []
    for d in definitions:
        allowed = "\nAllowed values: " + ", ".join(d.allowed_values) if d.allowed_values else ""
        body = f"Name: {d.name}\nDefinition: {d.instruction}{allowed}"
        parts.append(fenced("section", code, body))
    return "\n".join(parts)


def render_questions(questions: Sequence[Question]) -> str:
    """The numbered questions, each naming its section."""
    return "\n".join(f'{q.id} (section "{q.section}"): {q.text}' for q in questions)


def read_each(
    response: JudgeResponse,
    questions: Sequence[Question],
    read_one: Callable[[Question, dict[str, Any]], T],
) -> dict[str, T]:
    """Every question's answer read with `read_one`, keyed by question id."""
    found = answers_by_id(response, questions)
    out: dict[str, T] = {}
    for q in questions:
        try:
            out[q.id] = read_one(q, found[q.id])
        except ParseError as exc:
            raise ParseError(f"answer {q.id}: {exc}", raw=response.text) from None
    return out


def answers_by_id(
    response: JudgeResponse, questions: Sequence[Question]
) -> dict[str, dict[str, Any]]:
    """The reply's `rubrics` entries keyed by question id; every question must be answered."""
    data = reply_object(response)
    items = data.get("rubrics")
    if not isinstance(items, list):
        raise ParseError("the reply has no 'rubrics' list", raw=response.text)
    wanted = {q.id for q in questions}
    found: dict[str, dict[str, Any]] = {}
    for item in items:
        if isinstance(item, dict):
            qid = str(item.get("id", "")).strip()
            if qid in wanted and qid not in found:
                found[qid] = item
    missing = [q.id for q in questions if q.id not in found]
    if missing:
        raise ParseError(f"no answer for question(s) {', '.join(missing)}", raw=response.text)
    return found


def add_directive_questions(
    section: SectionPlan,
    directives: Mapping[str, tuple[str, ...] | str],
    word: Callable[[Sequence[str]], list[str]],
    asked: list[Question],
    errors: dict[str, str],
) -> None:
    """Ask the section's rubric questions, or record why it has none."""
    assert section.definition is not None
    found = directives.get(section.definition.name)
    if isinstance(found, str) or found is None:
        errors[section.name] = found or "no rubric questions"
        return
    for text in word(found):
        asked.append(Question(f"Q{len(asked) + 1}", section.name, text))


def asked_definitions(
    applicable: Sequence[SectionPlan], asked: Sequence[Question]
) -> list[SectionDefinition]:
    """The definitions of the sections that have questions in the request."""
    in_request = {q.section for q in asked}
    return [p.definition for p in applicable if p.definition and p.name in in_request]


def only_reply(judged: Sequence[Judged[Any]]) -> Judged[Any]:
    """The reply to a question metric's single request (empty when nothing was asked)."""
    return judged[0] if judged else Judged()


def pooled_outcome(
    name: str,
    version: str,
    mode: str,
    sections: dict[str, SectionOutcome],
    errors: Mapping[str, str],
    reply: Judged[Any],
) -> MetricOutcome:
    """The metric over its sections; a section without questions fails the metric too."""
    error = reply.error
    if error is None and errors:
        error = "; ".join(f"{n}: {e}" for n, e in errors.items())
    return MetricOutcome(
        name,
        version,
        sections=sections,
        error=error,
        raw_reply=reply.raw_reply,
        usage=reply.usage,
        calls=reply.calls,
        mode=mode,
    )


@dataclass(frozen=True)
class QuestionSpec(Generic[T]):
    """What makes a question metric (adherence, completeness) its own.

    Attributes:
        task: the request's task ("adherence@1").
        template: the instructions, with `{definitions}` and `{questions}`.
        schema: the reply's JSON schema (question ids are pinned to those asked).
        schema_name: the schema's short name.
        read_one: reads one question's answer; raises `ParseError` when unusable.
    """

    task: str
    template: str
    schema: dict[str, Any]
    schema_name: str
    read_one: Callable[[Question, dict[str, Any]], T]

    def request(
        self,
        prefix: str,
        definitions: Sequence[SectionDefinition],
        questions: Sequence[Question],
        *,
        language: str | None,
        max_tokens: int,
        code: str,
    ) -> JudgeRequest:
        """One request answering every question of one summary (`code`: the delimiters')."""
        return build_request(
            task=self.task,
            prefix=prefix,
            instructions=self.template.format(
                definitions=render_definitions(definitions, code),
                questions=render_questions(questions),
            ),
            schema=restrict(self.schema, ID_PATH, [q.id for q in questions]),
            schema_name=self.schema_name,
            language=language,
            max_tokens=max_tokens,
            kind="questions",
        )

    def read(self, response: JudgeResponse, questions: Sequence[Question]) -> dict[str, T]:
        """Every question's answer, keyed by question id."""
        return read_each(response, questions, self.read_one)

    # The shared steps of a question metric's plan, here so a metric needs only its spec.
    add_directive_questions = staticmethod(add_directive_questions)
    only_reply = staticmethod(only_reply)
    pooled_outcome = staticmethod(pooled_outcome)

    def plan(
        self,
        name: str,
        ctx: Any,
        applicable: Sequence[SectionPlan],
        asked: Sequence[Question],
        finish: Callable[[Sequence[Judged[Any]]], Mapping[str, MetricOutcome]],
    ) -> MetricPlan[MetricOutcome]:
        """The metric's plan: one request for every question asked (none: no request)."""
        if not asked:
            return MetricPlan(name, (), finish)
        request = self.request(
            ctx.prefix,
            asked_definitions(applicable, asked),
            asked,
            language=ctx.language,
            max_tokens=ctx.max_tokens,
            code=ctx.seal,
        )

        def read(response: JudgeResponse) -> dict[str, T]:
            return self.read(response, asked)

        return MetricPlan(name, (Call(request, read),), finish)
