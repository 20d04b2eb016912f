"""Reading summaries from JSONL, JSON, CSV/TSV and Parquet files, row by row, with per-row errors.

Formats, by suffix:

- ``.jsonl`` / ``.ndjson``: one JSON object per line.
- ``.json``: a JSON array of objects, a single object, or JSON Lines (when the first
  non-blank line is an object on its own).
- ``.csv`` / ``.tsv``: a header row, then one record per row; the delimiter (``,``,
  ``;``, tab or ``|``) is sniffed from the header, falling back to ``,`` for .csv and tab
  for .tsv.
- ``.parquet``: through pyarrow (the ``parquet`` extra), in record batches of 1,024 rows.

Text formats are read as UTF-8 with an optional BOM, or in the ``encoding=`` given
(``--encoding``). JSONL and CSV are decoded line by line, so a line that does not decode
is an error for its row only. Rows are yielded lazily so that files of any size stream
through; what makes the whole file unusable (unsupported type, unknown encoding, no rows,
a column that is not there) raises `DataError` when the reader is called, before any row.

A row that cannot be used becomes a `DataError` in place of its item, so the other rows
are still judged. Its `item` is the 0-based data row ("row N" in the message), its
`line` the 1-based line of the file where the row is (JSONL: the line; JSON array: the
line its element starts on; CSV/TSV: the line the record starts on, the header being
line 1; Parquet: the 1-based row number) and its `id` the row's id when it has one.
"""

from __future__ import annotations

import codecs
import csv
import json
import math
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import DataError, MissingDependencyError
from ..text import strip_control
from ..transcripts import normalize_source, render_turns, turns_from_json
from ..types import SummaryData

__all__ = [
    "DataWarning",
    "count_rows",
    "iter_records",
    "missing_column_error",
    "read_source_file",
    "read_summary_rows",
    "record_to_item",
]

_JSONL = (".jsonl", ".ndjson")
_JSON = ".json"
_DELIMITED = {".csv": ",", ".tsv": "\t"}
_SUFFIXES = ".jsonl, .ndjson, .json, .csv, .tsv or .parquet"
_DELIMITERS = ",;\t|"
_SNIFF_BYTES = 64 * 1024

Warn = Callable[[str], None]
"""Where a reader reports a file-level warning (one line of text)."""


class DataWarning(UserWarning):
    """A file-level problem that does not stop the run (e.g. duplicate ids)."""


class _Raw(NamedTuple):
    """One data row as read: its line, its record (or best guess) and its error."""

    line: int | None
    record: dict[str, Any] | None
    error: DataError | None = None


@dataclass
class _Rows:
    """The rows of an opened file: known columns and the rows still to read."""

    path: Path
    columns: list[str] | None
    rows: Iterator[_Raw]
    _buffer: list[_Raw] = field(default_factory=list)

    def first_record(self) -> dict[str, Any] | None:
        """The first readable record (buffered; the rows still yield it)."""
        for raw in self._buffer:
            if raw.error is None and raw.record is not None:
                return raw.record
        for raw in self.rows:
            self._buffer.append(raw)
            if raw.error is None and raw.record is not None:
                return raw.record
        return None

    def __iter__(self) -> Iterator[_Raw]:
        while self._buffer:
            yield self._buffer.pop(0)
        yield from self.rows


# --- decoding --------------------------------------------------------------------------------


class _Codec(NamedTuple):
    name: str
    label: str
    by_line: bool  # ASCII-compatible: lines can be split in bytes and decoded one by one


def _codec(encoding: str | None) -> _Codec:
    if encoding is None:
        return _Codec("utf-8", "UTF-8", True)
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        raise DataError(f"unknown encoding {encoding!r} (try utf-8, latin-1 or cp1252)") from None
    if info.name == "utf-8":
        return _Codec("utf-8", "UTF-8", True)
    try:
        by_line = "\n,a".encode(info.name) == b"\n,a"
    except UnicodeError:
        by_line = False
    return _Codec(info.name, encoding, by_line)


def _decode(data: bytes, codec: _Codec, first: bool) -> str:
    name = "utf-8-sig" if first and codec.name == "utf-8" else codec.name
    return data.decode(name)


def _decode_problem(exc: UnicodeDecodeError, codec: _Codec) -> str:
    return (
        f"not valid {codec.label} ({exc.reason} at byte {exc.start + 1} of the line); "
        "pass --encoding if the file is in another encoding"
    )


def decode_file(data: bytes, encoding: str | None = None, *, origin: str = "file") -> str:
    """A whole file's bytes as text (UTF-8 with an optional BOM, or `encoding`).

    Raises:
        DataError: The bytes do not decode (naming the line) or `encoding` is unknown.
    """
    codec = _codec(encoding)
    try:
        return data.decode("utf-8-sig" if codec.name == "utf-8" else codec.name)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DataError(
            f"{origin}: line {line}: not valid {codec.label} ({exc.reason}); "
            "pass --encoding if the file is in another encoding",
            line=line,
        ) from None


def read_source_file(path: str | Path, encoding: str | None = None) -> str:
    """A source text file as the judges should see it (for ``--input-file``).

    The file is read as UTF-8 (optional BOM) or in `encoding`; control characters and
    terminal escapes are removed; WebVTT, SRT and JSON turn lists become ``Speaker: text``
    lines (`sumjudge.transcripts.normalize_source`); any other text is unchanged.

    Args:
        path: The file.
        encoding: Its encoding when not UTF-8 (e.g. "latin-1").

    Returns:
        The text to judge the summary against.

    Raises:
        DataError: The file cannot be read or does not decode.
    """
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise DataError(f"cannot read {p}: {exc.strerror}") from None
    return normalize_source(strip_control(decode_file(data, encoding, origin=str(p))))


# --- opening ---------------------------------------------------------------------------------


def _open_rows(path: str | Path, encoding: str | None) -> _Rows:
    """The file's rows; raises `DataError` if the file as a whole cannot be used."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in (*_JSONL, _JSON, *_DELIMITED, ".parquet"):
        raise DataError(f"unsupported file type {suffix!r} (use {_SUFFIXES})", item=str(p))
    codec = _codec(encoding)
    try:
        if suffix == ".parquet":
            rows = _parquet_rows(p)
        elif suffix in _DELIMITED:
            rows = _delimited_rows(p, codec, _DELIMITED[suffix])
        elif suffix == _JSON:
            rows = _json_rows(p, codec)
        else:
            rows = _Rows(p, None, _jsonl_lines(p, codec, _binary_lines(p, codec)))
    except OSError as exc:
        raise DataError(f"cannot read {p}: {exc.strerror}") from None
    if rows.columns is not None and rows.first_record() is None and not rows._buffer:
        raise DataError(f"{p} has no rows (only a header)")
    if rows.columns is None and rows.first_record() is None and not rows._buffer:
        raise DataError(f"{p} has no rows")
    return rows


def _binary_lines(p: Path, codec: _Codec) -> Iterator[bytes]:
    if codec.by_line:
        with p.open("rb") as fh:
            yield from fh
    else:  # e.g. UTF-16: decode the whole file, then split it into lines
        text = decode_file(p.read_bytes(), codec.name, origin=str(p))
        for line in text.splitlines(keepends=True):
            yield line.encode("utf-8")


def _jsonl_lines(p: Path, codec: _Codec, lines: Iterable[bytes]) -> Iterator[_Raw]:
    # Re-encoded lines of a non-ASCII-compatible file are UTF-8 now.
    if not codec.by_line:
        codec = _codec(None)
    index = 0
    for lineno, data in enumerate(lines, 1):
        if not data.strip():
            continue
        try:
            line = _decode(data, codec, lineno == 1)
        except UnicodeDecodeError as exc:
            problem = f"line {lineno}: {_decode_problem(exc, codec)}"
            guess = _json_object(data.decode(codec.name, errors="replace"))
            yield _Raw(lineno, guess, DataError(problem, item=index, line=lineno))
        else:
            yield _jsonl_row(line, index, lineno)
        index += 1


def _json_object(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def _jsonl_row(line: str, index: int, lineno: int) -> _Raw:
    try:
        value = json.loads(line)
    except json.JSONDecodeError as exc:
        problem = f"line {lineno}: invalid JSON ({exc.msg} at column {exc.colno})"
        return _Raw(lineno, None, DataError(problem, item=index, line=lineno))
    if not isinstance(value, dict):
        problem = f"line {lineno}: a row must be a JSON object, got {_json_type(value)}"
        return _Raw(lineno, None, DataError(problem, item=index, line=lineno))
    return _Raw(lineno, value)


def _json_type(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "true/false"}
    if value is None:
        return "null"
    return names.get(type(value), "a number")


def _json_rows(p: Path, codec: _Codec) -> _Rows:
    """A .json file: JSON Lines when its first line is an object, else one JSON document."""
    data = p.read_bytes()
    first = next((line for line in data.splitlines() if line.strip()), b"")
    try:
        head = _decode(first, codec, data.startswith(first)) if codec.by_line else ""
    except UnicodeDecodeError:
        head = ""
    if _json_object(head) is not None:
        return _Rows(p, None, _jsonl_lines(p, codec, _binary_lines(p, codec)))
    text = decode_file(data, None if codec.name == "utf-8" else codec.name, origin=str(p))
    return _Rows(p, None, iter(_json_document(text, p)))


_WS = " \t\r\n"


def _json_document(text: str, p: Path) -> list[_Raw]:
    """The rows of a JSON document: an array's elements (with their lines) or one object."""
    decoder = json.JSONDecoder()
    pos, end = 0, len(text)

    def skip(i: int) -> int:
        while i < end and text[i] in _WS:
            i += 1
        return i

    def bad(exc: json.JSONDecodeError | None, at: int, what: str) -> DataError:
        line = exc.lineno if exc else text.count("\n", 0, at) + 1
        detail = f"{exc.msg} at line {exc.lineno}, column {exc.colno}" if exc else what
        return DataError(f"{p} is not valid JSON ({detail})", line=line)

    pos = skip(0)
    if pos == end:
        return []
    if text[pos] != "[":
        try:
            value, stop = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            raise bad(exc, pos, "") from None
        if skip(stop) != end:
            raise bad(None, stop, f"unexpected text at line {text.count(chr(10), 0, stop) + 1}")
        if not isinstance(value, dict):
            raise DataError(f"{p} must hold a JSON array of objects, got {_json_type(value)}")
        return [_Raw(text.count("\n", 0, pos) + 1, value)]
    out: list[_Raw] = []
    pos = skip(pos + 1)
    line, counted = 1, 0
    while pos < end and text[pos] != "]":
        line += text.count("\n", counted, pos)
        counted = pos
        try:
            value, stop = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            raise bad(exc, pos, "") from None
        index = len(out)
        if isinstance(value, dict):
            out.append(_Raw(line, value))
        else:
            problem = f"line {line}: a row must be a JSON object, got {_json_type(value)}"
            out.append(_Raw(line, None, DataError(problem, item=index, line=line)))
        pos = skip(stop)
        if pos < end and text[pos] == ",":
            pos = skip(pos + 1)
        elif pos < end and text[pos] != "]":
            raise bad(None, pos, f"expected ',' or ']' at line {text.count(chr(10), 0, pos) + 1}")
    if pos >= end or skip(pos + 1) != end:
        raise bad(None, pos, "the array is not closed, or text follows it")
    return out


def _sniff(header: str, default: str) -> str:
    """The delimiter of a header line: sniffed, kept only if it splits at least as well."""
    try:
        sniffed = csv.Sniffer().sniff(header, delimiters=_DELIMITERS).delimiter
    except csv.Error:
        sniffed = default

    def width(delimiter: str) -> int:
        return len(next(csv.reader([header], delimiter=delimiter), []))

    return sniffed if width(sniffed) > width(default) else default


def _delimited_rows(p: Path, codec: _Codec, default: str) -> _Rows:
    """A CSV/TSV file, decoded line by line (a line that does not decode fails its record)."""
    bad_lines: dict[int, str] = {}

    def text_lines() -> Iterator[str]:
        for lineno, data in enumerate(_binary_lines(p, codec), 1):
            try:
                yield _decode(data, codec if codec.by_line else _codec(None), lineno == 1)
            except UnicodeDecodeError as exc:
                bad_lines[lineno] = _decode_problem(exc, codec)
                yield data.decode(codec.name if codec.by_line else "utf-8", errors="replace")

    lines = text_lines()
    first = next(lines, None)
    if first is None or not first.strip():
        return _Rows(p, None, iter(()))
    delimiter = _sniff(first.rstrip("\r\n"), default)
    reader = csv.reader(_chain(first, lines), delimiter=delimiter)
    try:
        header = [strip_control(h).strip() for h in next(reader)]
    except csv.Error as exc:
        raise DataError(f"{p}: cannot read the header ({exc})", line=1) from None
    if 1 in bad_lines:
        raise DataError(f"{p}: line 1 (the header): {bad_lines[1]}", line=1)
    return _Rows(p, header, _records(reader, header, bad_lines))


def _chain(first: str, rest: Iterator[str]) -> Iterator[str]:
    yield first
    yield from rest


def _records(reader: Any, header: list[str], bad_lines: dict[int, str]) -> Iterator[_Raw]:
    index, start = 0, reader.line_num + 1
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            problem = f"line {start}: not a valid CSV record ({exc})"
            yield _Raw(start, None, DataError(problem, item=index, line=start))
            index, start = index + 1, reader.line_num + 1
            continue
        if not cells or all(not c.strip() for c in cells):  # a blank line is no record
            start = reader.line_num + 1
            continue
        record = dict(zip(header, cells, strict=False))
        broken = [n for n in range(start, reader.line_num + 1) if n in bad_lines]
        if broken:
            problem = f"line {broken[0]}: {bad_lines[broken[0]]}"
            yield _Raw(start, record, DataError(problem, item=index, line=start))
        else:
            yield _Raw(start, record)
        index, start = index + 1, reader.line_num + 1


def _parquet_pq() -> Any:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise MissingDependencyError("pyarrow", "parquet") from None
    return pq


def _parquet_rows(p: Path) -> _Rows:
    pf = _parquet_pq().ParquetFile(p)

    def rows() -> Iterator[_Raw]:
        n = 0
        for batch in pf.iter_batches(batch_size=1024):
            for record in batch.to_pylist():
                n += 1
                yield _Raw(n, record)

    return _Rows(p, list(pf.schema_arrow.names), rows())


# --- public readers --------------------------------------------------------------------------


def count_rows(path: str | Path, *, encoding: str | None = None) -> int | None:
    """Number of data rows (for progress bars), read cheaply; None if unknown."""
    p = Path(path)
    suffix = p.suffix.lower()
    try:
        if suffix in _JSONL:
            with p.open("rb") as fh:
                return sum(1 for line in fh if line.strip())
        if suffix in (*_DELIMITED, _JSON):
            return sum(1 for _ in _open_rows(p, encoding))
        if suffix == ".parquet":
            return int(_parquet_pq().ParquetFile(p).metadata.num_rows)
    except (OSError, csv.Error, UnicodeError, DataError):
        return None
    return None


def iter_records(
    path: str | Path, *, encoding: str | None = None
) -> Iterator[dict[str, Any] | DataError]:
    """Raw records of a file, in order; a `DataError` in place of a row that cannot be read.

    See the module docstring for the formats and what a row error carries.

    Args:
        path: A .jsonl/.ndjson, .json, .csv/.tsv or .parquet file.
        encoding: The text encoding when not UTF-8 (a UTF-8 BOM is always accepted).

    Raises:
        DataError: The file type is unsupported, the encoding unknown, the file has no
            rows, or (JSON document) it is not valid JSON. Raised by the call itself.
    """
    rows = _open_rows(path, encoding)
    return (raw.error if raw.error is not None else raw.record or {} for raw in rows)


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


def check_columns(rows: _Rows, required: dict[str, str], id_column: str) -> None:
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
    if raw is None or raw == "" or (isinstance(raw, float) and math.isnan(raw)):
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
        path: The file (see the module docstring for formats).
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
    rows = _open_rows(path, encoding)
    check_columns(
        rows, {"--input-column": input_column, "--summary-column": summary_column}, id_column
    )
    return _summary_items(rows, input_column, summary_column, id_column, on_warning)


def _summary_items(
    rows: _Rows, input_column: str, summary_column: str, id_column: str, on_warning: Warn | None
) -> Iterator[SummaryData | DataError]:
    duplicates = DuplicateIds(rows.path, on_warning)
    for index, raw in enumerate(rows):
        ident = row_id(raw.record, id_column)
        duplicates.add(ident)
        if raw.error is not None:
            raw.error.id = ident
            yield raw.error
            continue
        item = record_to_item(
            raw.record or {}, index, input_column, summary_column, id_column, line=raw.line
        )
        yield item
    duplicates.report()


def _cell_text(
    record: dict[str, Any], column: str, *, turns_allowed: bool
) -> tuple[str | None, str | None]:
    """(text, None) for a usable cell, or (None, what is wrong with it)."""
    if column not in record:
        return None, "is missing"
    value = record[column]
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None, "is null"
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
    values: dict[str, str] = {}
    for column, target in ((input_column, "input"), (summary_column, "summary")):
        text, problem = _cell_text(record, column, turns_allowed=target == "input")
        if problem is not None or text is None:
            return DataError(problem or "is missing", item=index, field=column, line=line, id=ident)
        values[target] = normalize_source(text) if target == "input" else text
    return SummaryData(input=values["input"], summary=values["summary"], id=ident)
