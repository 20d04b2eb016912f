"""`sumjudge evaluate`: judge summaries from a file, a pair of files, or the bundled example."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from ..datasets import load_simple_summarization_dataset, read_summary_rows
from ..datasets.files import count_rows, decode_file, read_source_file
from ..errors import ConfigError, DataError
from ..evaluators.summarization import SummarizationEvaluator
from ..metrics import SUMMARY_METRICS
from ..types import SummaryData
from ._batch import add_batch_arguments
from ._common import choose_model, eprint
from ._run import (
    DefaultsHelpFormatter,
    add_input_arguments,
    add_judge_arguments,
    add_output_arguments,
    build_evaluator,
    check_flags,
    evaluator_options,
    metric_list,
    run_batch_command,
    warn,
)

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    """Add the `evaluate` subcommand and its flags to the subparsers `sub`."""
    p = sub.add_parser(
        "evaluate",
        help="judge summaries against their sources",
        description="Judge summaries on coherence, consistency, relevance and fluency. "
        "On a terminal the results are a table; otherwise (or with -o) JSON lines.",
        formatter_class=DefaultsHelpFormatter,
    )
    p.add_argument(
        "file",
        nargs="?",
        help="JSONL, CSV or Parquet with input and summary columns "
        "(or give --input-file/--summary-file, or --example)",
    )
    p.add_argument("--input-file", help="a source text file (with --summary-file; not with FILE)")
    p.add_argument("--summary-file", help="a summary text file (with --input-file)")
    p.add_argument("--example", action="store_true", help="judge the bundled example dataset")
    add_judge_arguments(
        p,
        metrics=",".join(SUMMARY_METRICS),
        language="language for explanations (default: the source's)",
    )
    p.add_argument("--input-column", default="input", help="FILE's column with the source")
    p.add_argument("--summary-column", default="summary", help="FILE's column with the summary")
    p.add_argument("--id-column", default="id", help="FILE's column with each row's id")
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
    add_input_arguments(p)
    add_output_arguments(p)
    add_batch_arguments(p)
    p.set_defaults(handler=run, check=_check)


def _check(args: argparse.Namespace) -> None:
    """Refuse flags that contradict each other, before any file is looked at."""
    check_flags(args)
    pair = args.input_file or args.summary_file
    given = [n for n, v in (("FILE", args.file), ("--example", args.example)) if v]
    if pair:
        given.append("--input-file/--summary-file")
    if len(given) > 1:
        raise ConfigError(
            f"{' and '.join(given)} are different inputs: give one (a FILE of rows, "
            "one pair with --input-file/--summary-file, or --example)"
        )
    if pair and not (args.input_file and args.summary_file):
        raise ConfigError("--input-file and --summary-file go together: give both")


def _summary_file(args: argparse.Namespace) -> str:
    path = Path(args.summary_file)
    return decode_file(path.read_bytes(), args.encoding, origin=str(path))


def _items(args: argparse.Namespace) -> tuple[Iterable[SummaryData | DataError], bool, int | None]:
    """(items, single, total) for the chosen input mode."""
    if args.input_file or args.summary_file:
        text = read_source_file(args.input_file, args.encoding)
        summary = _summary_file(args)
        try:
            return [SummaryData(input=text, summary=summary)], True, 1
        except ValueError:
            field = "input-file" if not text.strip() else "summary-file"
            return [DataError("is empty", item=0, field=field)], True, 1
    if args.example:
        items = load_simple_summarization_dataset().load()
        return items, False, len(items)
    if not args.file:
        raise ConfigError("give a FILE, --input-file/--summary-file, or --example")
    return _rows(args, on_warning=warn), False, count_rows(args.file, encoding=args.encoding)


def _rows(
    args: argparse.Namespace, on_warning: Callable[[str], None] | None = None
) -> Iterator[SummaryData | DataError]:
    return read_summary_rows(
        Path(args.file),
        input_column=args.input_column,
        summary_column=args.summary_column,
        id_column=args.id_column,
        encoding=args.encoding,
        on_warning=on_warning,
    )


async def _run(args: argparse.Namespace) -> int:
    items, single, total = _items(args)
    model = choose_model(args.model, args.base_url)
    options = evaluator_options(args)

    def make(credentials: str | None) -> SummarizationEvaluator:
        return SummarizationEvaluator(
            model,
            credentials,
            enabled_metrics=metric_list(args),
            logprobs=not args.no_logprobs,
            single_call=args.single_call,
            prompt_layout=args.prompt_layout,
            **options,
        )

    evaluator = build_evaluator(args, make)
    return await run_batch_command(
        args,
        evaluator,
        items,
        total,
        kind="summary",
        metrics=evaluator.enabled_metrics,
        single=single,
        write_report=_write_report,
    )


def _write_report(args: argparse.Namespace, judge: str) -> None:
    from ..report import write_report

    inputs: Any
    if args.example:
        inputs = load_simple_summarization_dataset().load()
    elif args.file:
        # Re-read through the same reader as the run (any format, encoding and column
        # names; transcripts normalised; an unusable row keeps its position).
        inputs = list(_rows(args, on_warning=lambda _: None))  # warned once, by the run
    else:
        text = read_source_file(args.input_file, args.encoding)
        summary = _summary_file(args)
        inputs = [{"input": text, "summary": summary}]
    path = write_report(
        args.output, args.report, inputs=inputs, title=f"sumjudge evaluate ({judge})"
    )
    eprint(f"sumjudge: report written to {path}")


def run(args: argparse.Namespace) -> int:
    """Run `sumjudge evaluate` with the parsed `args`; returns the exit code."""
    return asyncio.run(_run(args))
