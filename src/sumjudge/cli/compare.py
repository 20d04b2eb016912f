"""`sumjudge compare BASE.jsonl CAND.jsonl`: is the candidate run better than the base?

Its files (BASE, CAND and the --*-inputs in; -o, --markdown, --report out) are declared
with `compare_paths` and checked by `main` before anything is written; each output is
written atomically.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ._common import (
    EXIT_CONFIG,
    EXIT_OK,
    add_bootstrap_arguments,
    bootstrap_settings,
    eprint,
    metric_names,
    name_list,
)
from ._safety import CommandPaths, atomic_write_text

__all__ = ["add_parser", "compare_paths", "run"]

_HELP = "compare a candidate run with a base run, item by item"
_DESCRIPTION = """
Pair the results of two runs (evaluate or autoeval) by id, and for each metric give
the mean paired difference with a bootstrap 95% interval, a Wilcoxon signed-rank
p-value (Holm-corrected across metrics) and a verdict; the rating transition matrix;
and the items that regressed, with both sides' explanations. Prints Markdown unless
-o is given; --markdown and --report write it as Markdown and HTML as well."""


def add_parser(sub: Any) -> None:
    """Add the `compare` subcommand and its flags to the subparsers `sub`."""
    p = sub.add_parser("compare", help=_HELP, description=_DESCRIPTION)
    p.add_argument("base", help="the current run's results JSONL")
    p.add_argument("candidate", help="the new run's results JSONL")
    p.add_argument("-o", "--output", help="write the comparison JSON here")
    p.add_argument("--markdown", metavar="PATH", help="write the comparison as Markdown")
    p.add_argument("--report", metavar="HTML", help="write the comparison as an HTML page")
    p.add_argument(
        "--metrics", type=name_list, help="comma-separated metrics to compare (default: all shared)"
    )
    add_bootstrap_arguments(p)
    p.add_argument(
        "--base-inputs",
        metavar="JSONL",
        help="the base run's input rows: summary texts for the report, source documents "
        "for the bootstrap (items sharing a source are resampled together)",
    )
    p.add_argument("--candidate-inputs", metavar="JSONL", help="the same for the candidate")
    p.set_defaults(handler=run, paths=compare_paths)


def compare_paths(args: argparse.Namespace) -> CommandPaths:
    """The files of a `compare` command line."""
    inputs = [
        ("BASE", args.base),
        ("CAND", args.candidate),
        ("--base-inputs", args.base_inputs),
        ("--candidate-inputs", args.candidate_inputs),
    ]
    outputs = [
        ("-o/--output", args.output),
        ("--markdown", args.markdown),
        ("--report", args.report),
    ]
    return CommandPaths(inputs=inputs, outputs=outputs)


def run(args: argparse.Namespace) -> int:
    """Compare the two runs and write what was asked; returns the exit code."""
    from ..compare import compare_results

    try:
        result = compare_results(
            args.base,
            args.candidate,
            metrics=metric_names(args.metrics),
            base_inputs=args.base_inputs,
            candidate_inputs=args.candidate_inputs,
            **bootstrap_settings(args),
        )
    except ValueError as exc:
        eprint(f"sumjudge: error: {exc}")
        return EXIT_CONFIG
    markdown = result.to_markdown()
    if args.output:
        atomic_write_text(args.output, json.dumps(result.to_dict(), indent=2) + "\n")
    if args.markdown:
        atomic_write_text(args.markdown, markdown)
    if args.report:
        from ..report.compare_html import render_comparison

        atomic_write_text(args.report, render_comparison(result, title="sumjudge compare"))
    if not args.output:
        sys.stdout.write(markdown)
    else:
        eprint(_headline(result))
    return EXIT_OK


def _headline(result: Any) -> str:
    verdicts = ", ".join(f"{m.name} {m.verdict}" for m in result.metrics.values())
    return (
        f"sumjudge: compared {result.matched} matched item(s): {verdicts or 'no metric'}; "
        f"{len(result.regressions)} regression(s)"
    )
