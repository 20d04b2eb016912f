"""`sumjudge autoeval`: accuracy, adherence and completeness of conversation summaries.

Runs on the same batch engine and flags as `sumjudge evaluate` (`cli/_run.py`,
`cli/_batch.py`): response cache (on by default), `--resume`, rate limits, `--max-cost`,
`--dry-run`, prices, run summary, progress with spend, key redaction and the same exit
codes. At the end the dataset-level averages per metric and per section go to stderr.
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
from ._common import eprint
from ._distributed import add_engine_arguments, check_engine_flags, run_distributed
from ._flags import (
    DefaultsHelpFormatter,
    add_judge_arguments,
    add_run_arguments,
    reader_options,
)
from ._run import run_batch
from ._runflags import RunFlags

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
    example = "judge the bundled contact-centre examples"
    p.add_argument("--example", action="store_true", help=example)
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
    add_engine_arguments(p)
    add_run_arguments(p, handler=run, check=_check)


def _check(args: argparse.Namespace) -> None:
    """Refuse flags that contradict each other, before any file is looked at."""
    if args.example and args.file:
        raise ConfigError(
            "FILE and --example are different inputs: give one (a FILE of rows, or --example)"
        )
    check_engine_flags(args)


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
    options = reader_options(args)
    return read_conversation_rows(
        Path(args.file), transcript_column=args.transcript_column, **options
    )


async def _run(args: argparse.Namespace, flags: RunFlags) -> int:
    items, sections, total = _inputs(args)

    def make(common: dict[str, Any], metrics: list[str] | None) -> AutoEvaluator:
        return AutoEvaluator(
            metrics=metrics, sections=sections, rubric_cache=args.rubric_cache, **common
        )

    return await run_batch(
        flags,
        make,
        items,
        total,
        kind="conversation",
        report_inputs=lambda: _report_inputs(args),
        dataset=DatasetSummary(),
    )


def _report_inputs(args: argparse.Namespace) -> Any:
    """The report's rows: the inputs, re-read as the run read them."""
    # A file is re-read through the loader, so any file type and column names give the
    # report's "transcript"/"summary" rows (an unusable row keeps its position).
    return load_contact_center_dataset().load() if args.example else list(_rows(args))


def _job_rows(args: argparse.Namespace, flags: RunFlags) -> dict[str, Any]:
    """The job arguments of autoeval's own flags (`--engine spark|ray`)."""
    sections = load_sections(args.sections) if args.sections else []
    if not sections:
        eprint("sumjudge: no --sections given: adherence and completeness will be N/A")
    return {
        "transcript_col": args.transcript_column,
        "summary_col": args.summary_column,
        "metrics": flags.metric_list(),
        "sections": [d.model_dump() for d in sections],
    }


def run(args: argparse.Namespace) -> int:
    """Run `sumjudge autoeval` with the parsed `args`; returns the exit code."""
    flags = RunFlags.from_args(args)
    if flags.engine != "local":
        return run_distributed(flags, lambda: _job_rows(args, flags), kind="conversation")
    return asyncio.run(_run(args, flags))
