"""Pieces shared by the subcommands: judge choice, stderr lines, exit codes, flag values.

Exit codes: 0 success; 1 an internal error (a bug in sumjudge: one line, the traceback
with `--debug`); 2 a usage or configuration error (a bad flag value, a missing or
unreadable file, an output that would overwrite an input); 3 some items failed (or were
not run because the judge's server could not be reached); 4 the run stopped early
(`--max-cost`); 130 interrupted (Ctrl-C); 141 the output pipe closed.

The flag types (`int_at_least`, `positive_float`, ...) are argparse `type=` functions:
a bad value is reported by argparse as `argument --flag: must be ...`, exit 2.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from typing import TextIO, TypedDict

__all__ = [
    "EXIT_BUG",
    "EXIT_CONFIG",
    "EXIT_INTERRUPTED",
    "EXIT_ITEM_ERRORS",
    "EXIT_OK",
    "BootstrapSettings",
    "add_bootstrap_arguments",
    "bootstrap_settings",
    "choose_model",
    "eprint",
    "int_at_least",
    "metric_names",
    "name_list",
    "non_empty",
    "non_negative_float",
    "open_fraction",
    "positive_float",
]

EXIT_OK = 0
EXIT_BUG = 1
EXIT_CONFIG = 2
EXIT_ITEM_ERRORS = 3
EXIT_INTERRUPTED = 130

_KEYED_DEFAULTS = (
    ("GOOGLE_API_KEY", "google/gemini-2.5-flash"),
    ("OPENAI_API_KEY", "openai/gpt-4o-mini"),
    ("ANTHROPIC_API_KEY", "anthropic/claude-haiku-4-5"),
)


def eprint(*parts: object, file: TextIO | None = None) -> None:
    """Print to stderr (or `file`), flushed at once."""
    print(*parts, file=file or sys.stderr, flush=True)


def _number(text: str, kind: type[int] | type[float]) -> float:
    try:
        value = kind(text)
    except ValueError:
        noun = "a whole number" if kind is int else "a number"
        raise argparse.ArgumentTypeError(f"must be {noun} (got {text!r})") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number (got {text!r})")
    return value


def int_at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number >= `minimum`."""

    def parse(text: str) -> int:
        value = int(_number(text, int))
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum} (got {text})")
        return value

    parse.__name__ = f"whole number >= {minimum}"
    return parse


def non_empty(text: str) -> str:
    """An argparse type: a value that is not empty (`--model ''` is a mistake, not a default)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"must not be empty (got {text!r})")
    return text.strip()


def name_list(text: str) -> str:
    """An argparse type: comma-separated metric names, at least one (`--metrics ''` is wrong)."""
    if not any(name.strip() for name in text.split(",")):
        raise argparse.ArgumentTypeError(
            f"must name at least one metric, comma-separated (got {text!r})"
        )
    return text


def metric_names(text: str | None) -> list[str] | None:
    """The names of a `name_list` flag's value (None: the flag was not given)."""
    if not text:
        return None
    return [name.strip() for name in text.split(",") if name.strip()]


def positive_float(text: str) -> float:
    """An argparse type: a finite number > 0."""
    value = _number(text, float)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be greater than 0 (got {text})")
    return value


def non_negative_float(text: str) -> float:
    """An argparse type: a finite number >= 0."""
    value = _number(text, float)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more (got {text})")
    return value


def open_fraction(text: str) -> float:
    """An argparse type: a number strictly between 0 and 1."""
    value = _number(text, float)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, exclusive (got {text})")
    return value


def add_bootstrap_arguments(
    p: argparse.ArgumentParser,
    *,
    resamples: int = 2000,
    least_resamples: int = 1,
    unset: bool = False,
) -> None:
    """--alpha, --n-resamples and --seed: the bootstrap of the commands that give intervals.

    Args:
        p: The subcommand's parser.
        resamples: The default number of resamples.
        least_resamples: The fewest allowed (meta-eval's 0: no intervals at all).
        unset: Leave the flags None when not given, for a command that takes the values
            from a rules file first (gate); the help still names the built-in defaults.
    """
    no_intervals = " (0: no intervals)" if least_resamples == 0 else ""
    p.add_argument(
        "--alpha",
        type=open_fraction,
        default=None if unset else 0.05,
        help="significance level, in (0, 1); intervals cover 1 - alpha (default 0.05)",
    )
    p.add_argument(
        "--n-resamples",
        type=int_at_least(least_resamples),
        default=None if unset else resamples,
        help=f"bootstrap resamples{no_intervals} (default {resamples})",
    )
    p.add_argument(
        "--seed", type=int, default=None if unset else 0, help="bootstrap seed (default 0)"
    )


class BootstrapSettings(TypedDict):
    """The bootstrap's keyword arguments (`compare_results`, `run_meta_eval` take them)."""

    alpha: float
    n_resamples: int
    seed: int


def bootstrap_settings(args: argparse.Namespace) -> BootstrapSettings:
    """The values of `add_bootstrap_arguments`' flags, to pass on as keyword arguments."""
    return {"alpha": args.alpha, "n_resamples": args.n_resamples, "seed": args.seed}


def choose_model(explicit: str | None, base_url: str | None) -> str:
    """The judge to use when --model is not given, announced on stderr.

    First judge whose key is present (Google, then OpenAI, then Anthropic), else the
    offline judge. With --base-url and no --model, the server's own default model is used
    through the OpenAI protocol.
    """
    if explicit:
        return explicit
    if base_url:
        model = "openai/default"
        eprint(f"sumjudge: judging with {model} at {base_url} (pick another with --model)")
        return model
    for env_var, model in _KEYED_DEFAULTS:
        if os.environ.get(env_var):
            eprint(
                f"sumjudge: judging with {model} because {env_var} is set "
                "(pick another with --model, e.g. --model local for the offline judge)"
            )
            return model
    eprint(
        "sumjudge: no API key found (GOOGLE_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY); "
        "judging with the offline judge 'local' (pick another with --model provider/model)"
    )
    return "local"
