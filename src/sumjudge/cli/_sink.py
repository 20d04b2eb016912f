"""The files a batch run writes: the results (`RecordSink`) and the summary JSON.

- `RecordSink` streams one JSON line per finished item, flushed at once (see below).
- `write_summary_json` writes the run summary whole or not at all.
- Keys in use (`sumjudge.redaction`) are redacted from everything written.

How `RecordSink` keeps a good file safe (T is the output, P is `T.partial` beside it):

- *Nothing to lose* (T is missing or empty, and no P): the records stream straight into
  T. A crash leaves T with the records written so far; `--resume` continues from them.
- *A good file* (T holds data; a new run without `--resume`): T is not touched while the
  run goes on. The records stream into P (a stale P from an earlier run is started over),
  flushed line by line. When the run completes (also when some items failed, or
  `--max-cost` stopped it: it ended on its own) P is synced and renamed over T, in one
  step. A crash, a kill or Ctrl-C leaves T as it was and P with the finished records.
- *`--resume`*: the finished records (status "ok" or "invalid"; a torn last line,
  "failed" and "not_run" records are dropped) of P and then of T are kept, each index
  once (P is the newer run, so its record of an index wins), and their indices reported
  in `.done`, which the run skips. If T holds data or P
  exists, the kept records are written to P (atomically), new records are appended to P,
  and P replaces T when the run completes; otherwise the run streams into T as above.
  Each index therefore appears exactly once, and T is only ever replaced by a complete
  run's output.
- A target that is not a regular file (`/dev/null`, `/dev/stdout`, a pipe) is written in
  place; a symlinked target is written through (the file it points to is replaced).
- When the run is interrupted (KeyboardInterrupt, or the cancellation `asyncio.run`
  turns Ctrl-C into), the sink closes its file and raises `RunInterrupted` with the
  count and the file, from which `main` prints the line that says how to resume.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, TextIO

from ..errors import ConfigError
from ..redaction import redact
from ._safety import RunInterrupted, atomic_write_text, is_regular_or_missing, named_errors

__all__ = ["RecordSink", "write_summary_json"]

FINISHED = ("ok", "invalid")
PARTIAL_SUFFIX = ".partial"

# json.dumps(data, ensure_ascii=False, indent=...) without building an encoder per record
# (json.dumps makes one for any argument but the defaults). The same text: json.dumps is
# `JSONEncoder(**the same arguments).encode(data)`. Not orjson (`fastjson.dumps`): it has
# no ", " and ": " separators and spells some floats otherwise (1e-5 for 1e-05), and a
# record's bytes must not change (tests/cli_corpus/test_record_bytes.py).
_LINE = json.JSONEncoder(ensure_ascii=False)
_PRETTY = json.JSONEncoder(ensure_ascii=False, indent=2)


def write_summary_json(path: str | Path, data: dict[str, Any]) -> None:
    """Write the run summary `data` as JSON to `path`, redacted, whole or not at all."""
    atomic_write_text(path, redact(json.dumps(data, indent=2)) + "\n")


def _sort_by_index(path: Path) -> None:
    """Rewrite a results file in input order (records carry their input `index`)."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    keyed = []
    for n, line in enumerate(lines):
        try:
            index = json.loads(line).get("index")
        except (ValueError, AttributeError):
            index = None
        keyed.append((index if isinstance(index, int) else float("inf"), n, line))
    if [k[:2] for k in keyed] != sorted(k[:2] for k in keyed):
        atomic_write_text(path, "".join(line for *_, line in sorted(keyed)))


def _finished_lines(path: Path, done: set[int]) -> list[str]:
    """Lines of `path` with finished records whose index is not in `done` (added to it)."""
    keep: list[str] = []
    with named_errors(path), path.open(encoding="utf-8", errors="replace") as fh:
        for line in fh:
            if not line.endswith("\n"):
                break  # torn by a crash mid-write
            try:
                data = json.loads(line)
            except ValueError:
                continue
            if not isinstance(data, dict) or not isinstance(data.get("index"), int):
                continue
            if data.get("status") in FINISHED and data["index"] not in done:
                done.add(data["index"])
                keep.append(line)
    return keep


def _has_data(path: Path) -> bool:
    try:
        return path.stat().st_size > 0
    except FileNotFoundError:
        return False


class RecordSink(contextlib.AbstractContextManager["RecordSink"]):
    """Writes records as JSON lines as they finish (see the module docstring).

    Used as a context manager: leaving the block normally completes the output (a partial
    file replaces the target); leaving it with an exception keeps the target as it was
    and the partial file for `--resume`; an interrupt is re-raised as `RunInterrupted`.

    Args:
        path: the output file; None for stdout.
        resume: keep the finished records of an existing `path` (and of its partial
            file) and report their indices in `.done`.
        pretty: indent the JSON (single-item mode).

    Attributes:
        done: indices of the finished records kept by `resume`.
        written: records written by this run.
        path: the output file asked for (None: stdout).
        stream_path: the file the records go to now (`path` or its partial file).
    """

    def __init__(
        self,
        path: str | Path | None,
        *,
        resume: bool = False,
        pretty: bool = False,
    ) -> None:
        self.done: set[int] = set()
        self.pretty = pretty
        self.written = 0
        self.path = Path(path) if path is not None else None
        self.stream_path: Path | None = None
        self._replace: Path | None = None  # the target the partial file replaces at the end
        self._closed = False
        if self.path is None:
            if resume:
                raise ConfigError("--resume needs -o/--output FILE (stdout cannot be resumed)")
            self._fh: TextIO = sys.stdout
            return
        target = Path(os.path.realpath(self.path)) if self.path.is_symlink() else self.path
        if not is_regular_or_missing(target):
            self._open(target, "a" if resume else "w")  # a device or pipe: in place
            return
        partial = target.with_name(target.name + PARTIAL_SUFFIX)
        if resume:
            keep = _finished_lines(partial, self.done) if partial.exists() else []
            if target.exists():
                keep += _finished_lines(target, self.done)
            if _has_data(target) or partial.exists():
                atomic_write_text(partial, "".join(keep))
                self._open(partial, "a")
                self._replace = target
                return
            self._open(target, "a" if target.exists() else "w")
            return
        if _has_data(target):
            self._open(partial, "w")  # the good file stays until this run completes
            self._replace = target
            return
        with named_errors(partial):
            partial.unlink(missing_ok=True)  # an old run's: a later --resume must not use it
        self._open(target, "w")

    def _open(self, path: Path, mode: Literal["a", "w"]) -> None:
        with named_errors(path):
            self._fh = path.open(mode, encoding="utf-8")
        self.stream_path = path

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if exc is None:
            self.close()
            return
        self.abort()
        if isinstance(exc, (KeyboardInterrupt, asyncio.CancelledError)) and not isinstance(
            exc, RunInterrupted
        ):
            raise RunInterrupted(
                written=self.written,
                kept=len(self.done),
                path=self.stream_path,
                target=self.path,
            ) from exc

    def write(self, data: dict[str, Any]) -> None:
        """Write one record as a line, redacted, flushed at once."""
        text = (_PRETTY if self.pretty else _LINE).encode(data)
        with named_errors(self.stream_path or Path("<stdout>")):
            self._fh.write(redact(text) + "\n")
            self._fh.flush()
        self.written += 1

    def close(self) -> None:
        """Complete the output: close the file and put a partial file in the target's place.

        Stdout stays open.
        """
        if self._closed:
            return
        self._closed = True
        if self.stream_path is None:
            return
        with named_errors(self.stream_path):
            try:
                self._fh.flush()
                if self._replace is not None:
                    os.fsync(self._fh.fileno())
            finally:
                self._fh.close()
            if self.done:  # resumed: kept records first, then this run's; put back in order
                _sort_by_index(self.stream_path)
        if self._replace is not None:
            with named_errors(self._replace):
                with contextlib.suppress(OSError):
                    os.chmod(self.stream_path, os.stat(self._replace).st_mode & 0o7777)
                os.replace(self.stream_path, self._replace)

    def abort(self) -> None:
        """Close the file without completing: the target stays, the partial file too."""
        if self._closed:
            return
        self._closed = True
        if self.stream_path is not None:
            with contextlib.suppress(OSError):
                self._fh.close()
