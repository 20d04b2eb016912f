"""The typed outcome of a comparison, with its JSON (`to_dict`) and Markdown forms."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = [
    "RATINGS",
    "Comparison",
    "MetricComparison",
    "RateSummary",
    "Ratings",
    "Regression",
]

RATINGS = ("good", "incomplete", "bad")


@dataclass(frozen=True)
class MetricComparison:
    """One metric compared over the items judged on both sides.

    Attributes:
        name: the metric.
        n: paired items with a score on both sides.
        base_mean: mean of the compared value on the base side.
        candidate_mean: the same on the candidate side.
        mean_diff: mean paired difference, candidate minus base.
        ci_low: lower end of the paired bootstrap 95% interval of `mean_diff`.
        ci_high: upper end of that interval.
        p_value: two-sided Wilcoxon signed-rank p-value (zeros by Pratt's method).
        p_adjusted: `p_value` after Holm's correction across the metrics compared.
        wins: items where the candidate scored higher.
        ties: items with equal values.
        losses: items where the candidate scored lower.
        compared: "weighted_score" (both sides have it on every item) or "score".
        method: the test and how its p-value was computed, e.g. "wilcoxon-pratt-exact".
        resampled: what the bootstrap drew: "items" or "sources".
        verdict: "improved", "regressed" or "no significant difference".
        missing: paired items left out of this metric (no score on a side, e.g. N/A).
    """

    name: str
    n: int
    base_mean: float | None
    candidate_mean: float | None
    mean_diff: float | None
    ci_low: float | None
    ci_high: float | None
    p_value: float
    p_adjusted: float
    wins: int
    ties: int
    losses: int
    compared: str
    method: str
    resampled: str
    verdict: str
    missing: int = 0


@dataclass(frozen=True)
class RateSummary:
    """One side's rating rates over the compared items, with Wilson 95% intervals."""

    n: int
    good: int
    bad: int
    good_rate: float | None
    good_rate_ci: tuple[float, float]
    bad_rate: float | None
    bad_rate_ci: tuple[float, float]


@dataclass(frozen=True)
class Ratings:
    """Ratings of both sides: the transition matrix and each side's rates.

    Attributes:
        n: paired items rated on both sides.
        transitions: counts by base rating, then candidate rating.
        base: the base side's rates.
        candidate: the candidate side's rates.
        good_rate_p: exact sign-test p-value of the paired change in "good" (items that
            became good against items that stopped being good).
        bad_rate_p: the same for "bad".
    """

    n: int
    transitions: dict[str, dict[str, int]]
    base: RateSummary
    candidate: RateSummary
    good_rate_p: float
    bad_rate_p: float


@dataclass(frozen=True)
class Regression:
    """An item that got worse: its rating fell, or a metric fell by the regression drop.

    Attributes:
        id: the item's id (or `#<index>`).
        base_rating: the base side's rating.
        candidate_rating: the candidate side's rating.
        metrics: per metric, `base`, `candidate`, `base_explanation`,
            `candidate_explanation`.
        base_summary: the base summary text, when the records carry it.
        candidate_summary: the candidate summary text, when the records carry it.
        severity: for ordering, worst first (rating levels fallen, then the largest drop).
        within_uncertainty: whether the fall could be judge noise alone: each metric's
            `p_not_worse` (from the two `distribution`s) is at least 0.25 and a fallen
            rating was marked uncertain; None when the records carry no distributions.
    """

    id: str
    base_rating: str | None
    candidate_rating: str | None
    metrics: dict[str, dict[str, Any]]
    base_summary: str | None = None
    candidate_summary: str | None = None
    severity: tuple[int, float] = (0, 0.0)
    within_uncertainty: bool | None = None


@dataclass(frozen=True)
class Comparison:
    """The comparison of a candidate run with a base run (`compare_results`).

    Attributes:
        matched: items paired by id (or source and row).
        unmatched: labels of the items without a partner, as `{"base", "candidate"}`.
        excluded: paired items left out of the statistics, counted by reason.
        metrics: each compared metric, by name.
        ratings: the rating comparison (None when the records carry no rating).
        regressions: items that got worse, worst first.
        settings: alpha, n_resamples, seed and the regression drops used.
        duplicates: labels seen more than once on one side (only the first is used).
    """

    matched: int
    unmatched: dict[str, list[str]]
    excluded: dict[str, int]
    metrics: dict[str, MetricComparison]
    ratings: Ratings | None
    regressions: list[Regression]
    settings: dict[str, Any] = field(default_factory=dict)
    duplicates: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The comparison as JSON-ready data (see `docs/compare.md` for the fields)."""
        regressions = []
        for r in self.regressions:
            entry = asdict(r)
            entry.pop("severity")
            regressions.append(entry)
        return {
            "matched": self.matched,
            "unmatched": self.unmatched,
            "excluded": self.excluded,
            "duplicates": self.duplicates,
            "metrics": {name: asdict(m) for name, m in self.metrics.items()},
            "ratings": None if self.ratings is None else asdict(self.ratings),
            "regressions": regressions,
            "settings": self.settings,
        }

    def to_markdown(self, *, max_regressions: int = 20) -> str:
        """The comparison as Markdown tables (for a pull-request comment)."""
        return comparison_markdown(self, max_regressions=max_regressions)


# -- Markdown ------------------------------------------------------------------------------


def fmt(value: float | None, digits: int = 3) -> str:
    """A number for a table cell ("-" when absent)."""
    return "-" if value is None else f"{value:.{digits}f}"


def md_cell(text: object, limit: int = 160) -> str:
    """Text safe inside a Markdown table cell: one line, pipes escaped, shortened."""
    line = " ".join(str(text).split()).replace("|", "\\|")
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def comparison_markdown(result: Comparison, *, max_regressions: int = 20) -> str:
    """The Markdown text of `result` (see `Comparison.to_markdown`)."""
    alpha = result.settings.get("alpha", 0.05)
    lines = [
        "## sumjudge compare",
        "",
        f"Matched {result.matched} item(s); unmatched: {len(result.unmatched['base'])} base, "
        f"{len(result.unmatched['candidate'])} candidate; excluded: "
        + (", ".join(f"{k} {v}" for k, v in result.excluded.items()) or "none")
        + ".",
        "",
        f"| metric | n | base | candidate | diff | 95% CI | p (Holm) | W/T/L | verdict "
        f"(alpha {alpha}) |",
        "|---|---:|---:|---:|---:|---|---:|---|---|",
    ]
    for m in result.metrics.values():
        lines.append(
            f"| {m.name} ({m.compared}) | {m.n} | {fmt(m.base_mean)} | "
            f"{fmt(m.candidate_mean)} | {fmt(m.mean_diff, 3)} | "
            f"[{fmt(m.ci_low)}, {fmt(m.ci_high)}] | {fmt(m.p_value, 4)} "
            f"({fmt(m.p_adjusted, 4)}) | {m.wins}/{m.ties}/{m.losses} | {m.verdict} |"
        )
    r = result.ratings
    if r is not None:
        lines += ["", f"Ratings ({r.n} items; rows: base, columns: candidate)", ""]
        names = list(r.transitions)
        lines += ["| base \\ candidate | " + " | ".join(names) + " |"]
        lines += ["|---|" + "---:|" * len(names)]
        for b in names:
            row = " | ".join(str(r.transitions[b][c]) for c in names)
            lines.append(f"| {b} | {row} |")
        lines += ["", "| side | good rate (95% CI) | bad rate (95% CI) |", "|---|---|---|"]
        for side, s in (("base", r.base), ("candidate", r.candidate)):
            lines.append(
                f"| {side} | {_pct(s.good_rate)} [{_pct(s.good_rate_ci[0])}, "
                f"{_pct(s.good_rate_ci[1])}] | {_pct(s.bad_rate)} [{_pct(s.bad_rate_ci[0])}, "
                f"{_pct(s.bad_rate_ci[1])}] |"
            )
    shown = result.regressions[:max_regressions]
    lines += ["", f"Regressions: {len(result.regressions)} item(s)"]
    if shown:
        lines += ["", "| item | rating | metric | base | candidate | explanations (base / cand.) |"]
        lines += ["|---|---|---|---:|---:|---|"]
        for reg in shown:
            rating = f"{reg.base_rating or '-'} → {reg.candidate_rating or '-'}"
            if reg.within_uncertainty:
                rating += " (within uncertainty)"
            for name, v in reg.metrics.items():
                if v["base"] is None or v["candidate"] is None or v["candidate"] >= v["base"]:
                    continue
                lines.append(
                    f"| {md_cell(reg.id, 60)} | {rating} | {name} | {fmt(v['base'], 2)} | "
                    f"{fmt(v['candidate'], 2)} | {md_cell(v['base_explanation'])} / "
                    f"{md_cell(v['candidate_explanation'])} |"
                )
                rating = ""
            if rating:  # the rating fell while no metric did
                lines.append(f"| {md_cell(reg.id, 60)} | {rating} | | | | |")
        if len(result.regressions) > len(shown):
            lines.append(f"\n… and {len(result.regressions) - len(shown)} more (see the JSON).")
    if result.unmatched["base"] or result.unmatched["candidate"]:
        lines += ["", "Unmatched: base " + (", ".join(result.unmatched["base"][:20]) or "none")]
        lines += ["candidate " + (", ".join(result.unmatched["candidate"][:20]) or "none")]
    return "\n".join(lines) + "\n"
