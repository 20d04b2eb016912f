"""`sumjudge gate RESULTS.jsonl`: exit 0 when every rule holds, 1 when one fails, 2 on error.

Rules come from `[tool.sumjudge.gate]` in ./pyproject.toml (or `--config gate.yaml`), and
flags override them. Each rule prints one line with its figure, 95% interval and
threshold; `--markdown PATH` writes the same as a table.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ._common import EXIT_CONFIG, EXIT_OK, add_bootstrap_arguments, eprint
from ._safety import CommandPaths, atomic_write_text

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

__all__ = ["EXIT_GATE_FAILED", "add_parser", "gate_paths", "run"]

EXIT_GATE_FAILED = 1

_HELP = "exit 1 when a run breaks a quality rule (for CI)"
_DESCRIPTION = """
Check a run's results against rules: good and bad rates, metric means, and with
--baseline, no significant regression and a largest drop per metric. Items not judged
(failed, invalid, not run) count against the rates and fail the run unless
--max-failed-rate allows them. Rules come from [tool.sumjudge.gate] in ./pyproject.toml
or --config (YAML), and flags override them. Exit 0 when every rule holds, 1 when one
fails (or, with --strict, cannot fail at this size), 2 for a configuration or input
error."""


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number (got {text!r})") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1 (got {text})")
    return value


def _metric_value(text: str) -> tuple[str, float]:
    name, sep, number = text.partition("=")
    try:
        value = float(number)
    except ValueError:
        value = float("nan")
    if not sep or not name.strip() or value != value:
        raise argparse.ArgumentTypeError(f"must be METRIC=NUMBER (got {text!r})")
    return name.strip(), value


def add_parser(sub: Any) -> None:
    """Add the `gate` subcommand and its flags to the subparsers `sub`."""
    p = sub.add_parser("gate", help=_HELP, description=_DESCRIPTION)
    p.add_argument("results", help="the run's results JSONL")
    p.add_argument("--baseline", metavar="BASE.jsonl", help="the results to compare with")
    p.add_argument("--min-good-rate", type=_fraction, metavar="R", help="least share rated good")
    p.add_argument("--max-bad-rate", type=_fraction, metavar="R", help="most share rated bad")
    p.add_argument(
        "--min-mean",
        type=_metric_value,
        action="append",
        metavar="METRIC=V",
        help="least mean of a metric (repeatable)",
    )
    p.add_argument(
        "--no-regression",
        action="store_const",
        const=True,
        help="with --baseline: fail when a metric or the good rate is significantly worse",
    )
    p.add_argument(
        "--max-drop",
        type=_metric_value,
        action="append",
        metavar="METRIC=D",
        help="with --baseline: largest fall of a metric's mean (repeatable)",
    )
    p.add_argument(
        "--max-failed-rate",
        type=_fraction,
        metavar="R",
        help="most share of items not judged: failed, invalid or not run (default 0)",
    )
    p.add_argument(
        "--on-bound",
        action="store_const",
        const=True,
        help="judge rates and means by the unfavourable end of their 95%% interval",
    )
    p.add_argument(
        "--strict",
        action="store_const",
        const=True,
        help="fail a rule that cannot fail at this run's size (e.g. --no-regression on a "
        "handful of items, where no test can be significant)",
    )
    add_bootstrap_arguments(p, unset=True)  # the rules file's values come first
    p.add_argument("--config", metavar="YAML", help="gate rules in a YAML file")
    p.add_argument(
        "--pyproject",
        default="pyproject.toml",
        help="where [tool.sumjudge.gate] is read when --config is not given "
        "(default ./pyproject.toml, if present)",
    )
    p.add_argument("--markdown", metavar="PATH", help="write the outcome as a Markdown table")
    p.add_argument(
        "--calibration",
        metavar="PROFILE",
        help="require RESULTS (and --baseline) to be judged with this calibration profile",
    )
    p.set_defaults(handler=run, paths=gate_paths)


def gate_paths(args: argparse.Namespace) -> CommandPaths:
    """The files of a `gate` command line."""
    inputs = [("RESULTS", args.results), ("--baseline", args.baseline), ("--config", args.config)]
    return CommandPaths(inputs=inputs, outputs=[("--markdown", args.markdown)])


def _config(args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    if args.config:
        import yaml

        try:
            data = yaml.safe_load(Path(args.config).read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            raise ValueError(f"{args.config} is not valid YAML: {exc}") from None
        if data is None:
            return {}, args.config
        if isinstance(data, Mapping) and isinstance(data.get("gate"), Mapping):
            data = data["gate"]
        if not isinstance(data, Mapping):
            raise ValueError(f"{args.config}: expected a mapping of gate settings")
        return dict(data), args.config
    path = Path(args.pyproject)
    if not path.is_file():
        return {}, str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path} is not valid TOML: {exc}") from None
    table = data.get("tool", {}).get("sumjudge", {}).get("gate", {})
    if not isinstance(table, Mapping):
        raise ValueError(f"{path}: [tool.sumjudge.gate] must be a table")
    return dict(table), f"{path} [tool.sumjudge.gate]"


def run(args: argparse.Namespace) -> int:
    """Check the rules; returns 0 (all hold), 1 (one fails) or 2 (configuration error)."""
    from ..compare.gate import GateRules, check_gate, rules_from_mapping

    try:
        config, where = _config(args)
        settings = rules_from_mapping(config, where)
        baseline = args.baseline or config.get("baseline")
        if baseline is not None and not Path(str(baseline)).is_file():
            raise ValueError(f"the baseline {baseline} does not exist")
        for flag in ("min_good_rate", "max_bad_rate", "max_failed_rate", "no_regression",
                     "alpha", "on_bound", "strict", "n_resamples", "seed"):  # fmt: skip
            value = getattr(args, flag)
            if value is not None:
                settings[flag] = value
        for flag in ("min_mean", "max_drop"):
            pairs = getattr(args, flag)
            if pairs:
                settings[flag] = {**settings.get(flag, {}), **dict(pairs)}
        if args.calibration:
            from ..align.provenance import check_calibrated

            check_calibrated(args.calibration, args.results, *([baseline] if baseline else []))
        report = check_gate(args.results, GateRules(**settings), baseline=baseline)
    except ValueError as exc:
        eprint(f"sumjudge: error: {exc}")
        return EXIT_CONFIG
    for outcome in report.outcomes:
        print(outcome.line())
    if args.markdown:
        atomic_write_text(args.markdown, report.to_markdown())
    verdict = "every rule holds" if report.passed else "a rule failed"
    eprint(f"sumjudge: gate: {verdict} ({report.n} judged item(s), {report.not_ok} not ok)")
    if report.inconclusive:
        names = ", ".join(o.rule for o in report.inconclusive)
        then = "so they fail (--strict)" if settings.get("strict") else "--strict fails them"
        eprint(f"sumjudge: gate: warning: cannot fail on this data: {names}; {then}")
    return EXIT_OK if report.passed else EXIT_GATE_FAILED
