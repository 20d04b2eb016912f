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
from ..evaluators.panel_agreement import PanelAgreement
from ..evaluators.summarization import SummarizationEvaluator
from ..runner import RunSummary
from ..types import SummaryData
from ..types.profile import load_profile
from ._distributed import add_engine_arguments, check_engine_flags, run_distributed
from ._flags import (
    DefaultsHelpFormatter,
    add_run_arguments,
    add_summary_judge_arguments,
    reader_options,
    warn,
)
from ._noise_flags import add_noise_arguments, noise_options
from ._run import run_batch
from ._runflags import RunFlags

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
    add_summary_judge_arguments(p)
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
    p.add_argument(
        "--calibration",
        metavar="PROFILE",
        help="a calibration profile from `sumjudge calibrate` (docs/align.md)",
    )
    add_noise_arguments(p)
    add_engine_arguments(p)
    add_run_arguments(p, handler=run, check=_check)


def _check(args: argparse.Namespace) -> None:
    """Refuse flags that contradict each other, before any file is looked at."""
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
    check_engine_flags(args)


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
    options = reader_options(args, on_warning)
    return read_summary_rows(Path(args.file), input_column=args.input_column, **options)


async def _run(args: argparse.Namespace, flags: RunFlags) -> int:
    items, single, total = _items(args)
    summary = RunSummary()  # filled by the run: a panel's cost lines come from it
    agreement = PanelAgreement(summary) if args.model and len(args.model) > 1 else None

    def make(common: dict[str, Any], metrics: list[str] | None) -> SummarizationEvaluator:
        return SummarizationEvaluator(
            enabled_metrics=metrics,
            logprobs=not args.no_logprobs,
            single_call=args.single_call,
            prompt_layout=args.prompt_layout,
            calibration=args.calibration,
            **noise_options(args),
            **common,
        )

    return await run_batch(
        flags,
        make,
        items,
        total,
        kind="summary",
        report_inputs=lambda: _report_inputs(args),
        single=single,
        dataset=agreement,
        summary=summary,
    )


def _report_inputs(args: argparse.Namespace) -> Any:
    """The report's rows: the inputs, re-read as the run read them."""
    if args.example:
        return load_simple_summarization_dataset().load()
    if args.file:
        # Re-read through the same reader as the run (any format, encoding and column
        # names; transcripts normalised; an unusable row keeps its position).
        return list(_rows(args, on_warning=lambda _: None))  # warned once, by the run
    text = read_source_file(args.input_file, args.encoding)
    return [{"input": text, "summary": _summary_file(args)}]


def _engine_profile(path: str | None, flags: RunFlags) -> dict[str, Any]:
    """The job option of `--calibration` on an engine: the profile itself, checked here.

    The workers get the loaded profile (a value: no file path that a cluster's machines
    might not see); it is checked against the judge on the driver first, so a profile
    fitted for another judge is one line and exit 2, not a failed job.
    """
    if not path:
        return {}
    profile = load_profile(path)
    evaluator = SummarizationEvaluator(flags.models(), calibration=profile, cache=None)
    asyncio.run(evaluator.aclose())
    return {"calibration": profile}


def _job_rows(args: argparse.Namespace, flags: RunFlags) -> dict[str, Any]:
    """The job arguments of evaluate's own flags (`--engine spark|ray`)."""
    return {
        "input_col": args.input_column,
        "summary_col": args.summary_column,
        "enabled_metrics": flags.metric_list(),
        **noise_options(args),
        "logprobs": not args.no_logprobs,
        "single_call": args.single_call,
        "prompt_layout": args.prompt_layout,
    }


def run(args: argparse.Namespace) -> int:
    """Run `sumjudge evaluate` with the parsed `args`; returns the exit code."""
    flags = RunFlags.from_args(args)
    if flags.engine != "local":
        profile = _engine_profile(args.calibration, flags)
        return run_distributed(flags, lambda: {**_job_rows(args, flags), **profile})
    return asyncio.run(_run(args, flags))
