"""Rubric questions derived from a section definition, generated once and cached.

A section definition is reused across thousands of conversations, so its questions are
asked for once per distinct definition (`evaluators/rubric_cache.py`): the cache key is a
hash of the definition (name, instruction, kind, allowed values) and of this generator's
task and version. The judge
splits the instruction into the separate things it asks for; the questions are then
worded by us, exactly in the specification's form:

- adherence: "Does the summary follow the instruction '<directive>'?"
- completeness: "Does the summary follow '<directive>'?"

so one generation serves both metrics. The cache lives in memory and, optionally, in a
JSON file that later runs reuse. Concurrent conversations wanting the same definition
share a single in-flight request.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from ..errors import ParseError
from ..protocol import JudgeRequest, JudgeResponse
from ..types import SectionDefinition
from ._conversation import build_request
from ._delimit import fenced, seal
from ._read import as_str, reply_object

__all__ = [
    "CATEGORICAL_QUESTION",
    "TASK",
    "VERSION",
    "RubricGenerationError",
    "adherence_question",
    "cache_key",
    "completeness_question",
    "questions",
    "read_directives",
    "rubric_request",
]

NAME = "rubric"
VERSION = "2"
TASK = f"{NAME}@{VERSION}"

CATEGORICAL_QUESTION = (
    "Does the summary follow the instruction and return only one of the allowed categorical values?"
)

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "analysis": {
            "type": "string",
            "description": "Brief reasoning: what the instruction asks the summary to do.",
        },
        "directives": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Each separate thing the instruction asks for, as a short "
            "imperative phrase in the instruction's own words.",
        },
    },
    "required": ["analysis", "directives"],
    "additionalProperties": False,
}

_INSTRUCTIONS = (
    "Task: turn the section definition above into a checklist.\n\n"
    "The definition tells a summariser what one section of a conversation summary must "
    "contain. List each separate thing it asks for as one directive: a short imperative "
    "phrase that keeps the definition's own words as far as possible (for example "
    '"Identify any dates explicitly mentioned by the agent or the customer"). Split '
    'compound requests ("X; Y; and Z") into separate directives; include requirements of '
    "form (length, format, person, tense) as directives too; do not invent requirements the "
    "definition does not state. Write the directives in the definition's language.\n\n"
    'Reply with exactly: {"analysis": "...", "directives": ["...", "..."]}'
)


def adherence_question(directive: str) -> str:
    """A directive worded as the specification's adherence question."""
    return f"Does the summary follow the instruction '{directive}'?"


def completeness_question(directive: str) -> str:
    """A directive worded as the specification's completeness question."""
    return f"Does the summary follow '{directive}'?"


def rubric_request(definition: SectionDefinition) -> JudgeRequest:
    """The question-generation request for one definition (no conversation data in it).

    It has the conversation metrics' layout (`build_request`: their system message, then
    the data block and the instructions), with the definition as the data block.
    """
    body = f"Name: {definition.name}\nDefinition: {definition.instruction}"
    return build_request(
        task=TASK,
        prefix=fenced("section", seal(body), body) + "\n\n",
        instructions=_INSTRUCTIONS,
        schema=SCHEMA,
        schema_name="section_rubric",
        language="the language of the section definition",
        max_tokens=1024,
        kind="rubric",
    )


def read_directives(response: JudgeResponse) -> tuple[str, ...]:
    """The directives of a generation reply; raises `ParseError` when there are none."""
    data = reply_object(response)
    items = data.get("directives")
    if not isinstance(items, list) or not items:
        raise ParseError("the reply has no non-empty 'directives' list", raw=response.text)
    out = [as_str(d, "directive").rstrip(".") for d in items]
    return tuple(dict.fromkeys(d for d in out if d))


class RubricGenerationError(ParseError):
    """The judge could not produce a section's rubric questions; the message says why."""


def cache_key(definition: SectionDefinition) -> str:
    """The rubric cache's key of `definition` (changes with this generator's version)."""
    return hashlib.sha256(f"{TASK}\n{definition.fingerprint()}".encode()).hexdigest()


def questions(directives: Sequence[str], metric: str) -> list[str]:
    """The directives worded as the metric's questions."""
    word = adherence_question if metric == "adherence" else completeness_question
    return [word(d) for d in directives]
