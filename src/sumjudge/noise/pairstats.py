"""A pairwise run's figures per metric: wins, ties and losses of B, tests and bias probes.

Inputs are plain values so the figures can be checked against a reference (scipy in the
tests) and recomputed from a results file.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "PairOutcome",
    "PairwiseStats",
    "pairwise_stats",
    "point_biserial",
    "sign_test",
    "wilson_interval",
]

_Z95 = 1.959963984540054  # the standard normal's 97.5th percentile


def wilson_interval(successes: int, n: int, z: float = _Z95) -> tuple[float, float] | None:
    """The Wilson score interval of a proportion (95% by default); None when n is 0."""
    if n <= 0:
        return None
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def sign_test(wins: int, losses: int) -> float | None:
    """The exact two-sided sign test's p-value of `wins` against `losses` (ties left out).

    Under the null hypothesis either summary wins a decisive pair with probability 1/2; the
    p-value doubles the smaller tail, capped at 1. None without a decisive pair.
    """
    n = wins + losses
    if n == 0:
        return None
    k = min(wins, losses)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2.0 * float(tail))


def point_biserial(binary: Sequence[int], values: Sequence[float]) -> float | None:
    """The point-biserial correlation: Pearson's r of a 0/1 variable with a numeric one.

    None when there are fewer than two observations or either variable is constant.
    """
    n = len(binary)
    if n < 2 or n != len(values):
        return None
    mean_b = sum(binary) / n
    mean_v = sum(values) / n
    sbb = sum((b - mean_b) ** 2 for b in binary)
    svv = sum((v - mean_v) ** 2 for v in values)
    if sbb == 0 or svv == 0:
        return None
    sbv = sum((b - mean_b) * (v - mean_v) for b, v in zip(binary, values, strict=True))
    return sbv / math.sqrt(sbb * svv)


@dataclass(frozen=True)
class PairOutcome:
    """One judged pair on one metric: the winner, consistency and the two lengths."""

    winner: str
    consistent: bool
    length_a: int
    length_b: int


@dataclass(frozen=True)
class PairwiseStats:
    """One metric's figures over a run (B against A).

    Attributes:
        judged: pairs with a verdict.
        wins / ties / losses: of B against A (a position-inconsistent pair is a tie).
        win_rate: B's wins among decisive pairs (wins + losses); None without any.
        win_rate_ci: its Wilson 95% interval.
        sign_test_p: the two-sided exact sign test's p-value (ties left out).
        position_consistency: the share of judged pairs whose two passes agreed.
        longer_chosen: among decisive pairs whose summaries differ in length, the share
            won by the longer one (0.5 is no length preference).
        length_correlation: the point-biserial correlation between preferring B (1) or
            A (0) and the length difference B - A in words, over the decisive pairs.
    """

    judged: int
    wins: int
    ties: int
    losses: int
    win_rate: float | None
    win_rate_ci: tuple[float, float] | None
    sign_test_p: float | None
    position_consistency: float | None
    longer_chosen: float | None
    length_correlation: float | None

    def to_dict(self) -> dict[str, Any]:
        """JSON form, rounded to 4 decimals."""

        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 4)

        return {
            "judged": self.judged,
            "wins": self.wins,
            "ties": self.ties,
            "losses": self.losses,
            "win_rate": r(self.win_rate),
            "win_rate_ci95": None if self.win_rate_ci is None else [r(x) for x in self.win_rate_ci],
            "sign_test_p": r(self.sign_test_p),
            "position_consistency": r(self.position_consistency),
            "length_bias": {
                "longer_chosen": r(self.longer_chosen),
                "point_biserial": r(self.length_correlation),
            },
        }


def pairwise_stats(outcomes: Iterable[PairOutcome]) -> PairwiseStats:
    """The figures of one metric over its judged pairs."""
    items = list(outcomes)
    wins = sum(1 for o in items if o.winner == "B")
    losses = sum(1 for o in items if o.winner == "A")
    decisive = [o for o in items if o.winner in ("A", "B")]
    unequal = [o for o in decisive if o.length_a != o.length_b]
    longer = sum(1 for o in unequal if (o.winner == "B") == (o.length_b > o.length_a))
    return PairwiseStats(
        judged=len(items),
        wins=wins,
        ties=len(items) - wins - losses,
        losses=losses,
        win_rate=wins / len(decisive) if decisive else None,
        win_rate_ci=wilson_interval(wins, len(decisive)),
        sign_test_p=sign_test(wins, losses),
        position_consistency=sum(o.consistent for o in items) / len(items) if items else None,
        longer_chosen=longer / len(unequal) if unequal else None,
        length_correlation=point_biserial(
            [1 if o.winner == "B" else 0 for o in decisive],
            [o.length_b - o.length_a for o in decisive],
        ),
    )
