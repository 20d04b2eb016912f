"""Numbered questions about named sections, sent to the judge in one request per metric."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import ParseError
from ..protocol import JudgeResponse
from ..types import SectionDefinition
from ._base import neutralize
from ._read import reply_object

__all__ = ["ID_PATH", "Question", "answers_by_id", "render_definitions", "render_questions"]

ID_PATH = ("properties", "rubrics", "items", "properties", "id")
"""Where the question id sits in the adherence and completeness schemas."""


@dataclass(frozen=True)
class Question:
    """One question about one section; `id` ("Q3") is how the judge refers to it."""

    id: str
    section: str
    text: str


def render_definitions(definitions: Sequence[SectionDefinition]) -> str:
    parts = []
    for d in definitions:
        allowed = (
            "\nAllowed values: " + ", ".join(neutralize(v) for v in d.allowed_values)
            if d.allowed_values
            else ""
        )
        parts.append(
            f"<section>\nName: {neutralize(d.name)}\nDefinition: {neutralize(d.instruction)}"
            f"{allowed}\n</section>"
        )
    return "\n".join(parts)


def render_questions(questions: Sequence[Question]) -> str:
    return "\n".join(f'{q.id} (section "{q.section}"): {q.text}' for q in questions)


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
