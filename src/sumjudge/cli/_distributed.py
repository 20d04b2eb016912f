"""`sumjudge evaluate|autoeval --engine spark|ray`: the same judging, by a distributed engine.

The engine reads the input file itself (Parquet, JSON lines or CSV, by suffix), judges it
through `sumjudge.spark.evaluate_spark` / `autoeval_spark` or `sumjudge.ray.evaluate_ray` /
`autoeval_ray` with the local run's flags (their global limits split over the workers;
autoeval's section definitions are read here and shipped as data) and writes `-o` as the
engine writes:
a directory of part files in the output's format. The summary is added up from what was
written (counts, and every worker's spend). What a local run has and a distributed one
has not (--resume, --report, --dry-run, a table on stdout) is refused in one line.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..cache import default_cache_dir
from ..distributed.job import JobSummary
from ..errors import ConfigError
from ..redaction import redact, remember_env_keys
from ._batch import EXIT_STOPPED
from ._common import EXIT_ITEM_ERRORS, EXIT_OK, eprint
from ._runflags import RunFlags
from ._sink import write_summary_json

__all__ = ["add_engine_arguments", "check_engine_flags", "run_distributed"]

_FORMATS = {".parquet": "parquet", ".jsonl": "json", ".json": "json", ".csv": "csv"}
_LOCAL_ONLY = (
    ("--resume", "resume"),
    ("--report", "report"),
    ("--dry-run", "dry_run"),
    ("--example", "example"),
    ("--input-file", "input_file"),
    ("--format", "format"),
    ("--encoding", "encoding"),
)


def add_engine_arguments(p: argparse.ArgumentParser) -> None:
    """--engine, --spark-master, --ray-address and --workers."""
    g = p.add_argument_group("distributed engine")
    g.add_argument(
        "--engine",
        choices=["local", "spark", "ray"],
        default="local",
        help="who runs the judging: this process, Spark or Ray (see docs/distributed.md)",
    )
    g.add_argument(
        "--spark-master",
        help="with --engine spark: the master URL, e.g. local[2] (default: spark-submit's, "
        "else local[*])",
    )
    g.add_argument(
        "--ray-address",
        help="with --engine ray: the cluster to join, e.g. ray://head:10001 (default: a local Ray)",
    )
    g.add_argument(
        "--workers",
        type=int,
        help="with --engine: the workers the global --concurrency/--calls-in-flight/--rpm/"
        "--tpm/--max-cost are split over (default: Spark's parallelism; Ray: 2 actors)",
    )


def check_engine_flags(args: argparse.Namespace) -> None:
    """Refuse local-only flags with --engine spark|ray (and engine flags without it)."""
    engine = getattr(args, "engine", "local")
    if engine != "local" and getattr(args, "rubric_cache", None):
        # Workers writing one JSON file at once would lose each other's questions; each
        # worker's response cache keeps what it generated instead.
        raise ConfigError(f"--rubric-cache is for local runs; --engine {engine} does not take it")
    if engine == "local":
        for flag, dest in (("--spark-master", "spark_master"), ("--ray-address", "ray_address")):
            if getattr(args, dest, None):
                raise ConfigError(f"{flag} goes with --engine spark|ray")
        return
    if engine == "spark" and args.ray_address:
        raise ConfigError("--ray-address goes with --engine ray, not spark")
    if engine == "ray" and args.spark_master:
        raise ConfigError("--spark-master goes with --engine spark, not ray")
    for flag, dest in _LOCAL_ONLY:
        if getattr(args, dest, None):
            raise ConfigError(f"{flag} is for local runs; --engine {engine} does not take it")
    if args.workers is not None and args.workers < 1:
        raise ConfigError(f"--workers must be at least 1 (got {args.workers})")
    if not args.file:
        raise ConfigError(f"--engine {engine} needs a FILE of rows (Parquet, JSONL or CSV)")
    if not args.output:
        raise ConfigError(f"--engine {engine} needs -o/--output: the directory it writes")
    _format(args.file, "FILE")
    _format(args.output, "-o/--output")
    if Path(args.output).exists():
        raise ConfigError(
            f"{args.output} exists: the engine writes a new directory of part files there; "
            "choose a new path"
        )


def _format(path: str | None, flag: str) -> str:
    fmt = _FORMATS.get(Path(path or "").suffix.lower())
    if fmt is None:
        raise ConfigError(f"{flag} {path}: name a .parquet, .jsonl or .csv file")
    return fmt


def _job_options(flags: RunFlags) -> dict[str, Any]:
    options = flags.evaluator_options()
    opened = options.pop("cache")
    if opened is not None:
        opened.close()  # the workers open their own files under cache_dir
    cache_dir = None if flags.no_cache else str(flags.cache_dir or default_cache_dir())
    return {
        **options,
        "concurrency": flags.concurrency,
        "calls_in_flight": flags.calls_in_flight,
        "rpm": flags.rpm,
        "tpm": flags.tpm,
        "max_cost": flags.max_cost,
        "workers": flags.workers,
        "cache_dir": cache_dir,
    }


def run_distributed(
    flags: RunFlags, rows: Callable[[], dict[str, Any]], kind: str = "summary"
) -> int:
    """Run `sumjudge evaluate|autoeval --engine spark|ray`; returns the exit code.

    Args:
        flags: the shared flags.
        rows: the subcommand's own job arguments (its columns, metrics and options),
            made after the judge is chosen.
        kind: "summary" (`evaluate`) or "conversation" (`autoeval`).
    """
    model = flags.models()
    job = {"model": model, **rows(), **_job_options(flags)}
    run = _run_spark if flags.engine == "spark" else _run_ray
    summary = run(flags, job, kind)
    remember_env_keys()
    eprint(redact(f"sumjudge: {flags.engine} wrote {flags.output}: {summary.line()}"))
    if flags.summary_json:
        judge = model if isinstance(model, str) else "+".join(model)
        write_summary_json(flags.summary_json, {"judge": judge, **summary.to_dict()})
    if summary.counts.get("not_run"):
        return EXIT_STOPPED
    failed = summary.counts.get("failed", 0) + summary.counts.get("invalid", 0)
    return EXIT_ITEM_ERRORS if failed else EXIT_OK


def _run_spark(flags: RunFlags, job: dict[str, Any], kind: str) -> JobSummary:
    try:
        from pyspark.sql import SparkSession
        from pyspark.sql import functions as F
    except ImportError:
        raise ConfigError("--engine spark needs pyspark: pip install 'sumjudge[spark]'") from None
    from ..spark import autoeval_spark, evaluate_spark

    builder = SparkSession.builder.appName(f"sumjudge {flags.command}")
    if flags.spark_master:
        builder = builder.master(flags.spark_master)
    spark = builder.getOrCreate()  # without a master (spark-submit's or the flag): local[*]
    csv: dict[str, bool | str] = {"header": True, "multiLine": True, "escape": '"'}
    source_format, out_format = _format(flags.file, "FILE"), _format(flags.output, "-o")
    reader = spark.read.options(**(csv if source_format == "csv" else {}))
    df = reader.format(source_format).load(flags.file)
    if not df.head(1):  # as a local run refuses it (an engine would write an empty output)
        raise ConfigError(f"{flags.file} has no rows")
    slots = flags.workers or spark.sparkContext.defaultParallelism
    if df.rdd.getNumPartitions() < slots:  # one small file is one partition: one worker
        df = df.repartition(slots)
    id_col = flags.id_column if flags.id_column in df.columns else None
    judge = evaluate_spark if kind == "summary" else autoeval_spark
    out = judge(df, id_col=id_col, **job)
    writer = out.write.mode("errorifexists").format(out_format)
    writer.options(**(csv if out_format == "csv" else {})).save(flags.output)
    reread = spark.read.options(**(csv if out_format == "csv" else {}))
    back = reread.format(out_format).load(flags.output)
    cost = F.get_json_object("result_json", "$.meta.run.cost_usd").cast("double")
    rows = back.groupBy("status").agg(F.count("*").alias("n"), F.sum(cost).alias("cost")).collect()
    summary = JobSummary()
    for row in rows:
        summary.counts[row["status"]] = int(row["n"])
        summary.cost_usd += float(row["cost"] or 0.0)
    return summary


def _run_ray(flags: RunFlags, job: dict[str, Any], kind: str) -> JobSummary:
    try:
        import ray
        import ray.data
    except ImportError:
        raise ConfigError("--engine ray needs ray[data]: pip install 'sumjudge[ray]'") from None
    if not ray.is_initialized():
        ray.init(address=flags.ray_address, include_dashboard=False, log_to_driver=False)
    # The output in the input's order, as a local run writes it: Ray hands a batch's
    # results on as soon as it is done unless told to keep the order (the actors' work is
    # the same either way; finished batches wait for earlier ones only in the output).
    context = ray.data.DataContext.get_current()
    kept = context.execution_options.preserve_order
    context.execution_options.preserve_order = True
    try:
        return _judge_on_ray(flags, job, kind)
    finally:
        context.execution_options.preserve_order = kept


def _judge_on_ray(flags: RunFlags, job: dict[str, Any], kind: str) -> JobSummary:
    import pandas as pd
    import ray.data

    from ..ray import DEFAULT_WORKERS, autoeval_ray, batch_rows, evaluate_ray, rows_per_block

    readers: dict[str, Any] = {
        "parquet": ray.data.read_parquet,
        "json": ray.data.read_json,
        "csv": ray.data.read_csv,
    }
    source_format, out_format = _format(flags.file, "FILE"), _format(flags.output, "-o")
    # Read lazily: the library cuts the rows into batches of `batch_rows`
    # (`sumjudge.ray.cut_in_batches`) as they are read, so the object store never holds
    # the file twice (read, then cut). Where the actors would leave no CPU for the read,
    # the read and the cut run before the actors start, as one copy.
    ds = readers[source_format](flags.file)
    # One block read (and dropped) for the columns and the check: an empty Dataset has
    # no columns either; refuse it as a local run does.
    if ds.limit(1).count() == 0:
        raise ConfigError(f"{flags.file} has no rows")
    id_col = flags.id_column if flags.id_column in ds.columns() else None
    if source_format == "parquet" and Path(flags.file or "").is_file():
        import pyarrow.parquet as pq

        # A Parquet file's footer gives its row count without reading it: its batches are
        # then of equal size and bounded in number, as a materialized Dataset's.
        workers = flags.workers or DEFAULT_WORKERS
        rows = pq.read_metadata(flags.file).num_rows
        job = {**job, "batch_size": rows_per_block(rows, batch_rows(job["model"]), workers)}
    judge = evaluate_ray if kind == "summary" else autoeval_ray
    out = judge(ds, id_col=id_col, **job).materialize()
    writers = {"parquet": out.write_parquet, "json": out.write_json, "csv": out.write_csv}
    writers[out_format](flags.output)

    states = ("ok", "failed", "invalid", "not_run")

    def part(batch: pd.DataFrame) -> pd.DataFrame:
        s = JobSummary().add_rows(zip(batch["status"], batch["result_json"], strict=True))
        return pd.DataFrame([{**{k: s.counts.get(k, 0) for k in states}, "cost": s.cost_usd}])

    parts = out.select_columns(["status", "result_json"]).map_batches(part, batch_format="pandas")
    summary = JobSummary()
    for row in parts.iter_rows():
        counts = {k: int(row[k]) for k in states if row[k]}
        summary.merge(JobSummary(counts=counts, cost_usd=float(row["cost"])))
    return summary
