"""The one runner of the batch subcommands (`evaluate`, `autoeval`) and their judge flags.

`add_judge_arguments` adds the flags that choose and configure the judge;
`evaluator_options` turns them, with the engine flags, into evaluator arguments; and
`run_batch_command` does everything after the evaluator exists, identically for every
batch subcommand: the dry run, the output sink (with resume), progress, per-row error
lines, the run summary and its JSON, key redaction everywhere, the report and the exit
code. A subcommand supplies only its inputs, its evaluator and, optionally, a dataset
summary printed at the end.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol

from ..evaluators.base import Evaluator
from ..evaluators.records import Record
from ..runner import RunSummary
from ._batch import (
    EXIT_STOPPED,
    BatchProgress,
    RecordSink,
    cache_from_args,
    price_from_args,
    redact,
    retry_policy_from_args,
    secrets_from_env,
)
from ._common import EXIT_ITEM_ERRORS, EXIT_OK, eprint

__all__ = ["DatasetSummary", "add_judge_arguments", "evaluator_options", "run_batch_command"]


class DatasetSummary(Protocol):
    """Dataset-level figures a subcommand prints after its run (autoeval's averages)."""

    unit: str

    def add(self, record: Record) -> None: ...

    def render(self) -> str: ...

    def to_dict(self) -> dict[str, Any]: ...


def add_judge_arguments(p: argparse.ArgumentParser, *, metrics: str, language: str) -> None:
    """--model, --base-url, --metrics (choices named in `metrics`), --language, --long-source."""
    p.add_argument("--model", help="provider/model or 'local' (default: see docs)")
    p.add_argument("--base-url", help="OpenAI-compatible server URL, e.g. http://127.0.0.1:8000/v1")
    p.add_argument("--metrics", help=f"comma-separated subset of {metrics}")
    p.add_argument("--language", help=language)
    p.add_argument(
        "--long-source",
        choices=["fail", "chunked"],
        default="fail",
        help="a source larger than the judge's window: fail the item (default) or judge it "
        "by parts (the most relevant passages; notes of every part where all is needed)",
    )


def metric_list(args: argparse.Namespace) -> list[str] | None:
    """The --metrics value as a list (None: the evaluator's default)."""
    if not args.metrics:
        return None
    return [m.strip() for m in args.metrics.split(",") if m.strip()]


def evaluator_options(args: argparse.Namespace) -> dict[str, Any]:
    """The evaluator arguments every batch subcommand takes from its flags."""
    table, price = price_from_args(args)
    return {
        "base_url": args.base_url,
        "explanation_language": args.language,
        "retry_policy": retry_policy_from_args(args),
        "timeout": args.timeout,
        "cache": cache_from_args(args),
        "prices": table,
        "price": price,
        "context_window": args.context_window,
        "long_source": args.long_source,
    }


async def run_batch_command(
    args: argparse.Namespace,
    evaluator: Evaluator[Any, Any],
    items: Iterable[Any],
    total: int | None,
    *,
    single: bool = False,
    dataset: DatasetSummary | None = None,
    write_report: Callable[[argparse.Namespace, str], None] | None = None,
) -> int:
    """Run the batch (or the dry run) and report it; returns the exit code."""
    secrets = secrets_from_env()
    try:
        if args.dry_run:
            estimate = evaluator.estimate_cost(items)
            for line in estimate.lines():
                eprint(redact(f"sumjudge: {line}", secrets))
            print(redact(json.dumps(estimate.to_dict(), indent=2), secrets))
            return EXIT_OK
        if args.report and not args.output:
            args.output = str(Path(args.report).with_suffix(".jsonl"))
            eprint(f"sumjudge: results for the report go to {args.output}")
            single = False
        with RecordSink(args.output, resume=args.resume, pretty=single, secrets=secrets) as sink:
            code = await _judge(args, evaluator, items, total, sink, secrets, single, dataset)
        if args.report and write_report is not None:
            write_report(args, evaluator.judge_name)
        return code
    finally:
        await evaluator.aclose()
        if evaluator.cache is not None:
            evaluator.cache.close()


async def _judge(
    args: argparse.Namespace,
    evaluator: Evaluator[Any, Any],
    items: Iterable[Any],
    total: int | None,
    sink: RecordSink,
    secrets: list[str],
    single: bool,
    dataset: DatasetSummary | None,
) -> int:
    summary = RunSummary()
    if sink.done:
        eprint(f"sumjudge: resuming: {len(sink.done)} item(s) already done in {args.output}")
        if total is not None:
            total -= len(sink.done)
    progress = BatchProgress(total, enabled=not single and not args.no_progress)
    try:
        async for record in evaluator.evaluate_batch(
            items,
            concurrency=args.concurrency,
            requests_per_minute=args.rpm,
            tokens_per_minute=args.tpm,
            max_cost=args.max_cost,
            skip=sink.done,
            summary=summary,
        ):
            if dataset is not None:
                dataset.add(record)
            sink.write(record.to_dict())
            if record.error is not None:
                progress.write(redact(f"sumjudge: error: {record.error}", secrets))
            elif record.status == "failed":
                reasons = "; ".join(
                    f"{f.get('metric') or 'item'}: {f['reason']}" for f in record.failures
                )
                progress.write(redact(f"sumjudge: row {record.index} failed: {reasons}", secrets))
            progress.update(summary)
    finally:
        progress.close()
    extra: dict[str, Any] = {}
    if dataset is not None:
        done_note = " (this run; resumed items not included)" if sink.done else ""
        eprint(
            redact(
                f"sumjudge: {args.command} by {evaluator.judge_name}{done_note}: "
                f"{dataset.render()}",
                secrets,
            )
        )
        extra["averages"] = dataset.to_dict()
        failures = summary.failed + summary.invalid
        eprint(
            f"sumjudge: {summary.ok + summary.failed} {dataset.unit}(s) judged, "
            f"{failures} with errors"
        )
    for line in summary.lines():
        eprint(redact(f"sumjudge: {line}", secrets))
    if args.summary_json:
        blob = json.dumps({"judge": evaluator.judge_name, **summary.to_dict(), **extra}, indent=2)
        Path(args.summary_json).write_text(redact(blob, secrets) + "\n", encoding="utf-8")  # noqa: ASYNC240
    if summary.stopped:
        return EXIT_STOPPED
    return EXIT_ITEM_ERRORS if (summary.failed or summary.invalid) else EXIT_OK
