"""What runs on a worker: one evaluator judging a pandas batch at a time.

`JobSpec` is everything a worker needs, and the only thing the engines ship: the judge's
name, the evaluator's options, the column names, the worker's budget share and the cache
directory. It holds no credentials: `BatchJudge` reads the key on the worker, from
`credentials_env` (or the provider's own variable) when it builds its evaluator, and the
key lives only in that process's memory.

`BatchJudge` runs the package's own async evaluator (`Evaluator.evaluate_batch`) over each
batch on an event loop it keeps, so one evaluator (its HTTP connections, its cache, its
spend) serves every batch of a Spark partition or of a Ray actor's life.
"""

from __future__ import annotations

import asyncio
import math
import os
import time
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..errors import ConfigError, DataError
from ..evaluators.base import Evaluator
from .budget import WorkerShare
from .columns import Column, Kind, output_columns, record_row
from .limiter import LimitsClient, SharedLimiter
from .phases import Phases
from .shared import judge_model
from .worker_cache import WorkerCache

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["BatchJudge", "JobSpec"]


@dataclass(frozen=True)
class JobSpec:
    """A job's picklable description (no credentials in it, by construction).

    Attributes:
        kind: "summary" (`SummarizationEvaluator`) or "conversation" (`AutoEvaluator`).
        model: the judge's name ("openai/gpt-4o-mini", "local-lexical", ...), or the
            names of a judge panel where the evaluator takes one.
        metrics: the metrics, in output order (already checked on the driver).
        fields: the evaluator's input field -> the column holding it.
        id_col: the column of row ids (None: rows have no id).
        share: this worker's budget (`budget.Budget.share`).
        cache_dir: the directory of the workers' cache files (None: no response cache).
        credentials_env: the environment variable the worker reads the key from (None:
            the provider's own, e.g. OPENAI_API_KEY).
        options: the evaluator's other keyword arguments (picklable values only).
        limits: the way to the job's one shared rate limiter (`limiter.py`), when the
            engine runs one (Ray); None: each worker limits itself with its share.
    """

    kind: Kind
    model: str | tuple[str, ...]
    metrics: tuple[str, ...]
    fields: Mapping[str, str]
    id_col: str | None
    share: WorkerShare
    cache_dir: str | None = None
    credentials_env: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    limits: LimitsClient | None = None

    def __post_init__(self) -> None:
        """Refuse options that would ship a secret or fight the job's own settings."""
        for name in ("model_credentials", "api_key"):
            if name in self.options:
                raise ConfigError(
                    f"{name} is not shipped to workers: set the key in the workers' "
                    "environment (credentials_env names the variable; see docs/distributed.md)"
                )
        if "cache" in self.options:
            raise ConfigError("pass cache_dir=..., not cache=...: each worker has its own file")

    @property
    def columns(self) -> list[Column]:
        """The columns the job adds."""
        return output_columns(self.kind, self.metrics)


class BatchJudge:
    """One worker's evaluator; `judge(frame)` gives the frame with the result columns.

    Args:
        spec: the job.
        worker: this worker's name (its cache file; see `WorkerCache`).
    """

    def __init__(self, spec: JobSpec, worker: str) -> None:
        self.spec = spec
        self.worker = worker
        self.spent = 0.0
        self.phases = Phases(worker)
        self._loop = asyncio.new_event_loop()
        self._evaluator: Evaluator[Any, Any] | None = None
        self._cache: WorkerCache | None = None
        self._handed_back: float | None = None

    def _build(self) -> Evaluator[Any, Any]:
        spec = self.spec
        key = os.environ.get(spec.credentials_env) if spec.credentials_env else None
        cache = WorkerCache(spec.cache_dir, self.worker) if spec.cache_dir else None
        self._cache = cache  # given as an object, so the evaluator leaves it to us to close
        options = dict(spec.options)
        # The offline judge's scorer (models, sources read) is the process's, kept across
        # tasks; an LLM judge is the evaluator's own (see shared.py).
        model, self.phases.scorer_reused = judge_model(spec.model, options)
        evaluator: Evaluator[Any, Any]
        if spec.kind == "summary":
            from ..evaluators.summarization import SummarizationEvaluator

            evaluator = SummarizationEvaluator(
                model, key, enabled_metrics=list(spec.metrics), cache=cache, **options
            )
        else:
            from ..evaluators.auto import AutoEvaluator

            if isinstance(spec.model, tuple):
                raise ConfigError("the autoevaluator takes one model, not a panel")
            evaluator = AutoEvaluator(
                model, key, metrics=list(spec.metrics), cache=cache, **options
            )
        if spec.limits is not None:
            # The job's one limiter: every caller (a panel's members each) waits on the
            # host's limits for its judge; the runner falls back to its caller's limiter
            # when the run has none (the share then has no rpm / tpm).
            for caller in evaluator.callers():
                caller.limiter = SharedLimiter(spec.limits, caller.identity)
        return evaluator

    @property
    def evaluator(self) -> Evaluator[Any, Any]:
        """The worker's evaluator, built on first use (on the worker, with its key)."""
        if self._evaluator is None:
            started = time.perf_counter()
            self._evaluator = self._build()
            self.phases.build += time.perf_counter() - started
            self.phases.built()
        return self._evaluator

    def judge(self, frame: pd.DataFrame) -> pd.DataFrame:
        """The batch with the job's columns added, one output row per input row."""
        if self._handed_back is not None:  # the engine's time between two of our batches
            self.phases.engine_in += time.perf_counter() - self._handed_back
        out = next(self.judge_stream(iter([frame])))
        self._handed_back = time.perf_counter()
        return out

    def judge_stream(self, batches: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
        """Each batch with the job's columns added, in order, through ONE batch run.

        One `evaluate_batch` over all the batches (pulled as its window needs rows) keeps
        one rate limiter and one spend counter for the whole stream, and keeps
        `concurrency` items in flight across batch boundaries; a batch is given back as
        soon as all its rows are judged.
        """
        frames: list[pd.DataFrame] = []
        starts: list[int] = []
        arrivals: list[float] = []  # wall clock, for the phases' timeline
        done: dict[int, tuple[Any, ...]] = {}
        phases = self.phases
        clock = time.perf_counter
        aside = 0.0  # seconds inside an evaluator step that were not the evaluator's

        def rows() -> Iterator[dict[str, Any]]:
            nonlocal aside
            offset = 0
            while True:
                started = clock()
                frame = next(batches, None)  # the engine's work: Arrow -> pandas, upstream
                got = clock()
                phases.engine_in += got - started
                if frame is None:
                    aside += got - started
                    return
                arrivals.append(time.time())
                frame = frame.reset_index(drop=True)
                frames.append(frame)
                starts.append(offset)
                offset += len(frame)
                records = frame.to_dict("records")
                phases.to_rows += clock() - got
                aside += clock() - started
                yield from records

        _ = self.evaluator  # built (and timed) before the first batch is pulled
        records = self._records(rows())
        given = 0
        finished = False
        while not finished:
            started, aside, columns = clock(), 0.0, phases.columns
            try:
                index, values = self._loop.run_until_complete(anext(records))
                done[index] = values
            except StopAsyncIteration:
                finished = True
            phases.evaluate += clock() - started - aside - (phases.columns - columns)
            while given < len(frames) and (
                finished
                or all(i in done for i in range(starts[given], _end(frames, starts, given)))
            ):
                started = clock()
                out = self._with_columns(frames[given], starts[given], done)
                phases.columns += clock() - started
                phases.batch_done(len(out), arrivals[given])
                given += 1
                started = clock()
                yield out  # the engine's work: pandas -> Arrow, downstream
                phases.engine_out += clock() - started

    def _with_columns(
        self, frame: pd.DataFrame, start: int, done: dict[int, tuple[Any, ...]]
    ) -> pd.DataFrame:
        import pandas as pd

        values = [done.pop(i) for i in range(start, start + len(frame))]
        out = frame.copy()
        for n, (name, kind) in enumerate(self.spec.columns):
            out[name] = pd.Series([v[n] for v in values], dtype=_DTYPES[kind])
        return out

    async def _records(self, rows: Iterator[dict[str, Any]]) -> AsyncIterator[tuple[int, Any]]:
        spec, share = self.spec, self.share_left()
        names = [name for name, _ in spec.columns]
        evaluator = self.evaluator
        async for record in evaluator.evaluate_batch(
            _items(rows, spec),
            concurrency=share.concurrency,
            requests_per_minute=share.rpm,
            tokens_per_minute=share.tpm,
            max_cost=share.max_cost,
            calls_in_flight=share.calls_in_flight,
        ):
            started = time.perf_counter()
            values = record_row(record, spec.kind, spec.metrics)
            if record.error is not None:
                values["error"] = self._located(record.error, record.id)
            self.phases.columns += time.perf_counter() - started
            yield record.index, tuple(values[n] for n in names)
        if evaluator.last_summary is not None:
            self.spent += evaluator.last_summary.cost_usd

    def _located(self, error: DataError, ident: str | None) -> str:
        """A bad row's error by its column and id (its position in a batch means nothing)."""
        column = error.field
        for name, col in self.spec.fields.items():
            if column is not None and (column == name or column.startswith(name + "[")):
                column = col + column[len(name) :]
        where = f"column {column!r}: " if column else ""
        return f"{where}{error.reason}" + (f" (id {ident})" if ident is not None else "")

    def share_left(self) -> WorkerShare:
        """The share with `max_cost` lowered by what earlier batches of this worker spent."""
        share = self.spec.share
        if share.max_cost is None:
            return share
        left = max(0.0, share.max_cost - self.spent)
        return replace(share, max_cost=left)

    def close(self) -> None:
        """Close the evaluator (its connections and cache) and the event loop."""
        self.phases.write()  # with the last batch's hand-over
        if self._evaluator is not None:
            self._loop.run_until_complete(self._evaluator.aclose())
            self._evaluator = None
        if self._cache is not None:
            self._cache.close()
            self._cache = None
        self._loop.close()


_DTYPES = {"int": "Int64", "double": "Float64", "string": "object"}


def _end(frames: list[Any], starts: list[int], k: int) -> int:
    return starts[k] + len(frames[k])


def _items(rows: Iterable[dict[str, Any]], spec: JobSpec) -> Iterator[dict[str, Any]]:
    """The evaluator's raw items (a bad one becomes an "invalid" record there)."""
    for row in rows:
        item: dict[str, Any] = {name: _value(row.get(col)) for name, col in spec.fields.items()}
        if spec.id_col is not None:
            ident = _value(row.get(spec.id_col))
            item["id"] = None if ident is None else str(ident)
        yield item


def _value(value: Any) -> Any:
    """A cell as the evaluator expects it: a missing value (None, NaN, NA) is None."""
    if value is None:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    try:
        import pandas as pd

        if value is pd.NA or value is pd.NaT:
            return None
    except ImportError:  # pragma: no cover - pandas comes with both engines
        pass
    if hasattr(value, "tolist") and not isinstance(value, str):  # numpy arrays (turn lists)
        return value.tolist()
    return value
