"""Decoding input files: UTF-8 with an optional BOM, or the encoding given (``--encoding``).

An ASCII-compatible encoding is decoded line by line, so that a line that does not decode
is an error for its row only; any other (e.g. UTF-16) is decoded as a whole.
"""

from __future__ import annotations

import codecs
from pathlib import Path
from typing import NamedTuple

from ..errors import DataError
from ..text import strip_control
from ..transcripts import normalize_source

__all__ = ["Codec", "codec_for", "decode_file", "decode_line", "decode_problem", "read_source_file"]


class Codec(NamedTuple):
    """A text encoding as the readers use it: codec name, the name to show, line-wise or not."""

    name: str
    label: str
    by_line: bool  # ASCII-compatible: lines can be split in bytes and decoded one by one


def codec_for(encoding: str | None) -> Codec:
    """The `Codec` of an ``--encoding`` value (None: UTF-8); `DataError` if it is unknown."""
    if encoding is None:
        return Codec("utf-8", "UTF-8", True)
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        raise DataError(f"unknown encoding {encoding!r} (try utf-8, latin-1 or cp1252)") from None
    if info.name == "utf-8":
        return Codec("utf-8", "UTF-8", True)
    try:
        by_line = "\n,a".encode(info.name) == b"\n,a"
    except UnicodeError:
        by_line = False
    return Codec(info.name, encoding, by_line)


def decode_line(data: bytes, codec: Codec, first: bool) -> str:
    """One line's bytes as text (a UTF-8 BOM is dropped from the first line)."""
    name = "utf-8-sig" if first and codec.name == "utf-8" else codec.name
    return data.decode(name)


def decode_problem(exc: UnicodeDecodeError, codec: Codec) -> str:
    """What is wrong with a line that does not decode, for its row error."""
    return (
        f"not valid {codec.label} ({exc.reason} at byte {exc.start + 1} of the line); "
        "pass --encoding if the file is in another encoding"
    )


def decode_file(data: bytes, encoding: str | None = None, *, origin: str = "file") -> str:
    """A whole file's bytes as text (UTF-8 with an optional BOM, or `encoding`).

    Raises:
        DataError: The bytes do not decode (naming the line) or `encoding` is unknown.
    """
    codec = codec_for(encoding)
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
