"""`sumjudge calibrate LABELS --results RESULTS`: fit a judge to people's labels, honestly.

Reads the labels (a `sumjudge review` log, or any file meta-eval reads) and the judge's
results, fits a calibration profile, and prints agreement before and after from
cross-validation grouped by source, with intervals: a gain is only called one when its
interval shows it. Writes the profile with `-o` (default `profile.json`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ._common import EXIT_CONFIG, EXIT_OK, eprint, int_at_least
from ._safety import CommandPaths, atomic_write_text

__all__ = ["add_parser", "calibrate_paths", "run"]

_HELP = "fit a judge to your people's labels (a calibration profile)"
_DESCRIPTION = """
Fit what the judge may learn from people's labels (from `sumjudge review`, or any file
meta-eval reads) and report agreement before and after, cross-validated by source
document with bootstrap intervals. The offline judge refits its signal weights and cut
points; an LLM judge learns cut points on its weighted score and few-shot examples; any
judge gets a rule book fitted on the people's ratings. Apply the profile with
--calibration on evaluate, meta-eval and gate. See docs/align.md."""


def add_parser(sub: Any) -> None:
    """Add the `calibrate` subcommand and its flags to the subparsers `sub`."""
    p = sub.add_parser("calibrate", help=_HELP, description=_DESCRIPTION)
    p.add_argument("labels", help="labels: a review log or human-judged rows (JSONL)")
    p.add_argument("--results", required=True, help="the judge's results JSONL on those items")
    p.add_argument("--inputs", help="the input file the results were judged from (for the texts)")
    p.add_argument("-o", "--output", default="profile.json", help="profile file to write")
    p.add_argument("--report-json", help="also write the before/after figures as JSON here")
    p.add_argument(
        "--examples",
        type=int_at_least(0),
        default=4,
        help="few-shot examples per metric for LLM judges (0: none)",
    )
    p.add_argument("--folds", type=int_at_least(2), default=5, help="cross-validation folds")
    p.add_argument("--n-resamples", type=int_at_least(0), default=1000, help="bootstrap replicates")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    p.set_defaults(handler=run, paths=calibrate_paths)


def calibrate_paths(args: argparse.Namespace) -> CommandPaths:
    """LABELS, --results and --inputs in; -o and --report-json out."""
    inputs = [("LABELS", args.labels), ("--results", args.results), ("--inputs", args.inputs)]
    outputs = [("-o/--output", args.output), ("--report-json", args.report_json)]
    return CommandPaths(inputs=inputs, outputs=outputs)


def run(args: argparse.Namespace) -> int:
    """Fit, print the before/after table, write the profile; exit 2 on bad input."""
    from ..align.calibrate import calibrate
    from ..align.labels import read_labels
    from ..errors import DataError

    try:
        labels = read_labels(args.labels)
        records = _records(args.results)
        texts = _texts(args.inputs) if args.inputs else None
    except DataError as exc:
        eprint(f"sumjudge: error: {exc}")
        return EXIT_CONFIG
    digest = hashlib.sha256(Path(args.labels).read_bytes()).hexdigest()
    result = calibrate(
        labels,
        records,
        results_name=args.results,
        labels_name=args.labels,
        labels_sha256=digest,
        texts=texts,
        examples=args.examples,
        folds=args.folds,
        n_resamples=args.n_resamples,
        seed=args.seed,
    )
    print(format_report(result.profile.judge, result.report), flush=True)
    for metric, note in result.profile.agreement.get("kept_uncalibrated", {}).items():
        eprint(f"sumjudge: {metric}: {note}")
    atomic_write_text(args.output, result.profile.to_json())
    if args.report_json:
        atomic_write_text(args.report_json, json.dumps(result.report, indent=2) + "\n")
    eprint(
        f"sumjudge: profile {result.profile.id} for {result.profile.judge} written to "
        f"{args.output} ({len(result.items)} labelled item(s)); apply it with "
        f"--calibration {args.output}"
    )
    return EXIT_OK


def format_report(judge: str, report: Mapping[str, Any]) -> str:
    """The before/after table: one line per figure, with intervals and the verdict."""
    if not report.get("folds"):
        return f"{judge}: agreement not measured: {report.get('note', 'no folds')}"
    lines = [
        f"{judge}: agreement with people, {report['folds']}-fold cross-validation by source "
        f"({report['n_items']} items); [95% interval]",
        f"{'metric':<12} {'figure':<18} {'before':>22} {'after':>22} {'change':>22}  verdict",
    ]
    for metric, figures in report.get("metrics", {}).items():
        for stat, fig in figures.items():
            if isinstance(fig, dict):
                lines.append(_line(metric, stat, fig))
    if "rating" in report:
        lines.append(_line("rating", "exact agreement", report["rating"]["exact_agreement"]))
    return "\n".join(lines)


def _line(metric: str, stat: str, fig: Mapping[str, Any]) -> str:
    def cell(value: Any, ci: Any) -> str:
        if value is None:
            return "n/a"
        interval = f" [{ci[0]:+.2f},{ci[1]:+.2f}]" if ci else ""
        return f"{value:+.3f}{interval}"

    return (
        f"{metric:<12} {stat:<18} {cell(fig['before'], fig['before_ci']):>22} "
        f"{cell(fig['after'], fig['after_ci']):>22} {cell(fig['diff'], fig['diff_ci']):>22}"
        f"  {fig['verdict']}"
    )


def _records(path: str) -> list[dict[str, Any]]:
    from ..errors import DataError
    from ..jsonl import json_objects

    def bad_line(lineno: int, problem: str) -> DataError:
        return DataError(f"{path}: line {lineno} {problem}")

    return [row for _, row in json_objects(path, bad_line)]


def _texts(path: str) -> dict[str, tuple[str, str]]:
    """Source and summary per id, from an input file in any format evaluate reads."""
    from ..datasets.files import read_summary_rows
    from ..errors import DataError

    out: dict[str, tuple[str, str]] = {}
    for column in ("input", "source"):
        try:
            for row in read_summary_rows(path, input_column=column):
                if isinstance(row, DataError) or row.id is None:
                    continue
                out[str(row.id)] = (row.input, row.summary)
            return out
        except DataError as exc:
            if column == "source" or exc.field != column:
                raise
    return out
