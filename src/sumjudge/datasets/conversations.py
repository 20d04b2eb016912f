"""Loaders for conversation transcripts, section definitions and the bundled example.

Rows are read lazily; a row that cannot be used becomes a `DataError` naming the row and
the field, in place of its item, so the other rows are still judged.

Example:
    >>> data = load_contact_center_dataset()
    >>> items, sections = data.load(), data.sections()
    >>> len(items), [s.name for s in sections][:2]
    (4, ['Situation', 'Action'])
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from ..errors import DataError
from ..types.conversation import (
    ConversationItem,
    SectionDefinition,
    coerce_conversation,
    coerce_section,
)
from ._rows import Warn, missing_value, read_rows

__all__ = [
    "ConversationDataset",
    "load_contact_center_dataset",
    "load_sections",
    "parse_sections",
    "read_conversation_rows",
]


def parse_sections(data: Any, *, origin: str = "sections") -> list[SectionDefinition]:
    """Section definitions from parsed YAML/JSON: a list, or {"sections": [...]}.

    Raises `DataError` naming the entry and field of a bad definition.
    """
    if isinstance(data, dict) and "sections" in data:
        data = data["sections"]
    if not isinstance(data, list):
        raise DataError("must be a list of section definitions", item=origin)
    out: list[SectionDefinition] = []
    seen: set[str] = set()
    for i, entry in enumerate(data):
        try:
            definition = coerce_section(entry, i)
        except DataError as exc:
            raise DataError(f"{origin}: section {i}: {exc}") from None
        if definition.name.casefold() in seen:
            raise DataError(f"section {definition.name!r} is defined twice", item=origin)
        seen.add(definition.name.casefold())
        out.append(definition)
    return out


def load_sections(path: str | Path) -> list[SectionDefinition]:
    """Section definitions from a .yaml/.yml or .json file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(f"cannot read section definitions: {exc.strerror}", item=str(p)) from None
    try:
        data = json.loads(text) if p.suffix.lower() == ".json" else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        raise DataError(f"not valid {p.suffix.lstrip('.') or 'YAML'}: {exc}", item=str(p)) from None
    return parse_sections(data, origin=str(p))


def read_conversation_rows(
    path: str | Path,
    *,
    transcript_column: str = "transcript",
    summary_column: str = "summary",
    id_column: str = "id",
    encoding: str | None = None,
    on_warning: Warn | None = None,
) -> Iterator[ConversationItem | DataError]:
    """A `ConversationItem` per row, or a `DataError` for a row that cannot be used.

    The transcript is text (plain, ``Speaker: text`` lines, WebVTT, SRT, or a JSON list of
    turns as text) or a list of turns ({"role" | "speaker" | "name", "text", "timestamp"?});
    the summary is text or an object mapping section names to text. Formats, encodings and
    row errors are as for `sumjudge.datasets.files.read_summary_rows`: a row error carries
    the row's `line` and `id`; an absent key "is missing", a null value "is null".

    Args:
        path: The file (.jsonl, .json, .csv/.tsv or .parquet).
        transcript_column: The transcript column (``--transcript-column``).
        summary_column: The summary column (``--summary-column``).
        id_column: The id column (``--id-column``); ids are optional.
        encoding: The text encoding when not UTF-8 (``--encoding``).
        on_warning: Receives file-level warnings (duplicate ids, once, after the last row).

    Raises:
        DataError: Raised by the call itself when the file cannot be used as a whole
            (unsupported type, unknown encoding, no rows, a column it does not have).
    """

    def to_item(
        record: dict[str, Any], index: int, line: int | None, ident: str | None
    ) -> ConversationItem | DataError:
        return _conversation(record, index, line, ident, transcript_column, summary_column)

    required = {"--transcript-column": transcript_column, "--summary-column": summary_column}
    return read_rows(path, encoding, required, id_column, on_warning, to_item)


def _conversation(
    record: dict[str, Any],
    index: int,
    line: int | None,
    ident: str | None,
    transcript_column: str,
    summary_column: str,
) -> ConversationItem | DataError:
    for column in (transcript_column, summary_column):
        problem = missing_value(record, column)
        if problem is not None:
            return DataError(problem, item=index, field=column, line=line, id=ident)
    row: dict[str, Any] = {
        "transcript": record[transcript_column],
        "summary": _sections_text(record[summary_column]),
    }
    if ident is not None:
        row["id"] = ident
    try:
        return coerce_conversation(row, index)
    except DataError as exc:
        field = exc.field or ""
        for key, column in (("transcript", transcript_column), ("summary", summary_column)):
            if field.startswith(key):
                field = column + field[len(key) :]
        return DataError(exc.reason, item=index, field=field or None, line=line, id=ident)


def _sections_text(value: Any) -> Any:
    """A sectioned summary given as JSON text in a CSV cell becomes its mapping."""
    if isinstance(value, str) and value.lstrip().startswith("{"):
        try:
            parsed = json.loads(value)
        except json.JSONDecodeError:
            return value
        if isinstance(parsed, dict):
            return parsed
    return value


@dataclass(frozen=True)
class ConversationDataset:
    """A bundled set of conversations with their section definitions."""

    filename: str
    sections_filename: str
    description: str

    def _text(self, name: str) -> str:
        root = resources.files("sumjudge.datasets").joinpath("data")
        return root.joinpath(name).read_text("utf-8")

    def rows(self) -> list[dict[str, Any]]:
        """The raw rows, including `notes` naming each deliberate flaw."""
        return [json.loads(line) for line in self._text(self.filename).splitlines() if line.strip()]

    def load(self) -> list[ConversationItem]:
        """The rows as validated `ConversationItem`s."""
        return [coerce_conversation(r, i) for i, r in enumerate(self.rows())]

    def sections(self) -> list[SectionDefinition]:
        """The section definitions that go with the conversations."""
        return parse_sections(yaml.safe_load(self._text(self.sections_filename)))


def load_contact_center_dataset() -> ConversationDataset:
    """Four contact-centre conversations with sectioned summaries and six section definitions.

    Flaws (see each row's `notes`): a wrong dollar amount ($30 for $10), a missing product
    name with a categorical section answered in prose, a missing appointment date; the
    fourth summary is faithful and complete.
    """
    return ConversationDataset(
        "contact_center.jsonl",
        "contact_center_sections.yaml",
        "Contact-centre conversations with sectioned, deliberately flawed summaries",
    )
