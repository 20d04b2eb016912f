"""Entry point of the `sumjudge` command."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from .._version import __version__
from ..errors import SumjudgeError
from . import autoeval, evaluate, meta_eval, report
from ._common import EXIT_CONFIG, eprint

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The `sumjudge` argument parser, with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="sumjudge", description="Judge AI-written summaries against their source."
    )
    parser.add_argument("--version", action="version", version=f"sumjudge {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    sub = parser.add_subparsers(dest="command", required=True)
    evaluate.add_parser(sub)
    autoeval.add_parser(sub)
    meta_eval.add_parser(sub)
    report.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the `sumjudge` command on `argv` (default: `sys.argv[1:]`); returns the exit code.

    A `SumjudgeError` is printed as one line (re-raised with `--debug`) and gives
    `EXIT_CONFIG`; an interrupt gives 130 and a closed output pipe 141, as in a shell.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.handler(args)
        return code
    except SumjudgeError as exc:
        if args.debug:
            raise
        eprint(f"sumjudge: error: {exc}")
        return EXIT_CONFIG
    except KeyboardInterrupt:
        eprint("sumjudge: interrupted")
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, like other Unix tools.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
