"""Entry point of the `sumjudge` command.

What a user sees when something goes wrong is one line on stderr, never a traceback:

- a bad flag value or usage: `sumjudge evaluate: error: argument --concurrency: must be at
  least 1 (got 0) (see sumjudge evaluate --help)`, exit 2;
- a configuration error, an OS error (missing file, folder, permission, disk full) or a
  decode error: `sumjudge: error: <what, naming the file> (<what to do>)`, exit 2. Every
  subcommand declares its files (`set_defaults(paths=...)`, see `cli/_safety.py`) and
  they are checked before the command runs, so an output that would overwrite an input
  is refused before anything is opened for writing;
- Ctrl-C: how many items were written, where, and the command that resumes, exit 130;
- a bug: `sumjudge: internal error (a bug): <Type>: <message>; rerun with --debug ...`,
  exit 1 (`EXIT_BUG`). With `--debug` every error is re-raised, with its traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from .._version import __version__
from ..errors import SumjudgeError
from . import (
    autoeval,
    cache,
    calibrate,
    compare,
    evaluate,
    gate,
    jobs,
    meta_eval,
    pairwise,
    report,
    review,
)
from ._common import EXIT_BUG, EXIT_CONFIG, EXIT_INTERRUPTED, eprint
from ._safety import RunInterrupted, check_command_paths, describe_os_error, resume_command

__all__ = ["build_parser", "main"]


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (the usage is one `--help` away)."""

    def error(self, message: str) -> NoReturn:
        """Print `message` as one line naming the command and exit with 2."""
        self.exit(EXIT_CONFIG, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The `sumjudge` argument parser, with every subcommand."""
    parser = _Parser(
        prog="sumjudge", description="Judge AI-written summaries against their source."
    )
    parser.add_argument("--version", action="version", version=f"sumjudge {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks (for bug reports)")
    sub = parser.add_subparsers(dest="command", required=True)
    evaluate.add_parser(sub)
    autoeval.add_parser(sub)
    pairwise.add_parser(sub)
    meta_eval.add_parser(sub)
    calibrate.add_parser(sub)
    report.add_parser(sub)
    review.add_parser(sub)
    compare.add_parser(sub)
    gate.add_parser(sub)
    cache.add_parser(sub)
    jobs.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the `sumjudge` command on `argv` (default: `sys.argv[1:]`); returns the exit code.

    See the module docstring for what each kind of failure prints and returns; a closed
    output pipe gives 141, as in a shell.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = argv  # what a batch job's "collect with" line repeats
    try:
        check = getattr(args, "check", None)
        if check is not None:  # contradicting flags first: they explain more than a path does
            check(args)
        paths = getattr(args, "paths", None)
        if paths is not None:
            check_command_paths(paths(args))
        code: int = args.handler(args)
        return code
    except RunInterrupted as exc:
        eprint(_interrupted_line(exc, args, argv))
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:
        if getattr(args, "resume", None) is not None:
            eprint(
                "sumjudge: interrupted before any result was written; "
                f"rerun with: {resume_command(argv)}"
            )
        else:
            eprint("sumjudge: interrupted; no file was written")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, like other Unix tools.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    except SumjudgeError as exc:
        if args.debug:
            raise
        eprint(f"sumjudge: error: {_one_line(exc)}")
        return EXIT_CONFIG
    except OSError as exc:
        if args.debug:
            raise
        eprint(f"sumjudge: error: {_one_line(describe_os_error(exc))}")
        return EXIT_CONFIG
    except UnicodeDecodeError as exc:
        if args.debug:
            raise
        eprint(
            f"sumjudge: error: a file is not UTF-8 text ({exc.reason} at byte {exc.start}; "
            "save it as UTF-8)"
        )
        return EXIT_CONFIG
    except SystemExit as exc:
        if isinstance(exc.code, str):  # `raise SystemExit("sumjudge: ...")`: a usage error
            eprint(_one_line(exc.code))
            return EXIT_CONFIG
        raise
    except Exception as exc:
        if args.debug:
            raise
        eprint(
            f"sumjudge: internal error (a bug): {type(exc).__name__}: {_one_line(exc)}; "
            "rerun with --debug for the traceback and report it"
        )
        return EXIT_BUG


def _one_line(message: object) -> str:
    return " ".join(str(message).split())


def _interrupted_line(exc: RunInterrupted, args: argparse.Namespace, argv: list[str]) -> str:
    kept = f" (plus {exc.kept} kept from before)" if exc.kept else ""
    if exc.path is None:
        return (
            f"sumjudge: interrupted: {exc.written} item(s) written to stdout; to be able to "
            "resume, write to a file with -o FILE and rerun with --resume"
        )
    where = str(exc.path)
    if exc.target is not None and os.path.realpath(exc.path) != os.path.realpath(exc.target):
        where += f" ({exc.target} is untouched)"
    return (
        f"sumjudge: interrupted: {exc.written} item(s) written{kept} to {where}; "
        f"resume with: {resume_command(argv)}"
    )


if __name__ == "__main__":
    sys.exit(main())
