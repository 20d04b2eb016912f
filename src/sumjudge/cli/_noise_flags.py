"""The judge-noise flags of `evaluate`: confidence threshold, repeated judgments, panels."""

from __future__ import annotations

import argparse
from typing import Any

from ..evaluators.panel import AGGREGATES
from ._common import int_at_least, non_negative_float, open_fraction

__all__ = ["add_noise_arguments", "noise_options"]


def add_noise_arguments(p: argparse.ArgumentParser) -> None:
    """--uncertain-below, --samples, --sample-temperature, --panel-aggregate (docs/noise.md)."""
    p.add_argument(
        "--uncertain-below",
        type=open_fraction,
        default=0.7,
        help="mark a rating uncertain when the probability that the rule book gives the "
        "same rating (from the score tokens' logprobs) is below this",
    )
    p.add_argument(
        "--samples",
        type=int_at_least(1),
        default=1,
        help="judge each metric this many times (at --sample-temperature) and take the "
        "majority score; the spread is reported",
    )
    p.add_argument(
        "--sample-temperature",
        type=non_negative_float,
        default=0.7,
        help="sampling temperature of the repeated judgments (with --samples 2 or more)",
    )

    p.add_argument(
        "--panel-aggregate",
        choices=AGGREGATES,
        default="median",
        help="with --model given more than once (a judge panel): how the members' scores "
        "become one (rounded half up)",
    )


def noise_options(args: argparse.Namespace) -> dict[str, Any]:
    """The evaluator arguments of the noise flags."""
    return {
        "uncertain_below": args.uncertain_below,
        "samples": args.samples,
        "sample_temperature": args.sample_temperature,
        "panel_aggregate": args.panel_aggregate,
    }
