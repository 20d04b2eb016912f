"""Paired statistics for comparing two runs: pure functions on numbers (numpy only).

* `paired_bootstrap`: percentile interval of the mean paired difference, resampling items,
  or whole groups (source documents) when several items share one.
* `wilcoxon_pratt`: two-sided Wilcoxon signed-rank test, zero differences by Pratt's method
  (ranked with the others, then left out of the statistic); exact distribution of the
  statistic given the ranks when few differences are non-zero, normal approximation
  (no continuity correction) otherwise.
* `sign_test`: exact two-sided sign test (McNemar's test on discordant pairs).
* `holm`: Holm's step-down adjustment; `wilson`: Wilson score interval of a proportion.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = [
    "EXACT_MAX_N",
    "WilcoxonResult",
    "holm",
    "paired_bootstrap",
    "sign_test",
    "wilcoxon_min_p",
    "wilcoxon_pratt",
    "wilson",
]

# Up to this many non-zero differences the exact distribution is used: it is cheap (a
# sum-of-ranks table of size n(n+1)) and the normal approximation is rough below ~25.
EXACT_MAX_N = 25
Z_95 = 1.959963984540054


@dataclass(frozen=True)
class WilcoxonResult:
    """A Wilcoxon signed-rank test's outcome.

    Attributes:
        statistic: the smaller of the positive and negative rank sums.
        p_value: two-sided p-value (1.0 when every difference is zero).
        method: how the p-value was computed, e.g. "wilcoxon-pratt-exact".
        n_nonzero: how many differences were not zero.
    """

    statistic: float
    p_value: float
    method: str
    n_nonzero: int


def _average_ranks(values: np.ndarray) -> np.ndarray:
    """Ranks 1..n of `values`, ties sharing their average rank."""
    order = np.argsort(values, kind="mergesort")
    ranks = np.empty(len(values), dtype=float)
    sorted_vals = values[order]
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and sorted_vals[j + 1] == sorted_vals[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def wilcoxon_pratt(diffs: Sequence[float] | np.ndarray) -> WilcoxonResult:
    """Two-sided Wilcoxon signed-rank test of paired differences, Pratt's zero handling."""
    d = np.asarray(diffs, dtype=float)
    ranks = _average_ranks(np.abs(d))
    nonzero = d != 0
    r_plus = float(ranks[d > 0].sum())
    r_minus = float(ranks[d < 0].sum())
    stat = min(r_plus, r_minus)
    n = int(nonzero.sum())
    if n == 0:
        return WilcoxonResult(stat, 1.0, "wilcoxon-pratt (all differences zero)", 0)
    kept = ranks[nonzero]
    if n <= EXACT_MAX_N:
        return WilcoxonResult(stat, _exact_p(kept, r_plus), "wilcoxon-pratt-exact", n)
    mean = float(kept.sum()) / 2
    # The variance of the positive rank sum given the ranks: each sign is a fair coin.
    # (It equals the textbook formula with its tie and zero corrections.)
    sd = math.sqrt(float((kept**2).sum()) / 4)
    z = (r_plus - mean) / sd if sd > 0 else 0.0
    p = math.erfc(abs(z) / math.sqrt(2))
    return WilcoxonResult(stat, min(1.0, p), "wilcoxon-pratt-normal", n)


def wilcoxon_min_p(n: int) -> float:
    """The smallest two-sided p-value `wilcoxon_pratt` can give for `n` paired differences.

    Up to `EXACT_MAX_N` it is reached when every difference has the same sign: the one
    sign pattern of the 2**n with that rank sum, so 2 / 2**n exactly, ties among the ranks
    or not. Above, the normal approximation's z is the rank sum over the root of the sum
    of squared ranks, at most sqrt(n) (when every rank is tied), so the bound is the p of
    that z. A test at level alpha can reject at this n only when this is below alpha.
    """
    if n <= 0:
        return 1.0
    if n <= EXACT_MAX_N:
        return min(1.0, math.ldexp(1.0, 1 - n))
    return math.erfc(math.sqrt(n) / math.sqrt(2))


def _exact_p(ranks: np.ndarray, r_plus: float) -> float:
    # Average ranks are multiples of 1/2: doubled they are integers, and the distribution
    # of the doubled positive rank sum under fair signs is a convolution table.
    doubled = np.rint(ranks * 2).astype(np.int64)
    total = int(doubled.sum())
    counts = np.zeros(total + 1, dtype=float)
    counts[0] = 1.0
    for r in doubled:
        shifted = np.zeros_like(counts)
        shifted[r:] = counts[: total + 1 - r]
        counts = (counts + shifted) / 2
    t = round(r_plus * 2)
    lower = float(counts[: t + 1].sum())
    upper = float(counts[t:].sum())
    return min(1.0, 2 * min(lower, upper))


def sign_test(worse: int, better: int) -> float:
    """Exact two-sided sign test p-value for `worse` vs `better` discordant pairs."""
    n = worse + better
    if n == 0:
        return 1.0
    k = min(worse, better)
    tail = float(sum(math.comb(n, i) for i in range(k + 1)) / 2**n)
    return min(1.0, 2 * tail)


def paired_bootstrap(
    diffs: Sequence[float] | np.ndarray,
    groups: Sequence[object] | None = None,
    *,
    n_resamples: int = 2000,
    seed: int = 0,
    level: float = 0.95,
) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of `diffs`.

    With `groups` (one key per difference, e.g. the source document), whole groups are
    drawn with replacement and the statistic is the mean over the drawn groups' items, so
    items that share a source are not treated as independent.
    """
    d = np.asarray(diffs, dtype=float)
    if len(d) == 0:
        return (math.nan, math.nan)
    keys = list(range(len(d))) if groups is None else list(groups)
    index: dict[object, int] = {}
    member = np.array([index.setdefault(k, len(index)) for k in keys])
    sums = np.bincount(member, weights=d, minlength=len(index))
    sizes = np.bincount(member, minlength=len(index)).astype(float)
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(index), size=(n_resamples, len(index)))
    stats = sums[draws].sum(axis=1) / sizes[draws].sum(axis=1)
    alpha = (1 - level) / 2
    low, high = np.quantile(stats, [alpha, 1 - alpha])
    return (float(low), float(high))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm step-down adjusted p-values, in the order given."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def wilson(successes: int, n: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% by default); (0, 1) when n is 0."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))
