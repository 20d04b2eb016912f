"""Reading JSONL files: one JSON value per non-blank line (stdlib only, imports nothing of ours).

The one line reader of every JSONL file the package reads back (results, meta-evaluation
rows, label logs, comparison inputs); each caller says what a bad line raises.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from os import PathLike
from typing import Any

__all__ = ["json_lines", "json_objects"]


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


def json_objects(
    path: str | PathLike[str], problem: Callable[[int, str], Exception]
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each non-blank line of a JSONL file of objects, parsed, with its line number.

    Args:
        path: The JSONL file (UTF-8).
        problem: Builds the exception for a bad line from its number and what is wrong
            with it: "is not valid JSON: <the parser's message>" or "is not a JSON object".

    Yields:
        `(line_number, object)` for every non-blank line, in file order.

    Raises:
        Exception: What `problem` returns, for the first line that is not a JSON object.
    """

    def bad_line(lineno: int, message: str) -> Exception:
        return problem(lineno, f"is not valid JSON: {message}")

    for lineno, value in json_lines(path, bad_line):
        if not isinstance(value, dict):
            raise problem(lineno, "is not a JSON object")
        yield lineno, value
