"""Statistics of judge noise: pairwise win rates and tests, agreement between judges.

Pure functions on plain numbers (stdlib only), so the evaluators, the CLI and users'
own analyses share one implementation.
"""

from __future__ import annotations

from .pairstats import (
    PairwiseStats,
    pairwise_stats,
    point_biserial,
    sign_test,
    wilson_interval,
)

__all__ = ["PairwiseStats", "pairwise_stats", "point_biserial", "sign_test", "wilson_interval"]
