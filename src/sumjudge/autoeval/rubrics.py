"""Rubric questions derived from a section definition, generated once and cached.

A section definition is reused across thousands of conversations, so its questions are
asked for once per distinct definition: the cache key is a hash of the definition (name,
instruction, kind, allowed values) and of this generator's task and version. The judge
splits the instruction into the separate things it asks for; the questions are then
worded by us, exactly in the specification's form:

- adherence: "Does the summary follow the instruction '<directive>'?"
- completeness: "Does the summary follow '<directive>'?"

so one generation serves both metrics. The cache lives in memory and, optionally, in a
JSON file that later runs reuse. Concurrent conversations wanting the same definition
share a single in-flight request.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import ParseError
from ..metrics._base import neutralize
from ..protocol import JudgeRequest, JudgeResponse, Message, Usage
from ..runner import JudgeCaller
from ._call import judge_json
from ._read import as_str, reply_object
from .model import SectionDefinition
from .prompts import system_message

__all__ = [
    "CATEGORICAL_QUESTION",
    "TASK",
    "VERSION",
    "RubricCache",
    "RubricGenerationError",
    "adherence_question",
    "completeness_question",
    "rubric_request",
]

NAME = "rubric"
VERSION = "1"
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
    return f"Does the summary follow the instruction '{directive}'?"


def completeness_question(directive: str) -> str:
    return f"Does the summary follow '{directive}'?"


def rubric_request(definition: SectionDefinition) -> JudgeRequest:
    """The question-generation request for one definition (no conversation data in it)."""
    block = (
        "<section>\nName: "
        + neutralize(definition.name)
        + "\nDefinition: "
        + neutralize(definition.instruction)
        + "\n</section>\n\n"
    )
    return JudgeRequest(
        messages=(
            Message.of("system", system_message("the language of the section definition")),
            Message("user", (block, _INSTRUCTIONS)),
        ),
        task=TASK,
        schema=SCHEMA,
        schema_name="section_rubric",
        temperature=0.0,
        max_tokens=1024,
    )


def read_directives(response: JudgeResponse) -> tuple[str, ...]:
    data = reply_object(response)
    items = data.get("directives")
    if not isinstance(items, list) or not items:
        raise ParseError("the reply has no non-empty 'directives' list", raw=response.text)
    out = [as_str(d, "directive").rstrip(".") for d in items]
    return tuple(dict.fromkeys(d for d in out if d))


class RubricGenerationError(ParseError):
    """The judge could not produce a section's rubric questions; the message says why."""


def cache_key(definition: SectionDefinition) -> str:
    return hashlib.sha256(f"{TASK}\n{definition.fingerprint()}".encode()).hexdigest()


class RubricCache:
    """Directives per section definition: in memory, optionally persisted as JSON.

    Args:
        path: a JSON file to load at start and update after each new generation.

    Attributes:
        generated: how many definitions were sent to the judge by this cache.
        usage: tokens spent generating them.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._entries: dict[str, tuple[str, ...]] = {}
        self._pending: dict[str, asyncio.Future[tuple[str, ...]]] = {}
        self.generated = 0
        self.usage = Usage()
        if self.path is not None and self.path.exists():
            self._load(self.path)

    def _load(self, path: Path) -> None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            return  # an unreadable cache is rebuilt, never fatal
        if not isinstance(data, dict):
            return
        for key, entry in data.items():
            if isinstance(entry, dict) and isinstance(entry.get("directives"), list):
                self._entries[key] = tuple(str(d) for d in entry["directives"])

    def _save(self, names: dict[str, str]) -> None:
        if self.path is None:
            return
        existing: dict[str, Any] = {}
        if self.path.exists():
            try:
                loaded = json.loads(self.path.read_text(encoding="utf-8"))
                existing = loaded if isinstance(loaded, dict) else {}
            except (OSError, json.JSONDecodeError):
                existing = {}
        for key, directives in self._entries.items():
            entry = existing.get(key)
            section = names.get(key) or (entry.get("section") if isinstance(entry, dict) else "")
            existing[key] = {"section": section, "task": TASK, "directives": list(directives)}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(existing, fh, ensure_ascii=False, indent=2)
        os.replace(tmp, self.path)

    def cached(self, definition: SectionDefinition) -> tuple[str, ...] | None:
        return self._entries.get(cache_key(definition))

    async def directives(
        self, definition: SectionDefinition, caller: JudgeCaller, *, repair: bool = True
    ) -> tuple[str, ...]:
        """The definition's directives, generating them on first use.

        Raises `ParseError` or `ProviderError` when generation fails (nothing is cached
        then, so a later conversation tries again).
        """
        key = cache_key(definition)
        if key in self._entries:
            return self._entries[key]
        pending = self._pending.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[tuple[str, ...]] = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        try:
            request = rubric_request(definition)
            judged = await judge_json(caller, request, read_directives, repair=repair)
            self.generated += 1
            self.usage = self.usage + judged.usage
            if judged.value is None:
                raise RubricGenerationError(
                    f"rubric questions could not be generated: {judged.error}",
                    raw=judged.raw_reply or "",
                )
            self._entries[key] = judged.value
            self._save({key: definition.name})
            future.set_result(judged.value)
            return judged.value
        except BaseException as exc:
            if not future.done():
                future.set_exception(exc)
                future.exception()  # mark retrieved: waiters may not exist
            raise
        finally:
            self._pending.pop(key, None)


def questions(directives: Sequence[str], metric: str) -> list[str]:
    """The directives worded as the metric's questions."""
    word = adherence_question if metric == "adherence" else completeness_question
    return [word(d) for d in directives]
