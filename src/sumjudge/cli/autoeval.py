"""`sumjudge autoeval`: accuracy, adherence and completeness of conversation summaries.

Runs on the same batch engine and flags as `sumjudge evaluate` (`cli/_batch.py`): response
cache (on by default), `--resume`, rate limits, `--max-cost`, `--dry-run`, prices, run
summary, progress with spend, key redaction and the same exit codes. At the end the
dataset-level averages per metric and per section go to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..autoeval import AutoEvaluator, ConversationItem, DatasetSummary, SectionDefinition
from ..datasets.conversations import (
    load_contact_center_dataset,
    load_sections,
    read_conversation_rows,
)
from ..datasets.files import count_rows
from ..errors import ConfigError, DataError
from ..evaluators.auto import AUTO_METRICS
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


_HELP = "judge conversation summaries on accuracy, adherence and completeness"
_DESCRIPTION = """
Judge conversation summaries (free text or sections) against their transcripts on
accuracy, adherence and completeness. On a terminal the results are a table; otherwise
(or with -o) one JSON line per conversation. Averages per metric and per section go to
stderr."""


def add_parser(sub: Any) -> None:
    """Add the `autoeval` subcommand and its flags to the subparsers `sub`."""
    p = sub.add_parser(
        "autoeval", help=_HELP, description=_DESCRIPTION, formatter_class=DefaultsHelpFormatter
    )
    p.add_argument(
        "file",
        nargs="?",
        help="JSONL, CSV or Parquet with transcript and summary per row (or give --example)",
    )
    p.add_argument(
        "--sections",
        help="section definitions, YAML or JSON (default: none, so adherence and "
        "completeness are N/A; the bundled ones with --example)",
    )
    p.add_argument(
        "--example", action="store_true", help="judge the bundled contact-centre examples"
    )
    add_judge_arguments(
        p,
        metrics=f"{','.join(AUTO_METRICS)},consistency",
        language="language for justifications (default: the transcript's)",
    )
    p.add_argument(
        "--rubric-cache",
        help="JSON file that keeps rubric questions between runs (default: none; the "
        "response cache still answers repeated generations)",
    )
    p.add_argument(
        "--transcript-column", default="transcript", help="FILE's column with the transcript"
    )
    p.add_argument("--summary-column", default="summary", help="FILE's column with the summary")
    p.add_argument("--id-column", default="id", help="FILE's column with each row's id")
    add_input_arguments(p)
    add_output_arguments(p)
    add_batch_arguments(p)
    p.set_defaults(handler=run, check=_check)


def _check(args: argparse.Namespace) -> None:
    """Refuse flags that contradict each other, before any file is looked at."""
    check_flags(args)
    if args.example and args.file:
        raise ConfigError(
            "FILE and --example are different inputs: give one (a FILE of rows, or --example)"
        )


def _inputs(
    args: argparse.Namespace,
) -> tuple[Iterable[ConversationItem | DataError], list[SectionDefinition], int | None]:
    sections: list[SectionDefinition] = []
    if args.example:
        data = load_contact_center_dataset()
        items: list[ConversationItem] = data.load()
        sections = data.sections()
        if args.sections:
            sections = load_sections(args.sections)
        return items, sections, len(items)
    if not args.file:
        raise ConfigError("give a FILE (JSONL, CSV or Parquet) with --sections, or --example")
    path = Path(args.file)
    if args.sections:
        sections = load_sections(args.sections)
    else:
        eprint("sumjudge: no --sections given: adherence and completeness will be N/A")
    return _rows(args), sections, count_rows(path, encoding=args.encoding)


def _rows(args: argparse.Namespace) -> Iterable[ConversationItem | DataError]:
    return read_conversation_rows(
        Path(args.file),
        transcript_column=args.transcript_column,
        summary_column=args.summary_column,
        id_column=args.id_column,
        encoding=args.encoding,
        on_warning=warn,
    )


async def _run(args: argparse.Namespace) -> int:
    items, sections, total = _inputs(args)
    model = choose_model(args.model, args.base_url)
    options = evaluator_options(args)

    def make(credentials: str | None) -> AutoEvaluator:
        return AutoEvaluator(
            model,
            credentials,
            metrics=metric_list(args),
            sections=sections,
            rubric_cache=args.rubric_cache,
            **options,
        )

    evaluator = build_evaluator(args, make)
    return await run_batch_command(
        args,
        evaluator,
        items,
        total,
        kind="conversation",
        metrics=evaluator.metrics,
        dataset=DatasetSummary(),
        write_report=_write_report,
    )


def _write_report(args: argparse.Namespace, judge: str) -> None:
    from ..report import write_report

    # A file is re-read through the loader, so any file type and column names give the
    # report's "transcript"/"summary" rows (an unusable row keeps its position).
    inputs: Any = load_contact_center_dataset().load() if args.example else list(_rows(args))
    path = write_report(
        args.output, args.report, inputs=inputs, title=f"sumjudge autoeval ({judge})"
    )
    eprint(f"sumjudge: report written to {path}")


def run(args: argparse.Namespace) -> int:
    """Run `sumjudge autoeval` with the parsed `args`; returns the exit code."""
    return asyncio.run(_run(args))
