"""From read rows to items: column checks, row ids, the duplicate-id warning, the row loop.

`read_rows` is what every row reader of the package shares (summaries, conversations): it
opens the file and checks its columns when called, then turns each row into an item, or
passes on the row's `DataError` with the row's id, and warns once about repeated ids.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from ..errors import DataError
from ..text import strip_control
from ._formats import Rows, open_rows

__all__ = [
    "DataWarning",
    "DuplicateIds",
    "Warn",
    "check_columns",
    "is_null",
    "missing_column_error",
    "missing_value",
    "read_rows",
    "row_id",
]

T = TypeVar("T")

Warn = Callable[[str], None]
"""Where a reader reports a file-level warning (one line of text)."""


class DataWarning(UserWarning):
    """A file-level problem that does not stop the run (e.g. duplicate ids)."""


def missing_column_error(path: Path, column: str, flag: str, found: list[str]) -> DataError:
    """The error for a column the file does not have, listing the ones it has."""
    shown = ", ".join(repr(c) for c in found[:30]) or "none"
    if len(found) > 30:
        shown += f", ... ({len(found)} in all)"
    error = DataError(
        f"{path} has no column {column!r} (columns found: {shown}); choose one with {flag}"
    )
    error.field = column
    return error


def check_columns(rows: Rows, required: dict[str, str], id_column: str) -> None:
    """Raise `DataError` for a required column (flag -> name) that the file lacks.

    The columns are the header (CSV, Parquet) or the first readable row's keys (JSON).
    An id column is required only when it is not the default "id".
    """
    columns = rows.columns
    if columns is None:
        first = rows.first_record()
        if first is None:
            return  # no readable row: every row reports its own error
        columns = [str(k) for k in first]
    wanted = dict(required)
    if id_column != "id":
        wanted["--id-column"] = id_column
    for flag, column in wanted.items():
        if column not in columns:
            raise missing_column_error(rows.path, column, flag, columns)


def row_id(record: dict[str, Any] | None, id_column: str) -> str | None:
    """A record's id as text (None for no id, a blank one or NaN)."""
    if record is None:
        return None
    raw = record.get(id_column)
    if is_null(raw) or raw == "":
        return None
    return strip_control(str(raw))


class DuplicateIds:
    """Counts ids seen more than once and reports them once, at the end of the file."""

    def __init__(self, path: Path, on_warning: Warn | None) -> None:
        """Start counting for the file `path`; `on_warning` receives the one message."""
        self.path = path
        self.on_warning = on_warning
        self.seen: set[str] = set()
        self.count = 0
        self.first: str | None = None

    def add(self, ident: str | None) -> None:
        """Note one row's id."""
        if ident is None:
            return
        if ident in self.seen:
            self.count += 1
            if self.first is None:
                self.first = ident
        else:
            self.seen.add(ident)

    def report(self) -> None:
        """Send the one warning, if there were duplicates."""
        if not self.count:
            return
        rows = "row repeats an id" if self.count == 1 else "rows repeat an id"
        message = f"{self.path}: {self.count} {rows} seen before (first: {self.first!r})"
        if self.on_warning is not None:
            self.on_warning(message)
        else:
            warnings.warn(message, DataWarning, stacklevel=3)


def is_null(value: Any) -> bool:
    """Whether a cell is null: None, or NaN (as pandas gives for blanks)."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def missing_value(record: dict[str, Any], column: str) -> str | None:
    """What makes a cell unusable before its type: "is missing" (no key), "is null", or None."""
    if column not in record:
        return "is missing"
    if is_null(record[column]):
        return "is null"
    return None


def read_rows(
    path: str | Path,
    encoding: str | None,
    required: dict[str, str],
    id_column: str,
    on_warning: Warn | None,
    to_item: Callable[[dict[str, Any], int, int | None, str | None], T | DataError],
) -> Iterator[T | DataError]:
    """The file's rows as items, made by `to_item(record, index, line, id)`, read lazily.

    Args:
        path: The file.
        encoding: Its text encoding when not UTF-8.
        required: The columns it must have, flag -> name (see `check_columns`).
        id_column: The id column; ids are optional.
        on_warning: Receives file-level warnings (duplicate ids, once, after the last row);
            by default they are issued as `DataWarning`.
        to_item: The item of a readable row, or a `DataError` naming the row.

    Raises:
        DataError: Raised by the call itself when the file cannot be used as a whole:
            unsupported type, unknown encoding, no rows, or a required column it lacks.
    """
    rows = open_rows(path, encoding)
    check_columns(rows, required, id_column)
    return _items(rows, id_column, on_warning, to_item)


def _items(
    rows: Rows,
    id_column: str,
    on_warning: Warn | None,
    to_item: Callable[[dict[str, Any], int, int | None, str | None], T | DataError],
) -> Iterator[T | DataError]:
    duplicates = DuplicateIds(rows.path, on_warning)
    for index, raw in enumerate(rows):
        ident = row_id(raw.record, id_column)
        duplicates.add(ident)
        if raw.error is not None:
            raw.error.id = ident
            yield raw.error
            continue
        yield to_item(raw.record or {}, index, raw.line, ident)
    duplicates.report()
