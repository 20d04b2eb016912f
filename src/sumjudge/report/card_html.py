"""The judge-card and run-provenance sections of the report."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..meta.schema import Figure, JudgeCard
from . import charts
from .highlight import esc
from .views import ItemView

__all__ = ["render_card", "render_provenance"]

_PLOTTED = ("summary_spearman", "roc_auc")


def render_card(card: JudgeCard) -> str:
    """The judge card: its provenance, an interval plot and every figure with its interval."""
    variants = list(
        dict.fromkeys(
            ["score", *(v for ds in card.datasets.values() for mf in ds.metrics.values()
                        for v in mf.variants)]
        )
    )  # fmt: skip
    single = len(card.datasets) == 1
    rows = []
    series: dict[str, list[charts.Interval]] = {}
    for ds_name, ds in card.datasets.items():
        for metric, mf in ds.metrics.items():
            names = list(dict.fromkeys(f for v in mf.variants.values() for f in v))
            for k, fig_name in enumerate(names):
                cells = []
                for v in variants:
                    fig = mf.variants.get(v, {}).get(fig_name)
                    cells.append(_figure_cell(fig))
                    if fig is not None and fig.value is not None and fig_name in _PLOTTED:
                        label = metric if single else f"{ds_name} · {metric}"
                        if fig_name != "summary_spearman":
                            label += " (AUC)"
                        series.setdefault(v, []).append((label, fig.value, fig.ci_low, fig.ci_high))
                base = next(
                    (f for f in (mf.variants.get(v, {}).get(fig_name) for v in variants) if f),
                    None,
                )
                n = "" if base is None else str(base.n_items)
                groups = (
                    ""
                    if base is None or base.n_groups_used is None
                    else f"{base.n_groups_used}/{base.n_groups_skipped}"
                )
                thr = "" if base is None or base.threshold is None else f"{base.threshold:g}"
                lead = (
                    f"<td>{esc(ds_name)}</td><td><strong>{esc(metric)}</strong></td>"
                    f"<td>{esc(mf.label_kind)}</td>"
                    if k == 0
                    else "<td></td><td></td><td></td>"
                )
                rows.append(
                    f'<tr class="{"first" if k == 0 else ""}">{lead}<td>{esc(fig_name)}</td>'
                    f"{''.join(cells)}"
                    f'<td class="num">{n}</td><td class="num">{groups}</td>'
                    f'<td class="num">{thr}</td></tr>'
                )
    head = "".join(f'<th class="num">{esc(v)}</th>' for v in variants)
    notes = "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in card.variant_notes.items())
    level = round((1 - card.alpha) * 100)
    meta = (
        f"<dt>judge</dt><dd>{esc(card.judge)}</dd>"
        f"<dt>metric versions</dt><dd>{esc(_kv(card.metric_versions))}</dd>"
        f"<dt>data hash</dt><dd><code>{esc(card.data_hash)}</code></dd>"
        f"<dt>rows</dt><dd>{card.n_rows}"
        + (f" ({esc(_kv(card.data_selection))})" if card.data_selection else "")
        + "</dd>"
        f"<dt>intervals</dt><dd>{level}% percentile bootstrap, "
        f"{card.n_resamples} resamples of source documents, seed {card.seed}</dd>"
        f"<dt>created</dt><dd>{esc(card.created_at.isoformat())}</dd>{notes}"
    )
    plot = ""
    if series and charts.charts_available():
        svg = charts.interval_svg(f"summary-level Spearman with {level}% CI", series)
        plot = f'<div class="chart-card" style="margin:10px 0">{svg}</div>'
    return (
        '<section id="judge-card"><h2>Judge card: agreement with human scores</h2>'
        f'<div class="panel"><dl class="kv">{meta}</dl></div>{plot}'
        '<div class="panel" style="margin-top:10px"><table class="card"><thead><tr>'
        f"<th>dataset</th><th>metric</th><th>labels</th><th>figure</th>{head}"
        '<th class="num">n</th><th class="num">groups used/skipped</th>'
        f'<th class="num">threshold</th></tr></thead><tbody>{"".join(rows)}</tbody></table>'
        "</div></section>"
    )


def _figure_cell(fig: Figure | None) -> str:
    if fig is None:
        return '<td class="num muted">–</td>'
    if fig.value is None:
        return '<td class="num muted">n/a</td>'
    ci = (
        f' <span class="muted">[{fig.ci_low:.3f}, {fig.ci_high:.3f}]</span>'
        if fig.ci_low is not None and fig.ci_high is not None
        else ""
    )
    return f'<td class="num">{fig.value:.3f}{ci}</td>'


def _kv(mapping: Mapping[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in mapping.items()) or "—"


def render_provenance(items: Sequence[ItemView], run_info: Mapping[str, Any] | None) -> str:
    """Judges, metric versions and the summed numbers (usage, cost, cache hits) of `meta`."""
    judges: dict[str, int] = {}
    versions: dict[str, set[str]] = {}
    totals: dict[str, float] = {}
    for item in items:
        meta = item.meta
        if meta.get("judge"):
            judges[str(meta["judge"])] = judges.get(str(meta["judge"]), 0) + 1
        mv = meta.get("metric_versions")
        if isinstance(mv, Mapping):
            for k, v in mv.items():
                versions.setdefault(str(k), set()).add(str(v))
        _sum_numbers(meta, totals, "")
    rows = []
    if judges:
        rows.append(("judge", ", ".join(f"{j} ({n} items)" for j, n in judges.items())))
    if versions:
        rows.append(
            (
                "metric versions",
                ", ".join(f"{k} {'/'.join(sorted(v))}" for k, v in versions.items()),
            )
        )
    for key, value in totals.items():
        label = key.replace("_", " ")
        rows.append((label, f"{value:.6f}".rstrip("0").rstrip(".") if "cost" in key
                     else f"{value:,.0f}"))  # fmt: skip
    for key, value in (run_info or {}).items():
        rows.append((str(key), value if isinstance(value, str) else _short(value)))
    if not rows:
        rows.append(("provenance", "no run metadata in the results"))
    body = "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in rows)
    return (
        '<section id="provenance"><h2>Run provenance</h2>'
        f'<div class="panel"><dl class="kv">{body}</dl></div></section>'
    )


def _sum_numbers(meta: Mapping[str, Any], totals: dict[str, float], prefix: str) -> None:
    for key, value in meta.items():
        name = f"{prefix}{key}"
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float)):
            totals[name] = totals.get(name, 0.0) + float(value)
        elif isinstance(value, Mapping) and key != "metric_versions":
            _sum_numbers(value, totals, f"{name}.")


def _short(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)[:300]
