"""`sumjudge report`: one self-contained HTML file from a results JSONL."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ._common import EXIT_CONFIG, EXIT_OK, eprint

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
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Write the HTML report; returns the exit code (`EXIT_CONFIG` for unreadable input)."""
    from ..report import write_report

    for name in ("results", "card", "inputs"):
        value = getattr(args, name)
        if value and not Path(value).exists():
            raise SystemExit(f"sumjudge: no such file: {value}")
    try:
        path = write_report(
            args.results, args.output, args.card, inputs=args.inputs, title=args.title
        )
    except ValueError as exc:  # a line that is not JSON, a card that is not a judge card
        eprint(f"sumjudge: error: {exc}")
        return EXIT_CONFIG
    eprint(f"sumjudge: report written to {path}")
    return EXIT_OK
