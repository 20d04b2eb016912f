"""The comparison page of `sumjudge compare --report`: one self-contained HTML file.

It shares the run report's styles and Content-Security-Policy: per-metric differences
with their intervals (drawn as inline SVG of our own), the rating transition matrix,
both sides' rates, and the regressions with both summaries and explanations side by side.
Every text from the records is escaped: summaries and explanations are untrusted.
"""

from __future__ import annotations

from datetime import datetime, timezone

from ..compare.result import Comparison, MetricComparison, Regression
from .assets import CSP, CSS
from .highlight import clean, esc

__all__ = ["render_comparison"]

_EXTRA_CSS = """
td.improved { color:var(--good); font-weight:600; } td.regressed { color:var(--bad);
  font-weight:600; } td.diag { background:var(--na-bg); font-weight:600; }
.pair { display:grid; grid-template-columns:1fr 1fr; gap:12px; }
.pair > div { background:var(--card); border:1px solid var(--line); border-radius:8px;
  padding:8px 12px; } .pair h3 { margin:4px 0; }
"""


def _num(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _interval_svg(m: MetricComparison, span: float) -> str:
    """A small axis centred on 0 with the interval as a bar and the mean as a dot."""
    if m.ci_low is None or m.ci_high is None or m.mean_diff is None or span <= 0:
        return ""
    width, mid = 220, 110

    def x(v: float) -> float:
        return mid + v / span * (mid - 10)

    colour = {"improved": "var(--good)", "regressed": "var(--bad)"}.get(m.verdict, "var(--na)")
    return (
        f'<svg class="chart" width="{width}" height="22" viewBox="0 0 {width} 22" role="img" '
        f'aria-label="{esc(m.name)} difference {m.mean_diff:.3f}">'
        f'<line x1="{mid}" y1="2" x2="{mid}" y2="20" stroke="#8a949e" stroke-dasharray="2,2"/>'
        f'<line x1="{x(m.ci_low):.1f}" y1="11" x2="{x(m.ci_high):.1f}" y2="11" '
        f'stroke="{colour}" stroke-width="4"/>'
        f'<circle cx="{x(m.mean_diff):.1f}" cy="11" r="4" fill="{colour}"/></svg>'
    )


def _metrics_table(result: Comparison) -> str:
    ends = [abs(v) for m in result.metrics.values() for v in (m.ci_low, m.ci_high) if v is not None]
    span = max(ends, default=0.0) or 1.0
    rows = []
    for m in result.metrics.values():
        rows.append(
            f'<tr data-metric="{esc(m.name)}"><td>{esc(m.name)}<div class="muted">'
            f"{esc(m.compared)}</div></td><td class=num>{m.n}</td>"
            f"<td class=num>{_num(m.base_mean)}</td><td class=num>{_num(m.candidate_mean)}</td>"
            f"<td class=num>{_num(m.mean_diff)}</td>"
            f"<td class=num>[{_num(m.ci_low)}, {_num(m.ci_high)}]</td>"
            f"<td>{_interval_svg(m, span)}</td>"
            f"<td class=num>{_num(m.p_value, 4)}</td><td class=num>{_num(m.p_adjusted, 4)}</td>"
            f"<td class=num>{m.wins} / {m.ties} / {m.losses}</td>"
            f'<td class="{esc(m.verdict.split()[0])}">{esc(m.verdict)}</td></tr>'
        )
    alpha = result.settings.get("alpha", 0.05)
    head = (
        "<tr><th>metric</th><th class=num>n</th><th class=num>base</th>"
        "<th class=num>candidate</th><th class=num>diff</th><th class=num>95% CI</th>"
        "<th>interval (0 dashed)</th><th class=num>p</th><th class=num>p (Holm)</th>"
        f"<th class=num>wins / ties / losses</th><th>verdict at {esc(alpha)}</th></tr>"
    )
    method = ", ".join(sorted({m.method for m in result.metrics.values()})) or "-"
    return (
        '<section id="metrics"><h2>Metrics: candidate minus base</h2>'
        f'<div class="panel"><table class="metrics"><thead>{head}</thead><tbody>'
        + "".join(rows)
        + f'</tbody></table></div><p class="note muted">Test: {esc(method)}; intervals: '
        f"paired bootstrap, {esc(result.settings.get('n_resamples'))} resamples, seed "
        f"{esc(result.settings.get('seed'))}.</p></section>"
    )


def _ratings(result: Comparison) -> str:
    r = result.ratings
    if r is None:
        return '<section id="ratings"><h2>Ratings</h2><p class="muted">No ratings.</p></section>'
    names = list(r.transitions)
    head = "<tr><th>base \\ candidate</th>" + "".join(f"<th class=num>{esc(n)}</th>" for n in names)
    body = "".join(
        f"<tr><th>{esc(b)}</th>"
        + "".join(
            f'<td class="num{" diag" if b == c else ""}">{r.transitions[b][c]}</td>' for c in names
        )
        + "</tr>"
        for b in names
    )

    def rate(value: float | None, ci: tuple[float, float]) -> str:
        if value is None:
            return "-"
        return f"{100 * value:.1f}% [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"

    rates = "".join(
        f"<tr><th>{side}</th><td class=num>{rate(s.good_rate, s.good_rate_ci)}</td>"
        f"<td class=num>{rate(s.bad_rate, s.bad_rate_ci)}</td></tr>"
        for side, s in (("base", r.base), ("candidate", r.candidate))
    )
    return (
        f'<section id="ratings"><h2>Ratings ({r.n} items)</h2><div class="grid2">'
        f'<div class="panel"><table class="transitions"><thead>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
        '<div class="panel"><table class="rates"><thead><tr><th>side</th>'
        "<th class=num>good rate (95% CI)</th><th class=num>bad rate (95% CI)</th></tr>"
        f"</thead><tbody>{rates}</tbody></table></div></div>"
        f'<p class="note muted">Paired change of the good rate: sign test p = '
        f"{r.good_rate_p:.4g}.</p></section>"
    )


def _side(title: str, rating: str | None, summary: str | None, reg: Regression, key: str) -> str:
    text = (
        f'<div class="text">{esc(clean(summary))}</div>'
        if summary
        else '<p class="muted">(summary text not in the records; pass --base-inputs / '
        "--candidate-inputs)</p>"
    )
    notes = "".join(
        f"<li><b>{esc(name)}</b> {_num(v[key], 2)}: {esc(clean(str(v[key + '_explanation'])))}</li>"
        for name, v in reg.metrics.items()
    )
    badge = f' <span class="badge {esc(rating)}">{esc(rating)}</span>' if rating else ""
    return f"<div><h3>{esc(title)}{badge}</h3>{text}<ul>{notes}</ul></div>"


def _regressions(result: Comparison, limit: int) -> str:
    regs = result.regressions[:limit]
    blocks = [
        f'<details class="regression"{" open" if i < 5 else ""}><summary><span class="id">'
        f"{esc(reg.id)}</span> {esc(reg.base_rating or '-')} → "
        f"{esc(reg.candidate_rating or '-')}"
        + (' <span class="muted">(within uncertainty)</span>' if reg.within_uncertainty else "")
        + "</summary><div class=pair>"
        + _side("base", reg.base_rating, reg.base_summary, reg, "base")
        + _side("candidate", reg.candidate_rating, reg.candidate_summary, reg, "candidate")
        + "</div></details>"
        for i, reg in enumerate(regs)
    ]
    more = len(result.regressions) - len(regs)
    tail = f'<p class="muted">… and {more} more in the JSON.</p>' if more > 0 else ""
    return (
        f'<section id="regressions"><h2>Regressions ({len(result.regressions)})</h2>'
        + ("".join(blocks) or '<p class="muted">None.</p>')
        + tail
        + "</section>"
    )


def render_comparison(
    result: Comparison, *, title: str = "sumjudge compare", max_regressions: int = 200
) -> str:
    """The comparison as one HTML string (no network needed to view it)."""
    created = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    excluded = sum(result.excluded.values())
    unmatched = len(result.unmatched["base"]) + len(result.unmatched["candidate"])
    tiles = [
        ("matched", result.matched, ""),
        ("unmatched", unmatched, "failed" if unmatched else ""),
        ("excluded", excluded, "failed" if excluded else ""),
        ("regressions", len(result.regressions), "bad" if result.regressions else ""),
    ]
    cells = "".join(
        f'<div class="tile {cls}"><div class="n">{n}</div><div class="l">{esc(label)}</div></div>'
        for label, n, cls in tiles
    )
    reasons = ", ".join(f"{k}: {v}" for k, v in result.excluded.items())
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{esc(title)}</title><style>{CSS}{_EXTRA_CSS}</style></head><body><main>",
            f'<header class="top"><h1>{esc(title)}</h1>'
            f'<div class="muted">generated {esc(created)}</div></header>',
            f'<section id="headline"><div class="tiles">{cells}</div>'
            + (f'<p class="muted">Excluded: {esc(reasons)}</p>' if reasons else "")
            + "</section>",
            _metrics_table(result),
            _ratings(result),
            _regressions(result, max_regressions),
            "</main></body></html>",
        ]
    )
