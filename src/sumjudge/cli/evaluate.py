"""`sumjudge evaluate`: judge summaries from a file, a pair of files, or the bundled example."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from ..datasets import load_simple_summarization_dataset, read_summary_rows
from ..errors import DataError
from ..evaluators.summarization import SummarizationEvaluator
from ..metrics import SUMMARY_METRICS
from ..types import SummaryData
from ._common import EXIT_ITEM_ERRORS, EXIT_OK, choose_model, eprint

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "evaluate",
        help="judge summaries against their sources",
        description="Judge summaries on coherence, consistency, relevance and fluency.",
    )
    p.add_argument("file", nargs="?", help="JSONL or CSV with input and summary columns")
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
    p.add_argument("--concurrency", type=int, default=8, help="items judged at once")
    p.add_argument("--input-column", default="input")
    p.add_argument("--summary-column", default="summary")
    p.add_argument("--id-column", default="id")
    p.add_argument("-o", "--output", help="write JSONL results here (default: stdout)")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.add_argument("--no-logprobs", action="store_true", help="do not request token logprobs")
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
    return rows, False, None


async def _run(args: argparse.Namespace, out: TextIO) -> int:
    model = choose_model(args.model, args.base_url)
    metrics = [m.strip() for m in args.metrics.split(",")] if args.metrics else None
    evaluator = SummarizationEvaluator(
        model,
        enabled_metrics=metrics,
        base_url=args.base_url,
        explanation_language=args.language,
        logprobs=not args.no_logprobs,
    )
    items, single, total = _items(args)
    failures = 0
    done = 0
    progress: Any = None
    if not single and not args.no_progress:
        from tqdm import tqdm

        progress = tqdm(total=total, unit="item", file=sys.stderr, dynamic_ncols=True)
    try:
        async for record in evaluator.evaluate_batch(items, concurrency=args.concurrency):
            done += 1
            data = record.to_dict()
            failed_metrics = (
                [m for m, r in record.result.metrics.items() if r.error] if record.result else []
            )
            if record.error is not None:
                failures += 1
                eprint(f"sumjudge: error: {record.error}")
            elif failed_metrics:
                failures += 1
                eprint(f"sumjudge: row {record.index}: metric(s) failed: {failed_metrics}")
            if single:
                out.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
            else:
                out.write(json.dumps(data, ensure_ascii=False) + "\n")
                out.flush()
            if progress is not None:
                progress.update(1)
                progress.set_postfix(failed=failures)
    finally:
        if progress is not None:
            progress.close()
        await evaluator.aclose()
    eprint(f"sumjudge: {done} item(s) judged by {evaluator.judge_name}, {failures} with errors")
    return EXIT_ITEM_ERRORS if failures else EXIT_OK


def run(args: argparse.Namespace) -> int:
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            return asyncio.run(_run(args, fh))
    return asyncio.run(_run(args, sys.stdout))
