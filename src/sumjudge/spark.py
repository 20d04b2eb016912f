"""Judge a Spark DataFrame where it lives: `evaluate_spark` and `autoeval_spark`.

Each task runs the package's own async evaluator over its partition's Arrow batches
(`DataFrame.mapInPandas`, with the fixed schema of `distributed/columns.py`), one evaluator
per task. Spark schedules, retries and scales the tasks; nothing here schedules anything.

Example:
    >>> from sumjudge.spark import evaluate_spark
    >>> out = evaluate_spark(df, model="openai/gpt-4o-mini", rpm=600, cache_dir="/dbfs/sj")
    >>> out.select("id", "relevancy_rating", "score").show()

Needs `pip install 'sumjudge[spark]'` on the driver, and sumjudge on every executor. See
docs/distributed.md for keys, caches and the budget split.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .distributed.job import budget_of, job_spec
from .distributed.task import BatchJudge, JobSpec
from .errors import MissingDependencyError

if TYPE_CHECKING:
    import pandas as pd
    from pyspark.sql import DataFrame

__all__ = ["autoeval_spark", "evaluate_spark", "partition_function"]

_DEFAULT_MODEL = "google/gemini-2.5-flash"


def evaluate_spark(
    df: DataFrame,
    *,
    input_col: str = "input",
    summary_col: str = "summary",
    id_col: str | None = None,
    model: str | list[str] = _DEFAULT_MODEL,
    enabled_metrics: list[str] | None = None,
    **evaluator_options: Any,
) -> DataFrame:
    """Judge every row's summary against its source; the input columns plus the results.

    Args:
        df: the rows to judge.
        input_col: the column of the source.
        summary_col: the column of the summary.
        id_col: the column of the row's id (None: rows have none).
        model: the judge's name (as `SummarizationEvaluator`'s).
        enabled_metrics: a subset of the four metrics (default: all).
        **evaluator_options: `SummarizationEvaluator`'s keyword arguments (but not
            `model_credentials` or `cache`), and the job's: `concurrency`, `rpm`, `tpm`,
            `max_cost` (global figures, split over the workers), `workers` (the tasks
            that run at once; default: min(partitions, defaultParallelism)), `cache_dir`
            (one cache file per worker there; default: no response cache) and
            `credentials_env` (the variable the executors read the key from).

    Returns:
        A lazy DataFrame with the columns of `distributed/columns.py` after the input's.
    """
    fields = {"input": input_col, "summary": summary_col}
    return _run(df, "summary", fields, id_col, model, enabled_metrics, evaluator_options)


def autoeval_spark(
    df: DataFrame,
    *,
    transcript_col: str = "transcript",
    summary_col: str = "summary",
    id_col: str | None = None,
    model: str | list[str] = _DEFAULT_MODEL,
    metrics: list[str] | None = None,
    **evaluator_options: Any,
) -> DataFrame:
    """`evaluate_spark` for sectioned conversation summaries (`AutoEvaluator`).

    The added columns are, per metric, `<m>_score` (double: the pooled percentage) and
    `<m>_error`, then `status`, `error` and `result_json` (the full record). The
    transcript column holds text or a JSON list of turns; pass `sections=` (a list of
    definitions: a file path is read on the executors) as to `AutoEvaluator`.
    """
    fields = {"transcript": transcript_col, "summary": summary_col}
    return _run(df, "conversation", fields, id_col, model, metrics, evaluator_options)


def _run(
    df: DataFrame,
    kind: Any,
    fields: dict[str, str],
    id_col: str | None,
    model: str | list[str],
    metrics: list[str] | None,
    options: dict[str, Any],
) -> DataFrame:
    types = _spark_types()
    options = dict(options)
    budget = budget_of(options)
    cache_dir: str | Path | None = options.pop("cache_dir", None)
    credentials_env: str | None = options.pop("credentials_env", None)
    partitions = max(1, df.rdd.getNumPartitions())
    workers = int(
        options.pop("workers", None)
        or min(partitions, df.sparkSession.sparkContext.defaultParallelism)
    )
    if (budget.rpm or budget.tpm) and partitions > workers:
        # Each task has its own limiter, which starts afresh: W long tasks, one per slot,
        # keep the workers' rate within the global one (tasks one after another on a slot
        # would each start a new limiter window).
        df = df.coalesce(workers)
        partitions = workers
    spec = job_spec(
        kind,
        columns=df.columns,
        fields=fields,
        id_col=id_col,
        model=model,
        metrics=metrics,
        share=budget.share(workers=workers, holders=partitions),
        cache_dir=cache_dir,
        credentials_env=credentials_env,
        options=options,
    )
    spark_type = {"int": types.LongType, "double": types.DoubleType, "string": types.StringType}
    added = [types.StructField(name, spark_type[t](), True) for name, t in spec.columns]
    schema = types.StructType([*df.schema.fields, *added])
    return df.mapInPandas(partition_function(spec), schema)


def partition_function(spec: JobSpec) -> Any:
    """The function `mapInPandas` ships: judges one partition's batches with one evaluator.

    It holds the spec only (no key: the executor reads it); tests pickle it to check.
    """

    def judge_partition(batches: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
        from pyspark import TaskContext

        context = TaskContext.get()
        # The partition names the cache file, so a retried task finds its answers first.
        worker = f"spark-part-{context.partitionId():05d}" if context else "spark-driver"
        judge = BatchJudge(spec, worker)
        try:
            yield from judge.judge_stream(batches)  # one batch run: one limiter per task
        finally:
            judge.close()

    return judge_partition


def _spark_types() -> Any:
    try:
        from pyspark.sql import types
    except ImportError as exc:
        raise MissingDependencyError("pyspark", "spark") from exc
    return types
