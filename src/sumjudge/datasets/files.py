"""Reading summaries from JSONL and CSV files, row by row, with per-row errors.

Rows are yielded lazily so that files of any size stream through. A row that cannot be
used becomes a `DataError` naming the row and the field, in place of its item, so the
other rows are still judged.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import DataError
from ..types import SummaryData

__all__ = ["iter_records", "read_summary_rows"]


def iter_records(path: str | Path) -> Iterator[dict[str, Any] | DataError]:
    """Raw records from a .jsonl/.json-lines or .csv file (index = 0-based data row)."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix in (".jsonl", ".ndjson", ".json"):
        with p.open(encoding="utf-8") as fh:
            index = 0
            for line in fh:
                if not line.strip():
                    continue
                try:
                    value = json.loads(line)
                except json.JSONDecodeError as exc:
                    yield DataError(f"invalid JSON ({exc.msg})", item=index)
                else:
                    if isinstance(value, dict):
                        yield value
                    else:
                        yield DataError("a row must be a JSON object", item=index)
                index += 1
    elif suffix == ".csv":
        with p.open(encoding="utf-8", newline="") as fh:
            yield from csv.DictReader(fh)
    else:
        raise DataError(f"unsupported file type {suffix!r} (use .jsonl or .csv)", item=str(p))


def read_summary_rows(
    path: str | Path,
    *,
    input_column: str = "input",
    summary_column: str = "summary",
    id_column: str = "id",
) -> Iterator[SummaryData | DataError]:
    """`SummaryData` per row, or a `DataError` for a row that cannot be used."""
    for index, record in enumerate(iter_records(path)):
        if isinstance(record, DataError):
            yield record
            continue
        yield _to_item(record, index, input_column, summary_column, id_column)


def _to_item(
    record: dict[str, Any], index: int, input_column: str, summary_column: str, id_column: str
) -> SummaryData | DataError:
    values: dict[str, str] = {}
    for column, target in ((input_column, "input"), (summary_column, "summary")):
        value = record.get(column)
        if value is None:
            return DataError("is missing", item=index, field=column)
        if not isinstance(value, str):
            return DataError(f"must be text, got {type(value).__name__}", item=index, field=column)
        if not value.strip():
            return DataError("is empty", item=index, field=column)
        values[target] = value
    raw_id = record.get(id_column)
    return SummaryData(
        input=values["input"],
        summary=values["summary"],
        id=None if raw_id in (None, "") else str(raw_id),
    )
