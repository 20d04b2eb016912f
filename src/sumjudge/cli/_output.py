"""Where a batch's records go, in input order: the -o file and what stdout shows.

`InOrder` releases records finished out of order as the contiguous prefix of the input;
`Output` writes each to the JSON-lines sink (`RecordSink`, or `NoSink` when there is
nothing to stream) and shows stdout as JSON lines, one JSON array or a table.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Container, Sequence
from typing import Any, Generic, TextIO, TypeVar

from ..redaction import redact
from ._runflags import RunFlags
from ._sink import RecordSink
from ._table import ResultTable

__all__ = ["InOrder", "NoSink", "Output"]

T = TypeVar("T")


class InOrder(Generic[T]):
    """Releases values added out of order as the contiguous prefix of indices 0, 1, 2, ...

    Indices in `skip` (already done: resume) count as present. Holds only the values that
    finished ahead of an earlier, unfinished index.
    """

    def __init__(self, skip: Container[int] = ()) -> None:
        self._next = 0
        self._held: dict[int, T] = {}
        self._skip = skip

    @property
    def held(self) -> int:
        """How many values wait for an earlier index."""
        return len(self._held)

    def add(self, index: int, value: T) -> list[T]:
        """Add the value of `index`; returns the values now ready, in index order."""
        self._held[index] = value
        out: list[T] = []
        while True:
            if self._next in self._held:
                out.append(self._held.pop(self._next))
            elif self._next not in self._skip:
                return out
            self._next += 1

    def rest(self) -> list[T]:
        """Whatever is still held (after an interruption), in index order."""
        out = [self._held[i] for i in sorted(self._held)]
        self._held.clear()
        return out


class NoSink(contextlib.AbstractContextManager["NoSink"]):
    """Stands in for `RecordSink` when stdout shows a table or an array and there is no -o."""

    done: set[int] = set()  # noqa: RUF012 - never mutated
    written = 0

    def __exit__(self, *exc_info: object) -> None:
        return None

    def write(self, data: dict[str, Any]) -> None:
        self.written += 1


class Output:
    """Where records go, in input order: the -o file (JSON lines), and what stdout shows."""

    def __init__(
        self,
        flags: RunFlags,
        *,
        single: bool,
        kind: str,
        metrics: Sequence[str],
        stdout: TextIO,
    ) -> None:
        self.tty = stdout.isatty()
        self.stdout = stdout
        self.output = flags.output
        self.resume = flags.resume
        self.to_file = bool(flags.output)
        if flags.format:
            self.fmt: str | None = flags.format
        elif self.to_file:
            self.fmt = "table" if self.tty else None  # the file has the records
        else:
            self.fmt = "table" if self.tty else "jsonl"
        self.single = single
        self.table = ResultTable(kind, metrics) if self.fmt == "table" else None
        self.collected: list[dict[str, Any]] = []

    def sink(self) -> contextlib.AbstractContextManager[Any]:
        """The JSON-lines sink: the -o file, stdout (jsonl), or none."""
        if self.to_file or self.fmt == "jsonl":
            return RecordSink(self.output, resume=self.resume)
        return NoSink()

    def emit(self, sink: Any, data: dict[str, Any]) -> None:
        """One record, in input order."""
        sink.write(data)
        if self.fmt == "jsonl" and self.to_file:
            self._print(json.dumps(data, ensure_ascii=False))
        elif self.fmt == "json":
            self.collected.append(data)
        elif self.table is not None:
            self.table.add(data)

    def finish(self) -> None:
        """Print the array or the table (after the run, so no progress bar interleaves)."""
        if self.fmt == "json":
            indent = 2 if self.tty else None
            doc: Any = self.collected[0] if self.single and self.collected else self.collected
            self._print(json.dumps(doc, ensure_ascii=False, indent=indent))
        elif self.table is not None and self.table.rows:
            for line in self.table.render():
                self._print(line)

    def _print(self, text: str) -> None:
        self.stdout.write(redact(text) + "\n")
        self.stdout.flush()
