"""The autoevaluation data model: transcripts, summaries and section definitions.

A transcript is plain text or a list of turns; a summary is free text or sections
(name -> text); a section definition says what one section must contain. Definitions are
written once and reused across thousands of conversations, so they carry a stable
`fingerprint` used to cache the rubric questions derived from them.

Example:
    >>> SectionDefinition(name="Resolved", instruction="Was it resolved?",
    ...                   allowed_values=("Yes", "No")).categorical
    True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

from ..errors import DataError
from ..text import parse_turn_line, strip_control
from ..transcripts import TranscriptTurn, parse_transcript, structured_format, turns_from_json
from ._coerce import validated
from .summary import OptionalText, Text

__all__ = [
    "FREE_TEXT_SECTION",
    "ConversationItem",
    "SectionDefinition",
    "Turn",
    "coerce_conversation",
    "coerce_section",
]

FREE_TEXT_SECTION = "summary"
"""The section name given to a free-text (unsectioned) summary."""


class Turn(BaseModel):
    """One turn of a conversation. Turns are numbered from 1 in the order given."""

    model_config = ConfigDict(frozen=True)

    role: Text
    """The speaker's role, such as "agent" or "customer"."""
    text: Text
    name: OptionalText = None
    """The speaker's name, if known."""
    timestamp: OptionalText = None
    """When the turn started, as written in the source (e.g. "00:01:12")."""


class SectionDefinition(BaseModel):
    """What one summary section must contain.

    Attributes:
        name: the section's name, as used in summaries ("Key details").
        instruction: the section definition given to the summariser.
        kind: "prebuilt" (provided by the platform) or "custom" (written by the user).
            Adherence is judged only for custom sections.
        allowed_values: for a categorical section, the values it may take.
    """

    model_config = ConfigDict(frozen=True)

    name: str
    instruction: str
    kind: Literal["prebuilt", "custom"] = "custom"
    allowed_values: tuple[str, ...] | None = None

    @field_validator("name", "instruction")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty")
        return value.strip()

    @field_validator("allowed_values")
    @classmethod
    def _values(cls, value: tuple[str, ...] | None) -> tuple[str, ...] | None:
        if value is None:
            return None
        cleaned = tuple(str(v).strip() for v in value)
        if not cleaned or any(not v for v in cleaned):
            raise ValueError("must list at least one non-empty value")
        return cleaned

    @property
    def categorical(self) -> bool:
        """Whether the section must be exactly one of `allowed_values`."""
        return self.allowed_values is not None

    def fingerprint(self) -> str:
        """A hash of everything that shapes the section's rubric questions."""
        blob = json.dumps(
            [self.name, self.instruction, self.kind, list(self.allowed_values or ())],
            ensure_ascii=False,
        )
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _turns_from_text(text: str) -> tuple[Turn, ...]:
    """The turns of a text transcript.

    WebVTT, SRT and JSON turn lists are parsed by `sumjudge.transcripts.parse_transcript`
    (cue numbers and timings dropped, a speaker's consecutive cues merged). Otherwise each
    non-empty line is a turn, split by `sumjudge.text.parse_turn_line`: "Speaker: text"
    makes the speaker the turn's role; "Name (Role): text" gives the name and the role; a
    leading timestamp ("[00:01:12]") is kept as the turn's timestamp. A line without a
    speaker is a turn of role "text".
    """
    structured = _structured_turns(text)
    if structured is not None:
        return structured
    turns = []
    for line in text.splitlines():
        if not line.strip():
            continue
        parsed = parse_turn_line(line)
        if parsed is None:
            turns.append(Turn(role="text", text=line.strip()))
        elif parsed.role is None:
            turns.append(Turn(role=parsed.speaker, text=parsed.text, timestamp=parsed.timestamp))
        else:
            turns.append(
                Turn(
                    role=parsed.role,
                    text=parsed.text,
                    name=parsed.speaker,
                    timestamp=parsed.timestamp,
                )
            )
    return tuple(turns)


def _structured_turns(text: str) -> tuple[Turn, ...] | None:
    """The turns of a WebVTT, SRT or JSON-turn-list text; None for other text."""
    if structured_format(text) is None:
        return None
    parsed = parse_transcript(text)
    return tuple(_turn(t) for t in parsed) if parsed else None


def _turn(t: TranscriptTurn) -> Turn:
    if t.speaker is None:
        return Turn(role="text", text=t.text, timestamp=t.timestamp)
    if t.role is not None:
        return Turn(role=t.role, text=t.text, name=t.speaker, timestamp=t.timestamp)
    return Turn(role=t.speaker, text=t.text, timestamp=t.timestamp)


def _turn_mapping(turn: Mapping[str, Any]) -> dict[str, Any]:
    """A turn mapping with "speaker" (or only "name") as its role and "content" as its text."""
    data = dict(turn)
    speaker = data.pop("speaker", None)
    if data.get("text") is None and isinstance(data.get("content"), str):
        data["text"] = data.pop("content")
    if data.get("role") in (None, ""):
        if speaker not in (None, ""):
            data["role"] = speaker
        elif data.get("name") not in (None, ""):
            data["role"] = data.pop("name")
    elif speaker not in (None, "") and data.get("name") in (None, ""):
        data["name"] = speaker
    return data


class ConversationItem(BaseModel):
    """One conversation and the summary to judge.

    `transcript` is plain text or a list of turns (mappings are accepted); `summary` is
    free text or a mapping from section name to text.
    """

    model_config = ConfigDict(frozen=True)

    transcript: str | tuple[Turn, ...]
    summary: str | dict[str, str]
    id: str | None = None

    @field_validator("transcript")
    @classmethod
    def _transcript(cls, value: str | tuple[Turn, ...]) -> str | tuple[Turn, ...]:
        if isinstance(value, str):
            value = strip_control(value)
            structured = _structured_turns(value)
            if structured:  # WebVTT, SRT, a JSON turn list: the normalised turns
                return structured
        if isinstance(value, str) and not value.strip():
            raise ValueError("must not be empty")
        if not isinstance(value, str) and not value:
            raise ValueError("must have at least one turn")
        return value

    @field_validator("summary")
    @classmethod
    def _summary(cls, value: str | dict[str, str]) -> str | dict[str, str]:
        if isinstance(value, str):
            value = strip_control(value)
            if not value.strip():
                raise ValueError("must not be empty")
            return value
        if not value:
            raise ValueError("must have at least one section")
        return {strip_control(k): strip_control(v) for k, v in value.items()}

    @model_validator(mode="before")
    @classmethod
    def _ids_as_text(cls, data: Any) -> Any:
        if isinstance(data, Mapping) and data.get("id") is not None:
            data = {**data, "id": strip_control(str(data["id"]))}
        return data

    @property
    def turns(self) -> tuple[Turn, ...]:
        """The transcript as numbered turns (plain text is split into lines)."""
        if isinstance(self.transcript, str):
            return _turns_from_text(self.transcript)
        return self.transcript

    @property
    def sections(self) -> dict[str, str]:
        """The summary as sections; free text is one section named "summary"."""
        if isinstance(self.summary, str):
            return {FREE_TEXT_SECTION: self.summary}
        return dict(self.summary)


def coerce_conversation(item: Any, index: int | str | None = None) -> ConversationItem:
    """Validate one input item, naming the item and the field when it is unusable."""
    if isinstance(item, ConversationItem):
        return item
    if not isinstance(item, Mapping):
        raise DataError(
            f"expected ConversationItem or a mapping, got {type(item).__name__}", item=index
        )
    data = dict(item)
    transcript = data.get("transcript")
    if isinstance(transcript, str) and transcript.lstrip().startswith("["):
        listed = turns_from_json(transcript)  # a JSON turn list given as text (a CSV cell)
        if listed is not None:
            transcript = [_turn(t) for t in listed if t.text.strip()]
    if isinstance(transcript, (list, tuple)):
        turns = []
        for n, turn in enumerate(transcript, 1):
            if isinstance(turn, Turn):
                turns.append(turn)
                continue
            if not isinstance(turn, Mapping):
                raise DataError(
                    f"a turn must be a mapping, got {type(turn).__name__}",
                    item=index,
                    field=f"transcript[{n}]",
                )
            turns.append(validated(Turn, _turn_mapping(turn), index, f"transcript[{n}]."))
        data["transcript"] = tuple(turns)
    summary = data.get("summary")
    if isinstance(summary, Mapping):
        for name, text in summary.items():
            if text is not None and not isinstance(text, str):
                raise DataError(
                    f"must be text, got {type(text).__name__}", item=index, field=f"summary.{name}"
                )
        # A null section is an absent one: the summariser produced nothing for it.
        data["summary"] = {str(k): v for k, v in summary.items() if v is not None}
    return validated(ConversationItem, data, index)


def coerce_section(value: Any, index: int | str | None = None) -> SectionDefinition:
    """Validate one section definition (a mapping or a SectionDefinition)."""
    if isinstance(value, SectionDefinition):
        return value
    if not isinstance(value, Mapping):
        raise DataError(
            f"a section definition must be a mapping, got {type(value).__name__}",
            item=index,
        )
    return validated(SectionDefinition, value, index)
