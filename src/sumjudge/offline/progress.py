"""How far the offline scorer has got embedding a long input, shown on stderr."""

from __future__ import annotations

import sys
import threading
import time
from typing import Any, TextIO

__all__ = ["StderrProgress"]


class StderrProgress:
    """Progress of embedding passages for a long input, on stderr.

    On a terminal a tqdm bar with the total (passages, rate, time left), removed when done;
    otherwise (a log file, a pipe) plain lines, at most one per `every` seconds and the last
    one always. A long transcript takes seconds to minutes on a CPU; without a word the run
    looks hung. The scorer reports each batch of passages from a worker thread: a lock
    keeps the bar's updates in order, and a new total (the next step, or the next item)
    starts a new bar.

    Args:
        every: Seconds between plain lines.
        stream: Where to write (stderr when None).
        bar: Draw a bar; None: when the stream is a terminal.
    """

    def __init__(
        self, every: float = 5.0, stream: TextIO | None = None, *, bar: bool | None = None
    ) -> None:
        self._every = every
        self._stream = stream
        self._want_bar = bar
        self._last = 0.0
        self._bar: Any = None
        self._lock = threading.Lock()

    def __call__(self, done: int, total: int) -> None:
        """Report `done` of `total` passages embedded (the last one always)."""
        stream = self._stream if self._stream is not None else sys.stderr
        with self._lock:
            want = self._want_bar
            if want is None:
                want = bool(getattr(stream, "isatty", lambda: False)())
            if want:
                self._draw(done, total, stream)
                return
            now = time.monotonic()
            if done < total and now - self._last < self._every:
                return
            self._last = now
            print(
                f"sumjudge: offline judge: embedding passages of a long input: "
                f"{done:,}/{total:,} passages ({done / max(1, total):.0%})",
                file=stream,
                flush=True,
            )

    def _draw(self, done: int, total: int, stream: TextIO) -> None:
        from tqdm import tqdm

        if self._bar is not None and (self._bar.total != total or done < self._bar.n):
            self._bar.close()
            self._bar = None
        if self._bar is None:
            self._bar = tqdm(
                total=total,
                unit="passage",
                desc="sumjudge: embedding",
                file=stream,
                leave=False,
                dynamic_ncols=True,
                # below the line of the CLI's own bar or spinner, which stays drawn
                position=1,
            )
        self._bar.update(done - self._bar.n)
        if done >= total:
            self._bar.close()
            self._bar = None
