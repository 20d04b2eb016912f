"""`sumjudge evaluate`: judge summaries from a file, a pair of files, or the bundled example."""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..datasets import load_simple_summarization_dataset, read_summary_rows
from ..datasets.files import count_rows
from ..errors import DataError
from ..evaluators.summarization import SummarizationEvaluator
from ..metrics import SUMMARY_METRICS
from ..runner import RunSummary
from ..types import SummaryData
from ._batch import (
    EXIT_STOPPED,
    BatchProgress,
    RecordSink,
    add_batch_arguments,
    cache_from_args,
    price_from_args,
    redact,
    retry_policy_from_args,
    secrets_from_env,
)
from ._common import EXIT_ITEM_ERRORS, EXIT_OK, choose_model, eprint

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "evaluate",
        help="judge summaries against their sources",
        description="Judge summaries on coherence, consistency, relevance and fluency.",
    )
    p.add_argument("file", nargs="?", help="JSONL, CSV or Parquet with input and summary columns")
    p.add_argument("--input-file", help="a source text file (with --summary-file)")
    p.add_argument("--summary-file", help="a summary text file (with --input-file)")
    p.add_argument("--example", action="store_true", help="judge the bundled example dataset")
    p.add_argument("--model", help="provider/model or 'local' (default: see docs)")
    p.add_argument("--base-url", help="OpenAI-compatible server URL, e.g. http://127.0.0.1:8000/v1")
    p.add_argument(
        "--metrics",
        help=f"comma-separated subset of {','.join(SUMMARY_METRICS)}",
    )
    p.add_argument("--language", help="language for explanations (default: the source's)")
    p.add_argument("--input-column", default="input")
    p.add_argument("--summary-column", default="summary")
    p.add_argument("--id-column", default="id")
    p.add_argument("--no-logprobs", action="store_true", help="do not request token logprobs")
    p.add_argument(
        "--single-call",
        action="store_true",
        help="judge all metrics in one request per item (cheaper; default: one per metric)",
    )
    p.add_argument(
        "--prompt-layout",
        choices=["source_first", "rubrics_first"],
        default="source_first",
        help="rubrics_first: all metric instructions in a run-wide cached system message",
    )
    p.add_argument(
        "--long-source",
        choices=["fail", "chunked"],
        default="fail",
        help="a source larger than the judge's window: fail the item (default) or judge it "
        "in chunks (excerpts per claim; chunk notes for relevance)",
    )
    p.add_argument(
        "--report",
        metavar="HTML",
        help="also write a self-contained HTML report here (results go to -o, or next to it)",
    )
    add_batch_arguments(p)
    p.set_defaults(handler=run)


def _items(args: argparse.Namespace) -> tuple[Iterable[SummaryData | DataError], bool, int | None]:
    """(items, single, total) for the chosen input mode."""
    if args.input_file or args.summary_file:
        if not (args.input_file and args.summary_file):
            raise SystemExit("sumjudge: --input-file and --summary-file go together")
        text = Path(args.input_file).read_text(encoding="utf-8")
        summary = Path(args.summary_file).read_text(encoding="utf-8")
        try:
            return [SummaryData(input=text, summary=summary)], True, 1
        except ValueError:
            field = "input-file" if not text.strip() else "summary-file"
            return [DataError("is empty", item=0, field=field)], True, 1
    if args.example:
        items = load_simple_summarization_dataset().load()
        return items, False, len(items)
    if not args.file:
        raise SystemExit("sumjudge: give a FILE, --input-file/--summary-file, or --example")
    path = Path(args.file)
    if not path.exists():
        raise SystemExit(f"sumjudge: no such file: {path}")
    rows: Iterator[SummaryData | DataError] = read_summary_rows(
        path,
        input_column=args.input_column,
        summary_column=args.summary_column,
        id_column=args.id_column,
    )
    return rows, False, count_rows(path)


async def _run(args: argparse.Namespace) -> int:
    model = choose_model(args.model, args.base_url)
    metrics = [m.strip() for m in args.metrics.split(",")] if args.metrics else None
    table, price = price_from_args(args)
    evaluator = SummarizationEvaluator(
        model,
        enabled_metrics=metrics,
        base_url=args.base_url,
        explanation_language=args.language,
        logprobs=not args.no_logprobs,
        retry_policy=retry_policy_from_args(args),
        timeout=args.timeout,
        cache=cache_from_args(args),
        prices=table,
        price=price,
        context_window=args.context_window,
        single_call=args.single_call,
        prompt_layout=args.prompt_layout,
        long_source=args.long_source,
    )
    secrets = secrets_from_env()
    try:
        items, single, total = _items(args)
        if args.dry_run:
            estimate = evaluator.estimate_cost(items)
            for line in estimate.lines():
                eprint(f"sumjudge: {line}")
            print(json.dumps(estimate.to_dict(), indent=2))
            return EXIT_OK
        if args.report and not args.output:
            args.output = str(Path(args.report).with_suffix(".jsonl"))
            eprint(f"sumjudge: results for the report go to {args.output}")
            single = False
        with RecordSink(args.output, resume=args.resume, pretty=single, secrets=secrets) as sink:
            code = await _judge(args, evaluator, items, single, total, sink, secrets)
        if args.report:
            _write_report(args, evaluator.judge_name)
        return code
    finally:
        await evaluator.aclose()
        if evaluator.cache is not None:
            evaluator.cache.close()


async def _judge(
    args: argparse.Namespace,
    evaluator: SummarizationEvaluator,
    items: Iterable[SummaryData | DataError],
    single: bool,
    total: int | None,
    sink: RecordSink,
    secrets: list[str],
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
    for line in summary.lines():
        eprint(redact(f"sumjudge: {line}", secrets))
    if args.summary_json:
        blob = json.dumps({"judge": evaluator.judge_name, **summary.to_dict()}, indent=2)
        Path(args.summary_json).write_text(blob + "\n", encoding="utf-8")  # noqa: ASYNC240
    if summary.stopped:
        return EXIT_STOPPED
    return EXIT_ITEM_ERRORS if (summary.failed or summary.invalid) else EXIT_OK


def _write_report(args: argparse.Namespace, judge: str) -> None:
    from ..report import write_report

    inputs: Any
    if args.example:
        inputs = load_simple_summarization_dataset().load()
    elif args.file:
        inputs = args.file
    else:
        text = Path(args.input_file).read_text(encoding="utf-8")
        summary = Path(args.summary_file).read_text(encoding="utf-8")
        inputs = [{"input": text, "summary": summary}]
    path = write_report(
        args.output, args.report, inputs=inputs, title=f"sumjudge evaluate ({judge})"
    )
    eprint(f"sumjudge: report written to {path}")


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_run(args))
