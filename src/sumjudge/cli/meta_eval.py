"""`sumjudge meta-eval`: measure a judge against human scores and write its judge card.

Its files (FILE in; -o, --card and --report out) are declared with `meta_eval_paths` and
checked by `main` before the run; every output is written whole or not at all.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
import sys
from pathlib import Path
from typing import Any

from ..batch.options import BatchOptions
from ..metrics import SUMMARY_METRICS
from ._common import (
    EXIT_OK,
    add_bootstrap_arguments,
    bootstrap_settings,
    choose_model,
    eprint,
    int_at_least,
    metric_names,
    name_list,
    non_empty,
)
from ._flags import add_batch_api_arguments, add_http_client_argument, use_http_client
from ._safety import CommandPaths, atomic_write_text

__all__ = ["add_parser", "run"]


_HELP = "measure a judge against human-judged summaries"
_DESCRIPTION = """
Judge human-judged summaries (rows with source, summary, source_id and human:
{coherence, consistency, relevance, fluency}) and report how well the judge
agrees with the humans: summary-level, pooled and system-level Spearman and
Kendall tau-b for Likert labels; ROC AUC and balanced accuracy for binary
labels; bootstrap 95% intervals resampling source documents."""


def add_parser(sub: Any) -> None:
    """Add the `meta-eval` subcommand and its flags to the subparsers `sub`."""
    p = sub.add_parser("meta-eval", help=_HELP, description=_DESCRIPTION)
    p.add_argument("file", help="JSONL of human-judged rows (e.g. the dev set)")
    p.add_argument("--model", type=non_empty, help="provider/model or 'local' (default: see docs)")
    p.add_argument("--base-url", help="OpenAI-compatible server URL, e.g. http://127.0.0.1:8000/v1")
    add_http_client_argument(p)
    p.add_argument(
        "--metrics",
        type=name_list,
        help=f"comma-separated subset of {','.join(SUMMARY_METRICS)}",
    )
    p.add_argument(
        "--dataset",
        action="append",
        help="keep only rows of this dataset (repeatable or comma-separated), e.g. summeval",
    )
    p.add_argument(
        "--limit", type=int_at_least(1), help="judge at most N rows (whole source documents)"
    )
    p.add_argument("--concurrency", type=int_at_least(1), default=8, help="items judged at once")
    add_bootstrap_arguments(p, resamples=1000, least_resamples=0)
    p.add_argument("--card", help="write the judge card (JSON) here")
    p.add_argument("-o", "--output", help="write per-row results (JSONL, with human labels)")
    p.add_argument("--report", help="write an HTML report (items and the judge card) here")
    p.add_argument("--no-logprobs", action="store_true", help="do not request token logprobs")
    p.add_argument(
        "--calibration",
        metavar="PROFILE",
        help="judge with a calibration profile from `sumjudge calibrate` (docs/align.md)",
    )
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    add_batch_api_arguments(p, no_wait=False)
    p.set_defaults(handler=run, paths=meta_eval_paths)


def meta_eval_paths(args: argparse.Namespace) -> CommandPaths:
    """The files of a `meta-eval` command line: FILE in; -o, --card and --report out."""
    outputs = [("-o/--output", args.output), ("--card", args.card), ("--report", args.report)]
    return CommandPaths(inputs=[("FILE", args.file)], outputs=outputs)


async def _judge(args: argparse.Namespace, path: Path) -> tuple[Any, int]:
    from ..meta.run import run_meta_eval

    use_http_client(args.http_client)
    model = choose_model(args.model, args.base_url)
    datasets = (
        [d.strip() for arg in args.dataset for d in arg.split(",") if d.strip()]
        if args.dataset
        else None
    )
    progress: Any = None
    if not args.no_progress:
        from tqdm import tqdm

        progress = tqdm(unit="item", file=sys.stderr, dynamic_ncols=True, desc="judging")
    failures = 0

    def on_record(record: Any) -> None:
        nonlocal failures
        if record.error is not None or (
            record.result is not None and any(r.error for r in record.result.metrics.values())
        ):
            failures += 1
        if progress is not None:
            progress.update(1)
            progress.set_postfix(failed=failures)

    try:
        result = await run_meta_eval(
            path,
            model=model,
            base_url=args.base_url,
            metrics=metric_names(args.metrics),
            concurrency=args.concurrency,
            limit=args.limit,
            datasets=datasets,
            logprobs=not args.no_logprobs,
            on_record=on_record,
            batch_api=_batch(args),
            calibration=args.calibration,
            **bootstrap_settings(args),
        )
    finally:
        if progress is not None:
            progress.close()
    return result, failures


def run(args: argparse.Namespace) -> int:
    """Run `sumjudge meta-eval`: print the judge card's table, write the requested files."""
    from ..meta.card import format_table

    path = Path(args.file)
    result, failures = asyncio.run(_judge(args, path))
    card = result.card
    print(format_table(card), flush=True)
    if failures:
        eprint(f"sumjudge: {failures} row(s) had failed metrics; they count as missing scores")
    if args.card:
        atomic_write_text(args.card, card.to_json() + "\n")
        eprint(f"sumjudge: judge card written to {args.card}")
    if args.output:
        lines = (json.dumps(row, ensure_ascii=False) + "\n" for row in result.result_dicts())
        atomic_write_text(args.output, "".join(lines))
        eprint(f"sumjudge: per-row results written to {args.output}")
    if args.report:
        from ..report import write_report

        write_report(
            result.result_dicts(),
            args.report,
            card,
            inputs=result.rows,
            title="sumjudge meta-evaluation",
        )
        eprint(f"sumjudge: report written to {args.report}")
    return EXIT_OK


def _batch(args: argparse.Namespace) -> BatchOptions | bool:
    if not args.batch_api:
        return False
    return BatchOptions(
        poll_interval=args.batch_poll,
        progress=lambda line: eprint(f"sumjudge: {line}"),
        command="sumjudge " + shlex.join(getattr(args, "argv", None) or []),
    )
