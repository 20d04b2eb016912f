"""Where a worker's time goes: seconds per phase of its batches, for the benchmark.

With `SUMJUDGE_WORKER_PHASES=DIR` in the workers' environment (a local Spark's Python
workers and a local Ray's actors inherit the driver's), every `BatchJudge` writes
`DIR/phases-<pid>-<n>.json` after each batch: when it was created and how long its
process had run by then (Python worker start-up and imports), how long building its
evaluator took and whether the process's offline scorer was already built, then the
seconds spent waiting for the engine's next batch (Arrow to pandas, upstream stages),
turning a frame into rows, in the evaluator (coercion, plans, the judge's analysis),
making the result columns (each row's `result_json` included) and handing the frame back
(pandas to Arrow, downstream). It also keeps a timeline in wall-clock seconds: when the
evaluator was ready and, per batch, when its frame arrived, when it was handed back and
its rows (the benchmark's start-up and steady-state figures). Nothing is written without
the variable; the counters themselves cost a clock read per step.
"""

from __future__ import annotations

import itertools
import json
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

__all__ = ["ENV", "Phases", "process_age"]

ENV = "SUMJUDGE_WORKER_PHASES"
_SERIAL = itertools.count()


def process_age() -> float | None:
    """Seconds since this process started (Linux; None elsewhere)."""
    try:
        stat = Path("/proc/self/stat").read_text(encoding="ascii")
        start_ticks = int(stat.rsplit(")", 1)[1].split()[19])  # field 22, starttime
        uptime = float(Path("/proc/uptime").read_text(encoding="ascii").split()[0])
        return round(uptime - start_ticks / os.sysconf("SC_CLK_TCK"), 3)
    except (OSError, ValueError, IndexError):
        return None


@dataclass
class Phases:
    """One `BatchJudge`'s seconds per phase (wall clock) and its process's CPU seconds."""

    worker: str
    pid: int = field(default_factory=os.getpid)
    created: float = field(default_factory=time.time)
    process_age: float | None = field(default_factory=process_age)
    build: float = 0.0
    ready: float | None = None
    scorer_reused: bool | None = None
    engine_in: float = 0.0
    to_rows: float = 0.0
    evaluate: float = 0.0
    columns: float = 0.0
    engine_out: float = 0.0
    batches: int = 0
    rows: int = 0
    cpu: float = 0.0
    spans: list[tuple[float, float, int]] = field(default_factory=list)
    _cpu0: float = field(default_factory=time.process_time, repr=False)
    _path: Path | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        """Name this judge's file when the variable names a directory."""
        where = os.environ.get(ENV)
        if where:
            self._path = Path(where) / f"phases-{self.pid}-{next(_SERIAL)}.json"

    def built(self) -> None:
        """Mark the evaluator ready (wall clock)."""
        self.ready = time.time()

    def batch_done(self, rows: int, arrived: float) -> None:
        """Count one batch about to be handed back, and write the figures so far.

        Args:
            rows: the batch's rows.
            arrived: when its frame arrived (`time.time()`).
        """
        self.batches += 1
        self.rows += rows
        self.spans.append((round(arrived, 4), round(time.time(), 4), rows))
        self.write()

    def write(self) -> None:
        """Write the figures so far, if the variable asked for them."""
        self.cpu = time.process_time() - self._cpu0
        if self._path is not None:
            figures = {k: v for k, v in asdict(self).items() if not k.startswith("_")}
            self._path.parent.mkdir(parents=True, exist_ok=True)
            self._path.write_text(json.dumps(figures), encoding="utf-8")
