"""Judge a Spark DataFrame where it lives: `evaluate_spark` and `autoeval_spark`.

Each task runs the package's own async evaluator over its partition's Arrow batches
(`DataFrame.mapInPandas`, with the fixed schema of `distributed/columns.py`), one evaluator
per task. Spark schedules, retries and scales the tasks; nothing here schedules anything.
The arguments are `sumjudge.distributed.face.EngineFace`'s; `workers` (the tasks that run
at once) defaults to min(partitions, defaultParallelism).

Example:
    >>> from sumjudge.spark import evaluate_spark
    >>> out = evaluate_spark(df, model="openai/gpt-4o-mini", rpm=600, cache_dir="/dbfs/sj")
    >>> out.select("id", "relevancy_rating", "score").show()

Needs `pip install 'sumjudge[spark]'` on the driver, and sumjudge on every executor. See
docs/distributed.md for keys, caches and the budget split.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .distributed.face import EngineFace, JobRequest
from .distributed.task import BatchJudge, JobSpec
from .errors import MissingDependencyError

if TYPE_CHECKING:
    import pandas as pd
    from pyspark.sql import DataFrame

__all__ = ["autoeval_spark", "evaluate_spark", "partition_function"]


class _Spark(EngineFace["DataFrame"]):
    """The two functions on Spark: one `mapInPandas` task per partition."""

    def ready(self) -> None:
        _spark_types()

    def run(self, data: DataFrame, job: JobRequest) -> DataFrame:
        types = _spark_types()
        df = data
        partitions = max(1, df.rdd.getNumPartitions())
        workers = job.workers or min(partitions, df.sparkSession.sparkContext.defaultParallelism)
        if (job.budget.rpm or job.budget.tpm) and partitions > workers:
            # Each task has its own limiter, which starts afresh: W long tasks, one per
            # slot, keep the workers' rate within the global one (tasks one after another
            # on a slot would each start a new limiter window).
            df = df.coalesce(workers)
            partitions = workers
        spec = job.spec(df.columns, workers=workers, holders=partitions)
        spark_type = {"int": types.LongType, "double": types.DoubleType, "string": types.StringType}
        added = [types.StructField(name, spark_type[t](), True) for name, t in spec.columns]
        schema = types.StructType([*df.schema.fields, *added])
        return df.mapInPandas(partition_function(spec), schema)


_SPARK = _Spark()
evaluate_spark = _SPARK.evaluate
autoeval_spark = _SPARK.autoeval


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
