"""Agreement between judges: Krippendorff's alpha for ordinal data, with a bootstrap interval.

Reliability data are units (items) by coders (judges); a coder may lack a value for a unit
(None). Following Krippendorff (2011, "Computing Krippendorff's alpha-reliability"):
every unit with at least two values adds its ordered pairs of values to a coincidence
matrix, each weighted 1 / (values in the unit - 1); the ordinal distance between two
values c <= k is (n_c + ... + n_k - (n_c + n_k) / 2)^2 over the value frequencies n; and
alpha = 1 - D_observed / D_expected. 1 is perfect agreement, 0 agreement at chance.

The interval resamples units with replacement (percentile bootstrap, fixed seed), as the
units, not the judgments, are what was sampled.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["AlphaResult", "krippendorff_alpha_ordinal", "ordinal_alpha_with_interval"]

Value = int | float
Units = Sequence[Sequence[Value | None]]
_Coincidences = dict[tuple[Value, Value], float]


def _unit_coincidences(unit: Sequence[Value | None]) -> _Coincidences:
    values = [v for v in unit if v is not None]
    m = len(values)
    out: _Coincidences = {}
    if m < 2:
        return out
    for i, c in enumerate(values):
        for j, k in enumerate(values):
            if i != j:
                out[(c, k)] = out.get((c, k), 0.0) + 1.0 / (m - 1)
    return out


def _alpha(coincidences: _Coincidences) -> float | None:
    """Ordinal alpha from a coincidence matrix; None when it is undefined."""
    marginals: dict[Value, float] = {}
    for (c, _), o in coincidences.items():
        marginals[c] = marginals.get(c, 0.0) + o
    n = sum(marginals.values())
    ranks = sorted(marginals)
    if n <= 1 or len(ranks) < 2:
        return None  # one value only: no variation to agree on
    cumulative: dict[Value, float] = {}
    running = 0.0
    for v in ranks:
        running += marginals[v]
        cumulative[v] = running

    def delta(c: Value, k: Value) -> float:
        lo, hi = (c, k) if c <= k else (k, c)
        between = cumulative[hi] - cumulative[lo] + marginals[lo]  # n_lo + ... + n_hi
        return (between - (marginals[lo] + marginals[hi]) / 2) ** 2

    observed = sum(o * delta(c, k) for (c, k), o in coincidences.items())
    expected = sum(marginals[c] * marginals[k] * delta(c, k) for c in ranks for k in ranks)
    if expected == 0:
        return None
    return 1.0 - (n - 1) * observed / expected


def krippendorff_alpha_ordinal(units: Units) -> float | None:
    """Krippendorff's alpha for ordinal data; `units[u][c]` is coder c's value for unit u.

    None when alpha is undefined (fewer than two pairable values, or a single value).
    """
    total: _Coincidences = {}
    for unit in units:
        for key, o in _unit_coincidences(unit).items():
            total[key] = total.get(key, 0.0) + o
    return _alpha(total)


@dataclass(frozen=True)
class AlphaResult:
    """Alpha with its percentile bootstrap interval and the units it rests on."""

    alpha: float | None
    ci_low: float | None
    ci_high: float | None
    units: int
    resamples: int

    def to_dict(self) -> dict[str, Any]:
        """JSON form, rounded to 4 decimals."""

        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 4)

        return {
            "krippendorff_alpha_ordinal": r(self.alpha),
            "ci95": None if self.ci_low is None else [r(self.ci_low), r(self.ci_high)],
            "units": self.units,
            "bootstrap_resamples": self.resamples,
        }


def ordinal_alpha_with_interval(
    units: Units, *, resamples: int = 1000, confidence: float = 0.95, seed: int = 0
) -> AlphaResult:
    """Ordinal alpha and a percentile bootstrap interval over resampled units."""
    per_unit = [c for c in (_unit_coincidences(u) for u in units) if c]
    alpha = krippendorff_alpha_ordinal(units)
    if alpha is None or len(per_unit) < 2:
        return AlphaResult(alpha, None, None, len(per_unit), 0)
    rng = random.Random(seed)
    draws: list[float] = []
    for _ in range(resamples):
        total: _Coincidences = {}
        for unit in rng.choices(per_unit, k=len(per_unit)):
            for key, o in unit.items():
                total[key] = total.get(key, 0.0) + o
        value = _alpha(total)
        if value is not None:
            draws.append(value)
    if not draws:
        return AlphaResult(alpha, None, None, len(per_unit), resamples)
    draws.sort()
    tail = (1 - confidence) / 2
    low = draws[min(len(draws) - 1, int(tail * len(draws)))]
    high = draws[min(len(draws) - 1, int((1 - tail) * len(draws)))]
    return AlphaResult(alpha, low, high, len(per_unit), resamples)
