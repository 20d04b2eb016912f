"""`sumjudge review`: a local web page where a person labels judged items.

Its files (RESULTS and --inputs in; the label log, appended to) are declared with
`review_paths` and checked by `main` first, so the label log can never be one of the
inputs. The page is served on 127.0.0.1 until Ctrl-C, which is the normal way to stop:
it prints how many labels were written where and exits 0.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import warnings
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ._common import EXIT_OK, eprint, int_at_least
from ._safety import CommandPaths

__all__ = ["add_parser", "review_paths", "run"]

_HELP = "label judged items in a local web page"
_DESCRIPTION = """
Serve a page on 127.0.0.1 where you review the judge's results item by item: the source
(transcript turns as turns) with the judge's evidence highlighted, the summary, each
metric's score and explanation. Give your own 1-3 per metric or agree / disagree, a rating
and a note, by mouse or keyboard (? on the page lists the keys). Every change is appended
to the label file at once; rerun the same command to continue where you stopped
(docs/review.md)."""
_ORDERS = ("uncertain", "disagree", "random", "input")


def _port(text: str) -> int:
    value = int_at_least(0)(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"must be at most 65535 (got {text})")
    return value


def _reviewer(text: str) -> str:
    name = " ".join(text.split())
    if not name or len(name) > 100 or not name.isprintable():
        raise argparse.ArgumentTypeError(
            f"must be a printable name of 1-100 characters (got {text!r})"
        )
    return name


def add_parser(sub: Any) -> None:
    """Add the `review` subcommand and its flags to the subparsers `sub`."""
    p = sub.add_parser("review", help=_HELP, description=_DESCRIPTION)
    p.add_argument("results", help="results JSONL of sumjudge evaluate or autoeval")
    p.add_argument("--inputs", help="the input JSONL the results came from (source and summary)")
    p.add_argument(
        "--labels",
        help="the label log to append to (default: RESULTS with .labels.jsonl, e.g. "
        "results.jsonl -> results.labels.jsonl)",
    )
    p.add_argument(
        "--reviewer",
        type=_reviewer,
        help="your name, stored in each label (default: $USER, else 'reviewer')",
    )
    p.add_argument(
        "--order",
        choices=_ORDERS,
        default="uncertain",
        help="uncertain: the judge's least certain items first (default); disagree: where "
        "you and the judge disagreed most so far (from 5 labels on); random (with --seed); "
        "input: the file's order",
    )
    p.add_argument("--seed", type=int, default=None, help="seed of --order random")
    p.add_argument(
        "--calibration",
        help="the calibration profile the results were judged with (its cut points order "
        "--order uncertain for a calibrated offline judge)",
    )
    p.add_argument(
        "--port", type=_port, default=0, help="port on 127.0.0.1 (default: 0, a free one)"
    )
    p.add_argument("--open", action="store_true", help="open the page in your browser")
    p.set_defaults(handler=run, paths=review_paths)


def labels_path(args: argparse.Namespace) -> Path:
    """The label log of a command line: --labels, else the default beside RESULTS."""
    from ..review.load import default_labels_path

    return Path(args.labels) if args.labels else default_labels_path(args.results)


def review_paths(args: argparse.Namespace) -> CommandPaths:
    """The files of a `review` command line: RESULTS and --inputs in; the label log out."""
    inputs = [
        ("RESULTS", args.results),
        ("--inputs", args.inputs),
        ("--calibration", args.calibration),
    ]
    return CommandPaths(inputs=inputs, outputs=[("--labels", labels_path(args))])


def run(args: argparse.Namespace) -> int:
    """Serve the review page until Ctrl-C; returns the exit code."""
    from ..align import LabelLog
    from ..review.load import load_items, load_labels
    from ..review.server import serve
    from ..review.session import ReviewSession
    from ..types.profile import load_profile

    path = labels_path(args)
    profile = load_profile(args.calibration) if args.calibration else None
    items = load_items(args.results, args.inputs, profile)
    if profile is None and any(item.calibrated for item in items):
        eprint(
            "sumjudge: note: these results were judged with a calibration profile; give it "
            "with --calibration so that --order uncertain uses its cut points"
        )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        existing = load_labels(path)
    for warning in caught:  # a last line cut short by a crash: said once, plainly
        eprint(f"sumjudge: warning: {warning.message}")
    reviewer = args.reviewer or _reviewer(os.environ.get("USER") or "reviewer")
    session = ReviewSession(
        items, LabelLog(path), reviewer, existing, order=args.order, seed=args.seed
    )
    eprint(
        f"sumjudge: reviewing {len(items)} item(s) as {reviewer!r} "
        f"({session.labelled} labelled before); labels go to {path}"
    )

    def ready(url: str) -> None:
        eprint(f"sumjudge: review page at {url} (Ctrl-C stops)")
        if args.open:
            import webbrowser

            webbrowser.open(url)

    try:
        asyncio.run(serve(session, args.port, on_ready=ready))
    except KeyboardInterrupt:
        pass  # stopping is what Ctrl-C is for here; the closing line follows
    except OSError as exc:
        if session.written == 0 and exc.errno is not None:
            raise ConfigError(
                f"--port {args.port}: cannot listen on 127.0.0.1:{args.port} "
                f"({exc.strerror}; choose another port, or --port 0 for a free one)"
            ) from None
        raise
    eprint(
        f"sumjudge: review stopped: {session.written} label(s) written to {path} "
        f"({session.labelled} of {len(items)} items labelled by {reviewer!r})"
    )
    return EXIT_OK
