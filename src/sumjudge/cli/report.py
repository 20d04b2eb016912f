"""`sumjudge report`: one self-contained HTML file from a results JSONL.

Its files (RESULTS, --card and --inputs in; -o out) are declared with `report_paths` and
checked by `main` before anything is written; the report is written atomically.
"""

from __future__ import annotations

import argparse
from typing import Any

from ._common import EXIT_CONFIG, EXIT_OK, eprint
from ._safety import CommandPaths

__all__ = ["add_parser", "run"]


_HELP = "write an HTML report from results"
_DESCRIPTION = """
Write one self-contained HTML file (no network needed to view it) from the JSONL results
of evaluate, autoeval or meta-eval: headline counts, score distributions, a
sortable item table with explanations and evidence, the judge card and run
provenance."""


def add_parser(sub: Any) -> None:
    """Add the `report` subcommand and its flags to the subparsers `sub`."""
    p = sub.add_parser("report", help=_HELP, description=_DESCRIPTION)
    p.add_argument("results", help="results JSONL")
    p.add_argument("-o", "--output", default="report.html", help="HTML file to write")
    p.add_argument("--card", help="a judge card JSON (from meta-eval --card) to include")
    p.add_argument(
        "--inputs",
        help="the input JSONL the results came from, to show source and summary texts",
    )
    p.add_argument("--title", default="sumjudge report", help="page title")
    p.set_defaults(handler=run, paths=report_paths)


def report_paths(args: argparse.Namespace) -> CommandPaths:
    """The files of a `report` command line: RESULTS, --card, --inputs in; -o out."""
    inputs = [("RESULTS", args.results), ("--card", args.card), ("--inputs", args.inputs)]
    return CommandPaths(inputs=inputs, outputs=[("-o/--output", args.output)])


def run(args: argparse.Namespace) -> int:
    """Write the HTML report; returns the exit code (`EXIT_CONFIG` for unreadable input)."""
    from ..report import write_report

    try:
        path = write_report(
            args.results, args.output, args.card, inputs=args.inputs, title=args.title
        )
    except ValueError as exc:  # a line that is not JSON, a card that is not a judge card
        eprint(f"sumjudge: error: {exc}")
        return EXIT_CONFIG
    eprint(f"sumjudge: report written to {path}")
    return EXIT_OK
