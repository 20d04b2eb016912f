"""Reading JSONL files: one JSON value per non-blank line."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from os import PathLike
from typing import Any


def json_lines(
    path: str | PathLike[str], bad_line: Callable[[int, str], Exception]
) -> Iterator[tuple[int, Any]]:
    """Each non-blank line of a JSONL file, parsed, with its line number (from 1).

    Callers decide what a bad line is reported as (a `DataError` for meta-evaluation rows, a
    `ValueError` naming the file for the report), hence `bad_line`.

    Args:
        path: The JSONL file (UTF-8).
        bad_line: Builds the exception to raise from a line number and the JSON error message.

    Yields:
        `(line_number, value)` for every non-blank line, in file order.

    Raises:
        Exception: What `bad_line` returns, for the first line that is not valid JSON.
    """
    with open(path, encoding="utf-8") as handle:
        for lineno, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as exc:
                raise bad_line(lineno, exc.msg) from None
            yield lineno, value
