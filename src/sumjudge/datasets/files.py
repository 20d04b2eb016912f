"""Reading summaries from JSONL, CSV and Parquet files, row by row, with per-row errors.

Rows are yielded lazily so that files of any size stream through (Parquet in record
batches of 1,024 rows through pyarrow, the `parquet` extra). A row that cannot be used
becomes a `DataError` naming the row and the field, in place of its item, so the other
rows are still judged.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import DataError, MissingDependencyError
from ..types import SummaryData

__all__ = ["count_rows", "iter_records", "read_summary_rows", "record_to_item"]

_JSONL = (".jsonl", ".ndjson", ".json")


def _pyarrow_parquet() -> Any:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise MissingDependencyError("pyarrow", "parquet") from None
    return pq


def count_rows(path: str | Path) -> int | None:
    """Number of data rows (for progress bars), read cheaply; None if unknown."""
    p = Path(path)
    suffix = p.suffix.lower()
    try:
        if suffix in _JSONL:
            with p.open("rb") as fh:
                return sum(1 for line in fh if line.strip())
        if suffix == ".csv":
            with p.open(encoding="utf-8", newline="") as fh:
                return sum(1 for _ in csv.DictReader(fh))
        if suffix == ".parquet":
            return int(_pyarrow_parquet().ParquetFile(p).metadata.num_rows)
    except (OSError, csv.Error, UnicodeDecodeError):
        return None
    return None


def iter_records(path: str | Path) -> Iterator[dict[str, Any] | DataError]:
    """Raw records from a .jsonl/.json-lines, .csv or .parquet file (index = 0-based data row)."""
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
    elif suffix == ".parquet":
        pf = _pyarrow_parquet().ParquetFile(p)
        for batch in pf.iter_batches(batch_size=1024):
            yield from batch.to_pylist()
    else:
        raise DataError(
            f"unsupported file type {suffix!r} (use .jsonl, .csv or .parquet)", item=str(p)
        )


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
        yield record_to_item(record, index, input_column, summary_column, id_column)


def record_to_item(
    record: dict[str, Any], index: int, input_column: str, summary_column: str, id_column: str
) -> SummaryData | DataError:
    """The `SummaryData` of a file row, or a `DataError` naming the row and the bad column.

    NaN cells (as pandas gives for blanks) count as missing; an empty id becomes None.
    """
    values: dict[str, str] = {}
    for column, target in ((input_column, "input"), (summary_column, "summary")):
        value = record.get(column)
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return DataError("is missing", item=index, field=column)
        if not isinstance(value, str):
            return DataError(f"must be text, got {type(value).__name__}", item=index, field=column)
        if not value.strip():
            return DataError("is empty", item=index, field=column)
        values[target] = value
    raw_id = record.get(id_column)
    if isinstance(raw_id, float) and math.isnan(raw_id):
        raw_id = None
    return SummaryData(
        input=values["input"],
        summary=values["summary"],
        id=None if raw_id in (None, "") else str(raw_id),
    )
