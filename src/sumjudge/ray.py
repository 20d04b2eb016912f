"""Judge a Ray Dataset where it lives: `evaluate_ray` and `autoeval_ray`.

`Dataset.map_batches` with a callable class: each actor builds one evaluator (the
package's own, async) and reuses it for every batch it is given; `concurrency=` actors
(`workers`) run at once. Ray schedules, retries and restarts them; nothing here schedules
anything.

Example:
    >>> from sumjudge.ray import evaluate_ray
    >>> out = evaluate_ray(ds, model="openai/gpt-4o-mini", rpm=600, workers=8,
    ...                    cache_dir="/mnt/shared/sumjudge")
    >>> out.write_parquet("s3://bucket/judged/")

Needs `pip install 'sumjudge[ray]'` on the driver and on the workers (a KubeRay image, or
`runtime_env={"pip": ["sumjudge"]}`). See docs/distributed.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .distributed.job import budget_of, job_spec
from .distributed.task import BatchJudge, JobSpec
from .errors import MissingDependencyError

if TYPE_CHECKING:
    import pandas as pd
    from ray.data import Dataset

__all__ = ["RayBatchJudge", "autoeval_ray", "evaluate_ray"]

_DEFAULT_MODEL = "google/gemini-2.5-flash"


def evaluate_ray(
    ds: Dataset,
    *,
    input_col: str = "input",
    summary_col: str = "summary",
    id_col: str | None = None,
    model: str | list[str] = _DEFAULT_MODEL,
    enabled_metrics: list[str] | None = None,
    **evaluator_options: Any,
) -> Dataset:
    """Judge every row's summary against its source; the input columns plus the results.

    Args:
        ds: the rows to judge.
        input_col: the column of the source.
        summary_col: the column of the summary.
        id_col: the column of the row's id (None: rows have none).
        model: the judge's name (as `SummarizationEvaluator`'s).
        enabled_metrics: a subset of the four metrics (default: all).
        **evaluator_options: `SummarizationEvaluator`'s keyword arguments (but not
            `model_credentials` or `cache`), and the job's: `concurrency`, `rpm`, `tpm`,
            `max_cost` (global figures, split over the actors), `workers` (actors,
            Ray's `concurrency=`; default 2), `batch_size` (rows per batch, default 64),
            `num_cpus` (per actor, default 1), `cache_dir` (one cache file per actor
            there) and `credentials_env` (the variable the actors read the key from).

    Returns:
        A lazy Dataset with the columns of `distributed/columns.py` after the input's.
    """
    fields = {"input": input_col, "summary": summary_col}
    return _run(ds, "summary", fields, id_col, model, enabled_metrics, evaluator_options)


def autoeval_ray(
    ds: Dataset,
    *,
    transcript_col: str = "transcript",
    summary_col: str = "summary",
    id_col: str | None = None,
    model: str | list[str] = _DEFAULT_MODEL,
    metrics: list[str] | None = None,
    **evaluator_options: Any,
) -> Dataset:
    """`evaluate_ray` for sectioned conversation summaries (`AutoEvaluator`).

    The added columns are those of `sumjudge.spark.autoeval_spark`.
    """
    fields = {"transcript": transcript_col, "summary": summary_col}
    return _run(ds, "conversation", fields, id_col, model, metrics, evaluator_options)


class RayBatchJudge:
    """The callable class `map_batches` runs: one evaluator per actor, for all its batches.

    Args:
        spec: the job (no key in it: the actor reads its key from its environment).
    """

    def __init__(self, spec: JobSpec) -> None:
        import ray

        # A restarted actor gets a new name, hence a new file; it still reads the dead
        # actor's answers from that one's file (`WorkerCache` reads its siblings).
        worker = f"ray-{ray.get_runtime_context().get_actor_id() or 'driver'}"
        self.judge = BatchJudge(spec, worker)

    def __call__(self, batch: pd.DataFrame) -> pd.DataFrame:
        """The batch with the result columns added."""
        return self.judge.judge(batch)

    def __del__(self) -> None:
        judge = getattr(self, "judge", None)
        if judge is not None:
            judge.close()


def _run(
    ds: Dataset,
    kind: Any,
    fields: dict[str, str],
    id_col: str | None,
    model: str | list[str],
    metrics: list[str] | None,
    options: dict[str, Any],
) -> Dataset:
    try:
        import ray.data  # noqa: F401
    except ImportError as exc:
        raise MissingDependencyError("ray[data]", "ray") from exc
    options = dict(options)
    budget = budget_of(options)
    cache_dir: str | Path | None = options.pop("cache_dir", None)
    credentials_env: str | None = options.pop("credentials_env", None)
    workers = int(options.pop("workers", None) or 2)
    # An actor's limiter lives for one batch run: with a rate cap, whole blocks per call
    # (fewer limiter starts); see docs/distributed.md.
    rate_capped = budget.rpm is not None or budget.tpm is not None
    batch_size: int | None = options.pop("batch_size", None) or (None if rate_capped else 64)
    num_cpus = float(options.pop("num_cpus", None) or 1)
    spec = job_spec(
        kind,
        columns=ds.columns(),
        fields=fields,
        id_col=id_col,
        model=model,
        metrics=metrics,
        # Actors keep their evaluator (and its spend) across batches: each holds a share.
        share=budget.share(workers=workers, holders=workers),
        cache_dir=cache_dir,
        credentials_env=credentials_env,
        options=options,
    )
    return ds.map_batches(
        RayBatchJudge,
        fn_constructor_kwargs={"spec": spec},
        concurrency=workers,
        batch_size=batch_size,
        batch_format="pandas",
        num_cpus=num_cpus,
    )
