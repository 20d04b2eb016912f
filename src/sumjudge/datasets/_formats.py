"""The record readers: one per format, each yielding a file's rows with their lines.

A reader turns a file into `Raw` rows: the row's 1-based line (or Parquet row number),
its record, and a `DataError` for a row that cannot be read. `open_rows` picks the reader
by suffix and raises `DataError` for a file that cannot be used as a whole. The formats
and what a row's line is are described in `sumjudge.datasets.files`.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import DataError, MissingDependencyError
from ..text import strip_control
from ._decoding import Codec, codec_for, decode_file, decode_line, decode_problem

__all__ = ["Raw", "Rows", "count_rows", "iter_records", "open_rows"]

_JSONL = (".jsonl", ".ndjson")
_JSON = ".json"
_DELIMITED = {".csv": ",", ".tsv": "\t"}
_SUFFIXES = ".jsonl, .ndjson, .json, .csv, .tsv or .parquet"
_DELIMITERS = ",;\t|"


class Raw(NamedTuple):
    """One data row as read: its line, its record (or best guess) and its error."""

    line: int | None
    record: dict[str, Any] | None
    error: DataError | None = None


@dataclass
class Rows:
    """The rows of an opened file: known columns and the rows still to read."""

    path: Path
    columns: list[str] | None
    rows: Iterator[Raw]
    _buffer: list[Raw] = field(default_factory=list)

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

    def __iter__(self) -> Iterator[Raw]:
        while self._buffer:
            yield self._buffer.pop(0)
        yield from self.rows


def open_rows(path: str | Path, encoding: str | None) -> Rows:
    """The file's rows; raises `DataError` if the file as a whole cannot be used."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in (*_JSONL, _JSON, *_DELIMITED, ".parquet"):
        raise DataError(f"unsupported file type {suffix!r} (use {_SUFFIXES})", item=str(p))
    codec = codec_for(encoding)
    try:
        if suffix == ".parquet":
            rows = _parquet_rows(p)
        elif suffix in _DELIMITED:
            rows = _delimited_rows(p, codec, _DELIMITED[suffix])
        elif suffix == _JSON:
            rows = _json_rows(p, codec)
        else:
            rows = Rows(p, None, _jsonl_lines(p, codec, _binary_lines(p, codec)))
    except OSError as exc:
        raise DataError(f"cannot read {p}: {exc.strerror}") from None
    if rows.columns is not None and rows.first_record() is None and not rows._buffer:
        raise DataError(f"{p} has no rows (only a header)")
    if rows.columns is None and rows.first_record() is None and not rows._buffer:
        raise DataError(f"{p} has no rows")
    return rows


def _binary_lines(p: Path, codec: Codec) -> Iterator[bytes]:
    if codec.by_line:
        with p.open("rb") as fh:
            yield from fh
    else:  # e.g. UTF-16: decode the whole file, then split it into lines
        text = decode_file(p.read_bytes(), codec.name, origin=str(p))
        for line in text.splitlines(keepends=True):
            yield line.encode("utf-8")


def _jsonl_lines(p: Path, codec: Codec, lines: Iterable[bytes]) -> Iterator[Raw]:
    # Re-encoded lines of a non-ASCII-compatible file are UTF-8 now.
    if not codec.by_line:
        codec = codec_for(None)
    index = 0
    for lineno, data in enumerate(lines, 1):
        if not data.strip():
            continue
        try:
            line = decode_line(data, codec, lineno == 1)
        except UnicodeDecodeError as exc:
            problem = f"line {lineno}: {decode_problem(exc, codec)}"
            guess = _json_object(data.decode(codec.name, errors="replace"))
            yield Raw(lineno, guess, DataError(problem, item=index, line=lineno))
        else:
            yield _jsonl_row(line, index, lineno)
        index += 1


def _json_object(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def _jsonl_row(line: str, index: int, lineno: int) -> Raw:
    try:
        value = json.loads(line)
    except json.JSONDecodeError as exc:
        problem = f"line {lineno}: invalid JSON ({exc.msg} at column {exc.colno})"
        return Raw(lineno, None, DataError(problem, item=index, line=lineno))
    if not isinstance(value, dict):
        problem = f"line {lineno}: a row must be a JSON object, got {_json_type(value)}"
        return Raw(lineno, None, DataError(problem, item=index, line=lineno))
    return Raw(lineno, value)


def _json_type(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "true/false"}
    if value is None:
        return "null"
    return names.get(type(value), "a number")


def _json_rows(p: Path, codec: Codec) -> Rows:
    """A .json file: JSON Lines when its first line is an object, else one JSON document."""
    data = p.read_bytes()
    first = next((line for line in data.splitlines() if line.strip()), b"")
    try:
        head = decode_line(first, codec, data.startswith(first)) if codec.by_line else ""
    except UnicodeDecodeError:
        head = ""
    if _json_object(head) is not None:
        return Rows(p, None, _jsonl_lines(p, codec, _binary_lines(p, codec)))
    text = decode_file(data, None if codec.name == "utf-8" else codec.name, origin=str(p))
    return Rows(p, None, iter(_json_document(text, p)))


_WS = " \t\r\n"


def _json_document(text: str, p: Path) -> list[Raw]:
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
        return [Raw(text.count("\n", 0, pos) + 1, value)]
    out: list[Raw] = []
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
            out.append(Raw(line, value))
        else:
            problem = f"line {line}: a row must be a JSON object, got {_json_type(value)}"
            out.append(Raw(line, None, DataError(problem, item=index, line=line)))
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


def _delimited_rows(p: Path, codec: Codec, default: str) -> Rows:
    """A CSV/TSV file, decoded line by line (a line that does not decode fails its record)."""
    bad_lines: dict[int, str] = {}

    def text_lines() -> Iterator[str]:
        for lineno, data in enumerate(_binary_lines(p, codec), 1):
            try:
                yield decode_line(data, codec if codec.by_line else codec_for(None), lineno == 1)
            except UnicodeDecodeError as exc:
                bad_lines[lineno] = decode_problem(exc, codec)
                yield data.decode(codec.name if codec.by_line else "utf-8", errors="replace")

    lines = text_lines()
    first = next(lines, None)
    if first is None or not first.strip():
        return Rows(p, None, iter(()))
    delimiter = _sniff(first.rstrip("\r\n"), default)
    reader = csv.reader(_chain(first, lines), delimiter=delimiter)
    try:
        header = [strip_control(h).strip() for h in next(reader)]
    except csv.Error as exc:
        raise DataError(f"{p}: cannot read the header ({exc})", line=1) from None
    if 1 in bad_lines:
        raise DataError(f"{p}: line 1 (the header): {bad_lines[1]}", line=1)
    return Rows(p, header, _records(reader, header, bad_lines))


def _chain(first: str, rest: Iterator[str]) -> Iterator[str]:
    yield first
    yield from rest


def _records(reader: Any, header: list[str], bad_lines: dict[int, str]) -> Iterator[Raw]:
    index, start = 0, reader.line_num + 1
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            problem = f"line {start}: not a valid CSV record ({exc})"
            yield Raw(start, None, DataError(problem, item=index, line=start))
            index, start = index + 1, reader.line_num + 1
            continue
        if not cells or all(not c.strip() for c in cells):  # a blank line is no record
            start = reader.line_num + 1
            continue
        record = dict(zip(header, cells, strict=False))
        broken = [n for n in range(start, reader.line_num + 1) if n in bad_lines]
        if broken:
            problem = f"line {broken[0]}: {bad_lines[broken[0]]}"
            yield Raw(start, record, DataError(problem, item=index, line=start))
        else:
            yield Raw(start, record)
        index, start = index + 1, reader.line_num + 1


def parquet_module() -> Any:
    """`pyarrow.parquet`, or `MissingDependencyError` naming the ``parquet`` extra."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise MissingDependencyError("pyarrow", "parquet") from None
    return pq


def _parquet_rows(p: Path) -> Rows:
    import pyarrow as pa

    try:
        pf = parquet_module().ParquetFile(p)
        columns = list(pf.schema_arrow.names)
    except pa.ArrowException as exc:  # not Parquet, cut short, a bad footer: bad input
        raise DataError(f"{p} is not a readable Parquet file: {_first_line(exc)}") from None

    def rows() -> Iterator[Raw]:
        n = 0
        # Row group by row group: a damaged one makes its own rows invalid (one error
        # each, so every later row keeps its index), and the next groups are still read.
        for group in range(pf.num_row_groups):
            size = pf.metadata.row_group(group).num_rows
            done = 0
            try:
                for batch in pf.iter_batches(batch_size=1024, row_groups=[group]):
                    for record in batch.to_pylist():
                        n, done = n + 1, done + 1
                        yield Raw(n, record)
            except (pa.ArrowException, OSError) as exc:
                reason = f"row group {group} of {p} is damaged: {_first_line(exc)}"
                for _ in range(size - done):
                    n += 1
                    yield Raw(n, None, DataError(reason, item=n - 1))

    return Rows(p, columns, rows())


def _first_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def count_rows(path: str | Path, *, encoding: str | None = None) -> int | None:
    """Number of data rows (for progress bars), read cheaply; None if unknown."""
    p = Path(path)
    suffix = p.suffix.lower()
    try:
        if suffix in _JSONL:
            with p.open("rb") as fh:
                return sum(1 for line in fh if line.strip())
        if suffix in (*_DELIMITED, _JSON):
            return sum(1 for _ in open_rows(p, encoding))
        if suffix == ".parquet":
            return int(parquet_module().ParquetFile(p).metadata.num_rows)
    except (OSError, ValueError, csv.Error, UnicodeError, DataError):  # ArrowInvalid too
        return None
    return None


def iter_records(
    path: str | Path, *, encoding: str | None = None
) -> Iterator[dict[str, Any] | DataError]:
    """Raw records of a file, in order; a `DataError` in place of a row that cannot be read.

    See `sumjudge.datasets.files` for the formats and what a row error carries.

    Args:
        path: A .jsonl/.ndjson, .json, .csv/.tsv or .parquet file.
        encoding: The text encoding when not UTF-8 (a UTF-8 BOM is always accepted).

    Raises:
        DataError: The file type is unsupported, the encoding unknown, the file has no
            rows, or (JSON document) it is not valid JSON. Raised by the call itself.
    """
    rows = open_rows(path, encoding)
    return (raw.error if raw.error is not None else raw.record or {} for raw in rows)
