r"""Content-addressed cache of judge responses, in SQLite, with JSON values (never pickle).

The key is a SHA-256 over the judge's identity (provider/model, plus the base URL of a
custom server) and the request's fingerprint, which covers the messages, the task
("coherence@1": metric name and version), the schema and the sampling settings. Changing
any of these, bumping a metric's version included, misses the cache. Credentials are never
part of a request, so they never reach the key or the stored value.

Replies are written in windows: the replies stored in a running event loop go in one
transaction `WRITE_EVERY` (50 ms) after the first of them (a timer the store sets), or at
once when `WRITE_ROWS` are pending. A commit costs what writing several rows does, and
with replies spread over time a transaction per loop turn held ~1.3 rows: the windows
took ~0.06 ms of client CPU off each judged call (`benchmarks/item_path.py`); a batch
run also writes what is pending before it hands out a record (`JudgeCaller.settle`), so
a record in a results file has its replies on disk. Outside an event loop a reply is
written at once. So a run killed with `kill -9` loses at most the calls in flight and up
to 50 ms of replies of unfinished items (asked again on resume); the rows not
yet written are read from memory meanwhile, and written by `close()` or at exit if the
loop ended first.
The database runs in WAL mode with a busy timeout, so several processes (or a process and
its threads) can read and write at once.

Location: `$SUMJUDGE_CACHE_DIR/responses.sqlite3`, else the platform's user cache directory
(`$XDG_CACHE_HOME/sumjudge` or `~/.cache/sumjudge` on Linux, `~/Library/Caches/sumjudge` on
macOS, `%LOCALAPPDATA%\sumjudge\Cache` on Windows).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import importlib
import json
import operator
import os
import re
import sqlite3
import sys
import threading
import time
import weakref
from pathlib import Path
from types import GenericAlias
from typing import Annotated, Any

from . import fastjson
from .logprobs import token_logprobs
from .protocol import JudgeRequest, JudgeResponse, Usage

__all__ = ["ResponseCache", "default_cache_dir", "merge_caches", "read_typed", "safe_identity"]

_FORMAT = 1

WRITE_EVERY = 0.05
"""Seconds a stored reply may wait in memory before its transaction (one per window)."""

WRITE_ROWS = 256
"""Pending rows that are written at once, however young (bounds the memory they hold)."""
_URL_USERINFO = re.compile(r"(?<=://)[^/@\s]*@")
_URL_QUERY = re.compile(r"\?[^\s@]*")
# json.dumps(..., separators=(",", ":")) without building an encoder per key
_KEY = json.JSONEncoder(separators=(",", ":"))


def default_cache_dir() -> Path:
    """`$SUMJUDGE_CACHE_DIR`, else the platform's per-user cache directory for sumjudge."""
    explicit = os.environ.get("SUMJUDGE_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "sumjudge" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "sumjudge"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "sumjudge"


@functools.lru_cache(maxsize=64)  # a run has a judge or a few; asked for on every call
def safe_identity(identity: str) -> str:
    """The identity with any URL user-info or query string removed (they may hold keys)."""
    return _URL_QUERY.sub("", _URL_USERINFO.sub("", identity))


class ResponseCache:
    """Judge responses keyed by (judge identity, request fingerprint).

    Example:
        >>> cache = ResponseCache(tmp_path / "cache.sqlite3")
        >>> key = cache.key("openai/gpt-4o-mini", request)
        >>> cache.get(key) is None
        True
        >>> cache.put(key, response, identity="openai/gpt-4o-mini", task=request.task)

    Args:
        path: the database file, or a directory to hold `responses.sqlite3`; default:
            `default_cache_dir()`.
        busy_timeout: seconds a writer waits for another writer's lock.
    """

    def __init__(self, path: str | Path | None = None, *, busy_timeout: float = 30.0) -> None:
        p = Path(path) if path is not None else default_cache_dir()
        if p.suffix not in (".sqlite3", ".sqlite", ".db"):
            p = p / "responses.sqlite3"
        p.parent.mkdir(parents=True, exist_ok=True)
        self.path = p
        self.hits = 0
        self.misses = 0
        self.writes = 0
        self._lock = threading.Lock()
        self._db = sqlite3.connect(
            str(p), timeout=busy_timeout, isolation_level=None, check_same_thread=False
        )
        self._db.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = NORMAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS responses ("
            " key TEXT PRIMARY KEY, judge TEXT NOT NULL, task TEXT NOT NULL,"
            " format INTEGER NOT NULL, created REAL NOT NULL, value TEXT NOT NULL)"
        )
        # Rows stored in the running loop's write window, by key, written when it ends.
        self._pending: dict[str, _Row] = {}
        self._flush_on: asyncio.AbstractEventLoop | None = None
        # A loop may end (or close) before its window's write ran: write the rows at exit.
        self._at_exit = weakref.finalize(self, _write, self._db, self._lock, self._pending)

    @staticmethod
    def key(identity: str, request: JudgeRequest) -> str:
        """The content address of `request` sent to the judge known as `identity`."""
        blob = _KEY.encode([_FORMAT, safe_identity(identity), request.task, request.fingerprint()])
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()

    def get(self, key: str) -> JudgeResponse | None:
        """The stored response, or None (unreadable rows count as misses)."""
        with self._lock:
            pending = self._pending.get(key)
            if pending is not None:
                row = (pending[5], pending[3])
            else:
                row = self._db.execute(
                    "SELECT value, format FROM responses WHERE key = ?", (key,)
                ).fetchone()
        if row is None or row[1] != _FORMAT:
            self.misses += 1
            return None
        try:
            response = read_typed(row[0]) or JudgeResponse.from_dict(fastjson.loads(row[0]))
        except (ValueError, KeyError, TypeError, IndexError):
            self.misses += 1
            return None
        self.hits += 1
        return response

    def put(self, key: str, response: JudgeResponse, *, identity: str, task: str) -> None:
        """Store `response`: in the running event loop's write window, else now.

        Readable at once either way (`get`, `in`); `flush` writes what is pending. The
        value is the compact JSON of `response.stored_form()` (`to_dict()` without its
        None fields), by orjson when installed. A reply with a lone surrogate (which a
        server can send as an escape) has no UTF-8 form and is not stored: a miss next
        time, where a row SQLite cannot take would stop every later write of the run.
        """
        try:
            value = fastjson.dumps(response.stored_form()).decode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: no UTF-8 text, so no row to write
            return
        row = (key, safe_identity(identity), task, _FORMAT, time.time(), value)
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        with self._lock:
            self._pending[key] = row
            if loop is not None and self._flush_on is not loop:
                self._flush_on = loop  # one write per WRITE_EVERY seconds of this loop
                loop.call_later(WRITE_EVERY, self._end_of_window)
            full = len(self._pending) >= WRITE_ROWS
        self.writes += 1
        if loop is None or full:
            self.flush()

    def _end_of_window(self) -> None:
        with self._lock:
            self._flush_on = None
        self.flush()

    def flush(self) -> None:
        """Write the pending rows now, in one transaction."""
        _write(self._db, self._lock, self._pending)

    def delete(self, key: str) -> None:
        """Forget one response (e.g. a reply that could not be used)."""
        with self._lock:
            self._pending.pop(key, None)
            self._db.execute("DELETE FROM responses WHERE key = ?", (key,))

    def __contains__(self, key: object) -> bool:
        with self._lock:
            if key in self._pending:
                return True
            row = self._db.execute("SELECT 1 FROM responses WHERE key = ?", (key,)).fetchone()
        return row is not None

    def __len__(self) -> int:
        self.flush()
        with self._lock:
            (n,) = self._db.execute("SELECT COUNT(*) FROM responses").fetchone()
        return int(n)

    def clear(self) -> None:
        """Forget every stored response."""
        with self._lock:
            self._pending.clear()
            self._db.execute("DELETE FROM responses")

    def rows(self) -> list[dict[str, Any]]:
        """Every stored row (for inspection and tests)."""
        self.flush()
        with self._lock:
            cur = self._db.execute("SELECT key, judge, task, created, value FROM responses")
            return [
                {"key": k, "judge": j, "task": t, "created": c, "value": json.loads(v)}
                for k, j, t, c, v in cur.fetchall()
            ]

    def close(self) -> None:
        """Write what is pending and close the database; the cache cannot be used afterwards."""
        self.flush()
        self._at_exit.detach()
        with self._lock:
            self._db.close()

    def __enter__(self) -> ResponseCache:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


_Row = tuple[str, str, str, int, float, str]
"""A row as stored: key, judge, task, format, created, value."""


def _write(db: sqlite3.Connection, lock: threading.Lock, pending: dict[str, _Row]) -> None:
    """Write and forget the pending rows, in one transaction.

    A function, not a method: the exit hook (`weakref.finalize`) must not keep the cache
    alive.
    """
    with lock:
        if not pending:
            return
        rows = list(pending.values())
        db.execute("BEGIN")
        try:
            db.executemany(
                "INSERT OR REPLACE INTO responses (key, judge, task, format, created, value)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                rows,
            )
        except BaseException:
            db.execute("ROLLBACK")  # the rows stay pending: the next write tries them again
            raise
        db.execute("COMMIT")
        pending.clear()


def _typed_value() -> tuple[Any, type[Exception]]:
    """The typed decoder of a stored value (`JudgeResponse.stored_form`), and its error.

    A stored logprob row is an array, `[token, logprob, [[alternative, logprob], ...]]`,
    which msgspec reads straight into the tuples `TokenLogprob` holds: a hit builds no
    list per alternative and walks none of them in Python. Records made with `defstruct`
    (type checkers need not have msgspec) and untracked by the garbage collector
    (`gc=False`: decoded JSON is a tree, never part of a cycle).

    Raises:
        ImportError: msgspec is not installed.
    """
    msgspec = importlib.import_module("msgspec")
    pair = GenericAlias(tuple, (str, float))
    row = GenericAlias(tuple, (str, float, GenericAlias(tuple, (pair, ...))))
    # fastjson.loads (orjson) reads an integer beyond 64 bits as a float: left to it
    count = Annotated[int, msgspec.Meta(ge=-(2**63), le=2**63 - 1)]
    usage = msgspec.defstruct(
        "StoredUsage", [(name, count, 0) for name in Usage.__dataclass_fields__], gc=False
    )
    value = msgspec.defstruct(
        "StoredResponse",
        [
            ("text", str),
            ("parsed", Any, None),
            ("finish_reason", str | None, "stop"),
            ("usage", usage | None, None),
            ("logprobs", GenericAlias(list, (row,)) | None, None),
            ("logprobs_note", str | None, None),
            ("latency_s", float, 0.0),
            ("model", str | None, ""),
        ],
        gc=False,
    )
    return msgspec.json.Decoder(value).decode, msgspec.DecodeError


_decode_value: Any = None
_DecodeError: Any = None
with contextlib.suppress(ImportError):  # without the optional extra, from_dict reads all
    _decode_value, _DecodeError = _typed_value()


def read_typed(value: str | bytes) -> JudgeResponse | None:
    """A stored value read by msgspec, as `JudgeResponse.from_dict(json.loads(value))` reads it.

    None when msgspec is not installed, for a value with provider-parsed JSON (rare: the
    OpenAI adapter never sets it), or for a value off the form `stored_form` writes (a
    field of another type, a row with more members, NaN, not JSON): `from_dict` then
    reads it, or refuses it, as it always did (tests/engine/test_cache_typed_values.py).
    """
    if _decode_value is None:
        return None
    try:
        data = _decode_value(value)
    except _DecodeError:
        return None
    if data.parsed is not None:
        return None  # any JSON: from_dict reads it with fastjson's numbers, not msgspec's
    u = data.usage
    rows = data.logprobs
    return JudgeResponse(
        text=data.text,
        parsed=data.parsed,
        finish_reason=data.finish_reason,
        usage=Usage() if u is None else Usage(*_USAGE(u)),
        logprobs=None if rows is None else token_logprobs(rows),
        logprobs_note=data.logprobs_note,
        latency_s=data.latency_s,
        model=data.model,
    )


_USAGE = operator.attrgetter(*Usage.__dataclass_fields__)


def merge_caches(target: ResponseCache, source: str | Path) -> int:
    """Copy every response of the cache file `source` that `target` lacks; returns how many.

    A key already in `target` keeps its value (same key, same request: either answer
    serves). Rows of another format version are left out.
    """
    target.flush()
    with target._lock:
        target._db.execute("ATTACH DATABASE ? AS source", (str(source),))
        try:
            before = target._db.total_changes
            target._db.execute(
                "INSERT OR IGNORE INTO responses (key, judge, task, format, created, value)"
                " SELECT key, judge, task, format, created, value FROM source.responses"
                " WHERE format = ?",
                (_FORMAT,),
            )
            added = target._db.total_changes - before
        finally:
            target._db.execute("DETACH DATABASE source")
    target.writes += added
    return added
