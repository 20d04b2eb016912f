"""The public face both engines share: `evaluate` and `autoeval` over an engine's table.

`EngineFace[T]` holds the two signatures and their documentation once; `sumjudge.spark`
and `sumjudge.ray` subclass it for their table type (a Spark `DataFrame`, a Ray
`Dataset`) with only `run`, which gets a `JobRequest`: the caller's keyword arguments
sorted into the job's parts (global budget, cache directory, key variable, workers) and
the evaluator's options, checked into a `JobSpec` once the engine knows its columns and
how many workers share the budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from .budget import Budget
from .columns import Kind
from .job import budget_of, job_spec
from .task import JobSpec

__all__ = ["DEFAULT_MODEL", "EngineFace", "JobRequest"]

DEFAULT_MODEL = "google/gemini-2.5-flash"
"""The judge of a distributed job when `model` is not given."""

T = TypeVar("T")


@dataclass(frozen=True)
class JobRequest:
    """A caller's job before an engine runs it (see `EngineFace.run`).

    Attributes:
        kind: "summary" or "conversation".
        fields: the evaluator's input field -> the column holding it.
        id_col: the column of row ids (None: rows have none).
        model: the judge, or a panel's judges.
        metrics: the metrics asked for (None: the evaluator's default).
        budget: the job's global limits (`concurrency`, `rpm`, `tpm`, `max_cost`,
            `calls_in_flight`).
        cache_dir: the workers' cache directory (None: no response cache).
        credentials_env: the variable the workers read the key from.
        workers: the workers asked for (None: the engine's default).
        options: the remaining keyword arguments: the engine's own, then the evaluator's.
    """

    kind: Kind
    fields: dict[str, str]
    id_col: str | None
    model: str | list[str]
    metrics: list[str] | None
    budget: Budget
    cache_dir: str | Path | None
    credentials_env: str | None
    workers: int | None
    options: dict[str, Any]

    @classmethod
    def of(
        cls,
        kind: Kind,
        fields: dict[str, str],
        id_col: str | None,
        model: str | list[str],
        metrics: list[str] | None,
        options: dict[str, Any],
    ) -> JobRequest:
        """Sort the caller's keyword arguments `options` into the job's parts."""
        options = dict(options)
        budget = budget_of(options)
        cache_dir: str | Path | None = options.pop("cache_dir", None)
        credentials_env: str | None = options.pop("credentials_env", None)
        workers = options.pop("workers", None)
        return cls(
            kind,
            fields,
            id_col,
            model,
            metrics,
            budget,
            cache_dir,
            credentials_env,
            int(workers) if workers else None,
            options,
        )

    def take(self, name: str) -> Any:
        """Remove the engine option `name` from `options` and return it (None: not given)."""
        return self.options.pop(name, None)

    def spec(self, columns: Sequence[str], *, workers: int, holders: int) -> JobSpec:
        """The checked `JobSpec` over a table with `columns`, the budget split `workers` ways.

        `holders` is how many budget shares are handed out (one per Spark task, one per
        Ray actor; see `Budget.share`).
        """
        return job_spec(
            self.kind,
            columns=columns,
            fields=self.fields,
            id_col=self.id_col,
            model=self.model,
            metrics=self.metrics,
            share=self.budget.share(workers=workers, holders=holders),
            cache_dir=self.cache_dir,
            credentials_env=self.credentials_env,
            options=self.options,
        )


class EngineFace(Generic[T]):
    """`evaluate` and `autoeval` over an engine's table type `T`; a subclass has `run`."""

    def evaluate(
        self,
        data: T,
        *,
        input_col: str = "input",
        summary_col: str = "summary",
        id_col: str | None = None,
        model: str | list[str] = DEFAULT_MODEL,
        enabled_metrics: list[str] | None = None,
        **evaluator_options: Any,
    ) -> T:
        """Judge every row's summary against its source; the input columns plus the results.

        Args:
            data: the rows to judge.
            input_col: the column of the source.
            summary_col: the column of the summary.
            id_col: the column of the row's id (None: rows have none).
            model: the judge's name (as `SummarizationEvaluator`'s), or a panel's names.
            enabled_metrics: a subset of the four metrics (default: all).
            **evaluator_options: `SummarizationEvaluator`'s keyword arguments (but not
                `model_credentials` or `cache`), and the job's: `concurrency`, `rpm`,
                `tpm`, `max_cost`, `calls_in_flight` (global figures, split over the
                workers), `workers`,
                `cache_dir` (one cache file per worker there; default: no response
                cache), `credentials_env` (the variable the workers read the key from)
                and the engine's own (see `sumjudge.spark`, `sumjudge.ray`).

        Returns:
            The lazy table with the columns of `distributed/columns.py` after the input's.
        """
        self.ready()
        fields = {"input": input_col, "summary": summary_col}
        job = JobRequest.of("summary", fields, id_col, model, enabled_metrics, evaluator_options)
        return self.run(data, job)

    def autoeval(
        self,
        data: T,
        *,
        transcript_col: str = "transcript",
        summary_col: str = "summary",
        id_col: str | None = None,
        model: str | list[str] = DEFAULT_MODEL,
        metrics: list[str] | None = None,
        **evaluator_options: Any,
    ) -> T:
        """`evaluate` for sectioned conversation summaries (`AutoEvaluator`).

        The added columns are, per metric, `<m>_score` (double: the pooled percentage) and
        `<m>_error`, then `status`, `error` and `result_json` (the full record). The
        transcript column holds text or a JSON list of turns; pass `sections=` (a list of
        definitions: a file path is read on the workers) as to `AutoEvaluator`.
        """
        self.ready()
        fields = {"transcript": transcript_col, "summary": summary_col}
        job = JobRequest.of("conversation", fields, id_col, model, metrics, evaluator_options)
        return self.run(data, job)

    def ready(self) -> None:
        """Raise `MissingDependencyError` when the engine is not installed (checked first)."""

    def run(self, data: T, job: JobRequest) -> T:
        """Judge `data` as `job` asks, on the engine (a subclass's)."""
        raise NotImplementedError
