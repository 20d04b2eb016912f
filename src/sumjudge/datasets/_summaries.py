"""The summary-row reader: `SummaryData` per file row, or a `DataError` naming the row."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ..errors import DataError
from ..text import strip_control
from ..transcripts import normalize_source, render_turns, turns_from_json
from ..types import SummaryData
from ._rows import Warn, missing_value, read_rows, row_id

__all__ = ["read_summary_rows", "record_to_item", "text_cells"]


def read_summary_rows(
    path: str | Path,
    *,
    input_column: str = "input",
    summary_column: str = "summary",
    id_column: str = "id",
    encoding: str | None = None,
    on_warning: Warn | None = None,
) -> Iterator[SummaryData | DataError]:
    """`SummaryData` per row, or a `DataError` for a row that cannot be used.

    A source that is a WebVTT or SRT text, or a JSON list of turns, becomes
    ``Speaker: text`` lines; other sources, and every summary, reach the judges as written
    (control characters and terminal escapes removed).

    Args:
        path: The file (see `sumjudge.datasets.files` for formats).
        input_column: The source column (``--input-column``).
        summary_column: The summary column (``--summary-column``).
        id_column: The id column (``--id-column``); ids are optional.
        encoding: The text encoding when not UTF-8 (``--encoding``).
        on_warning: Receives file-level warnings, one line each (e.g. duplicate ids,
            once, after the last row); by default they are issued as `DataWarning`.

    Raises:
        DataError: Raised by the call itself when the file cannot be used as a whole:
            unsupported type, unknown encoding, no rows, or a column it does not have
            (the message lists the columns found and the flag that picks one).
    """

    def to_item(
        record: dict[str, Any], index: int, line: int | None, _ident: str | None
    ) -> SummaryData | DataError:
        return record_to_item(record, index, input_column, summary_column, id_column, line=line)

    required = {"--input-column": input_column, "--summary-column": summary_column}
    return read_rows(path, encoding, required, id_column, on_warning, to_item)


def _cell_text(
    record: dict[str, Any], column: str, *, turns_allowed: bool
) -> tuple[str | None, str | None]:
    """(text, None) for a usable cell, or (None, what is wrong with it)."""
    problem = missing_value(record, column)
    if problem is not None:
        return None, problem
    value = record[column]
    if turns_allowed and isinstance(value, list):
        turns = turns_from_json(value)
        if turns is None:
            return None, 'must be text or a list of {"speaker", "text"} turns'
        value = render_turns(turns)
    if not isinstance(value, str):
        return None, f"must be text, got {type(value).__name__}"
    if not strip_control(value).strip():
        return None, "is empty"
    return value, None


def record_to_item(
    record: dict[str, Any],
    index: int,
    input_column: str,
    summary_column: str,
    id_column: str,
    *,
    line: int | None = None,
) -> SummaryData | DataError:
    """The `SummaryData` of a file row, or a `DataError` naming the row and the bad column.

    A key that is absent "is missing"; a null value (or NaN, as pandas gives for blanks)
    "is null"; an empty id becomes None. A source given as a JSON list of turns, or as a
    WebVTT/SRT text, becomes ``Speaker: text`` lines. The error carries `line` and the
    row's id.
    """
    ident = row_id(record, id_column)
    columns = {"input": input_column, "summary": summary_column}
    values = text_cells(record, columns, index=index, line=line, ident=ident)
    if isinstance(values, DataError):
        return values
    return SummaryData(input=values["input"], summary=values["summary"], id=ident)


def text_cells(
    record: dict[str, Any],
    columns: Mapping[str, str],
    *,
    index: int,
    line: int | None,
    ident: str | None,
) -> dict[str, str] | DataError:
    """A row's texts by field (`columns`: field -> column), or the first bad cell's error.

    The field "input" is the source: it may be a JSON list of turns or a WebVTT/SRT text,
    and becomes ``Speaker: text`` lines; the other fields are summaries, kept as written.
    """
    values: dict[str, str] = {}
    for target, column in columns.items():
        text, problem = _cell_text(record, column, turns_allowed=target == "input")
        if problem is not None or text is None:
            return DataError(problem or "is missing", item=index, field=column, line=line, id=ident)
        values[target] = normalize_source(text) if target == "input" else text
    return values
