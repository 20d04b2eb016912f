"""A comparison as Markdown: the metric table, the ratings and the worst regressions."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .result import Comparison

__all__ = ["comparison_markdown", "fmt", "md_cell"]


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
