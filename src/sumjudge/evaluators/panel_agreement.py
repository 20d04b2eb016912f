"""A judge panel's run figures: agreement per metric (Krippendorff's alpha) and cost lines."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..accounting import RunSummary
from ..noise.agreement import AlphaResult, ordinal_alpha_with_interval
from ..types import SummaryResult
from .records import Record

__all__ = ["PanelAgreement", "panel_agreement"]


def panel_agreement(
    results: Iterable[SummaryResult], *, resamples: int = 1000, seed: int = 0
) -> dict[str, AlphaResult]:
    """Per metric, the members' agreement over the items: ordinal alpha with a 95% interval.

    A unit is one item; a member that failed on it has no value there (alpha allows
    missing values).
    """
    units: dict[str, list[dict[str, int | None]]] = {}
    judges: dict[str, list[str]] = {}
    for result in results:
        for name, metric in result.metrics.items():
            if not metric.panel:
                continue
            row = {str(p["judge"]): p.get("score") for p in metric.panel}
            units.setdefault(name, []).append(row)
            known = judges.setdefault(name, [])
            known.extend(j for j in row if j not in known)
    out: dict[str, AlphaResult] = {}
    for name, rows in units.items():
        matrix = [[row.get(j) for j in judges[name]] for row in rows]
        out[name] = ordinal_alpha_with_interval(matrix, resamples=resamples, seed=seed)
    return out


class PanelAgreement:
    """The panel's figures, filled record by record (printed by `sumjudge evaluate`).

    Args:
        run: the run's summary, whose `panel` holds each member's cost line once the run
            filled it (None: no cost lines).
    """

    unit = "summary"

    def __init__(self, run: RunSummary | None = None) -> None:
        self.results: list[SummaryResult] = []
        self.run = run

    def add(self, record: Record) -> None:
        """Count one record's result (records without one are left out)."""
        if isinstance(record.result, SummaryResult):
            self.results.append(record.result)

    def _costs(self) -> dict[str, Any] | None:
        return None if self.run is None else self.run.panel

    def to_dict(self) -> dict[str, Any]:
        """Agreement per metric, and each member's cost line."""
        agreement = {name: a.to_dict() for name, a in panel_agreement(self.results).items()}
        return {"panel_agreement": agreement, "panel_members": self._costs()}

    def render(self) -> str:
        """Alpha per metric with its interval, then each member's calls and spend."""
        parts = []
        for name, a in panel_agreement(self.results).items():
            if a.alpha is None:
                parts.append(f"{name} alpha n/a")
                continue
            ci = "" if a.ci_low is None else f" [{a.ci_low:.2f}, {a.ci_high:.2f}]"
            parts.append(f"{name} alpha {a.alpha:.2f}{ci}")
        line = "panel agreement (Krippendorff's alpha, ordinal): " + ("; ".join(parts) or "n/a")
        for judge, cost in (self._costs() or {}).items():
            line += (
                f"; {judge}: {cost['judge_calls']} call(s), {cost['cache_hits']} cached, "
                f"${cost['cost_usd']:.4f}"
            )
        return line
