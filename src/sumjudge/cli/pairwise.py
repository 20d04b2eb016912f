"""`sumjudge pairwise`: which of two summaries is better, per metric, in both orders.

Runs on the batch engine and flags of `sumjudge evaluate` (`cli/_run.py`): response
cache, `--resume`, rate limits, `--max-cost`, `--dry-run`, prices, run summary, key
redaction and the same exit codes. At the end the run's figures per metric (B's wins,
ties and losses against A, the win rate with its Wilson interval, the sign test, the
position consistency and the length-bias probe) go to stderr, and into --summary-json.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..datasets.files import count_rows, read_pair_rows
from ..errors import ConfigError, DataError
from ..evaluators.pairwise import PairwiseEvaluator, PairwiseSummary
from ..types.pairwise import PairData
from ._flags import (
    DefaultsHelpFormatter,
    add_run_arguments,
    add_summary_judge_arguments,
    warn,
)
from ._run import run_batch
from ._runflags import RunFlags

__all__ = ["add_parser", "run"]

_DESCRIPTION = """
Compare two summaries of each source (columns input, summary_a, summary_b, optional id)
on coherence, consistency, relevance and fluency. Every pair is judged twice, the second
time with the summaries swapped; when the two verdicts disagree the pair is a tie and
counts as position-inconsistent. Per pair: the winner per metric and both raw verdicts;
per run: B's wins, ties and losses against A with tests and a length-bias probe."""


def add_parser(sub: Any) -> None:
    """Add the `pairwise` subcommand and its flags to the subparsers `sub`."""
    p = sub.add_parser(
        "pairwise",
        help="compare two summaries of each source, in both orders",
        description=_DESCRIPTION,
        formatter_class=DefaultsHelpFormatter,
    )
    p.add_argument("file", help="JSONL, CSV or Parquet with input, summary_a and summary_b")
    add_summary_judge_arguments(p)
    p.add_argument("--a-column", default="summary_a", help="FILE's column with summary A")
    p.add_argument("--b-column", default="summary_b", help="FILE's column with summary B")
    p.add_argument("--id-column", default="id", help="FILE's column with each row's id")
    add_run_arguments(p, handler=run, check=_check)


def _check(args: argparse.Namespace) -> None:
    """Refuse what pairwise judging does not offer, before any file is looked at."""
    if args.report:
        raise ConfigError(
            "--report is not available for pairwise results yet; the -o JSON lines and "
            "--summary-json hold every figure"
        )
    if args.long_source == "chunked":
        raise ConfigError("--long-source chunked is not available for pairwise judging")


def _rows(args: argparse.Namespace) -> Iterator[PairData | DataError]:
    return read_pair_rows(
        Path(args.file),
        input_column=args.input_column,
        a_column=args.a_column,
        b_column=args.b_column,
        id_column=args.id_column,
        encoding=args.encoding,
        on_warning=warn,
    )


async def _run(args: argparse.Namespace) -> int:
    def make(common: dict[str, Any], metrics: list[str] | None) -> PairwiseEvaluator:
        return PairwiseEvaluator(metrics=metrics, **common)

    return await run_batch(
        RunFlags.from_args(args),
        make,
        _rows(args),
        count_rows(args.file, encoding=args.encoding),
        kind="pairwise",
        report_inputs=lambda: None,
        dataset=PairwiseSummary(),
    )


def run(args: argparse.Namespace) -> int:
    """Run `sumjudge pairwise` with the parsed `args`; returns the exit code."""
    return asyncio.run(_run(args))
