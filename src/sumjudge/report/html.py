"""One self-contained HTML file from result records (and optionally a judge card).

Everything is inline (styles, our small script, matplotlib charts as SVG) and a
Content-Security-Policy forbids fetching anything, so the file reads the same offline.
All text from records and inputs is escaped: transcripts are untrusted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timezone
from typing import Any

from ..meta.schema import JudgeCard
from . import charts
from .assets import CSP, CSS, JS
from .card_html import render_card, render_provenance
from .detail import render_detail, score_cell
from .highlight import esc, short_labels
from .views import ItemView

__all__ = ["render_html"]

_RATINGS = ("good", "incomplete", "bad")
_RATING_RANK = {"bad": 0, "incomplete": 1, "good": 2}


def render_html(
    items: Sequence[ItemView],
    *,
    card: JudgeCard | None = None,
    title: str = "sumjudge report",
    source_name: str | None = None,
    run_info: Mapping[str, Any] | None = None,
) -> str:
    """The whole report as one HTML string."""
    metric_names = _metric_names(items)
    created = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body><main>",
        '<header class="top">',
        f"<h1>{esc(title)}"
        + (f" <span>· {esc(source_name)}</span>" if source_name else "")
        + "</h1>",
        f'<div class="muted">generated {esc(created)}</div></header>',
        _headline(items),
        _charts(items, metric_names),
        _items_table(items, metric_names),
    ]
    if card is not None:
        parts.append(render_card(card))
    parts.append(render_provenance(items, run_info))
    parts.append(f"</main><script>{JS}</script></body></html>")
    return "\n".join(parts)


def _metric_names(items: Iterable[ItemView]) -> list[str]:
    names: dict[str, None] = {}
    for item in items:
        for name in item.metrics:
            names.setdefault(name, None)
    return list(names)


# --- headline and charts -------------------------------------------------------------------


def _headline(items: Sequence[ItemView]) -> str:
    tiles: list[tuple[str, int | str, str]] = [("items", len(items), "")]
    rated = [i.rating for i in items if i.rating]
    if rated:
        for r in _RATINGS:
            tiles.append((r, sum(1 for x in rated if x == r), r))
        unrated = sum(1 for i in items if not i.rating and not i.error)
        if unrated:  # a failed metric leaves the rating undecided
            tiles.append(("not rated", unrated, ""))
    else:  # autoevaluation: no rating; show each percentage metric's mean instead
        for name in _metric_names(items):
            views = [i.metrics[name] for i in items if name in i.metrics]
            values = [v.value for v in views if v.value is not None and v.unit == "%"]
            if values:
                tiles.append((f"mean {name}", f"{sum(values) / len(values):.0f}%", ""))
    invalid = sum(1 for i in items if i.error)
    metric_failed = sum(1 for i in items if not i.error and i.failed_metrics)
    tiles.append(("invalid rows", invalid, "failed" if invalid else ""))
    tiles.append(("items with failed metrics", metric_failed, "failed" if metric_failed else ""))
    cells = "".join(
        f'<div class="tile {cls}" data-tile="{esc(label)}"><div class="n">{n}</div>'
        f'<div class="l">{esc(label)}</div></div>'
        for label, n, cls in tiles
    )
    return f'<section id="headline"><div class="tiles">{cells}</div></section>'


def _charts(items: Sequence[ItemView], metric_names: Sequence[str]) -> str:
    if not metric_names:
        return ""
    if not charts.charts_available():
        return (
            '<section id="charts"><h2>Score distributions</h2><p class="note">Charts need '
            "matplotlib: <code>pip install 'sumjudge[report]'</code>.</p></section>"
        )
    cards = []
    for name in metric_names:
        views = [i.metrics[name] for i in items if name in i.metrics]
        unit = next((v.unit for v in views), "1-3")
        values = [v.value for v in views if v.value is not None]
        failed = sum(1 for v in views if v.error)
        na = sum(1 for v in views if v.value is None and not v.error)
        weighted = [v.weighted for v in views if v.weighted is not None]
        svg = charts.distribution_svg(
            name, values, unit=unit, failed=failed, not_applicable=na, weighted=weighted
        )
        mean = f"mean {sum(values) / len(values):.2f}" if values else "no scores"
        if weighted:
            mean += f" · weighted mean {sum(weighted) / len(weighted):.2f} (dashed)"
        cards.append(
            f'<figure class="chart-card" data-metric="{esc(name)}" style="margin:0">{svg}'
            f"<p>{esc(mean)} · {len(values)} scored"
            + (f", {failed} failed" if failed else "")
            + (f", {na} N/A" if na else "")
            + "</p></figure>"
        )
    return f'<section id="charts"><h2>Score distributions</h2><div class="charts">{"".join(cards)}</div></section>'  # noqa: E501


# --- items table ---------------------------------------------------------------------------


def _items_table(items: Sequence[ItemView], metric_names: Sequence[str]) -> str:
    has_rating = any(i.rating for i in items)
    # Human columns in the judge columns' order (then any human label the judge lacks).
    labelled = {k for i in items for k in i.human}
    human_names = [n for n in metric_names if n in labelled]
    human_names += [
        n for n in dict.fromkeys(k for i in items for k in i.human) if n not in human_names
    ]
    id_labels = short_labels([i.id for i in items if i.id])
    head = [
        '<th data-key="index" class="num">#</th>',
        '<th data-key="id">id</th>',
    ]
    if has_rating:
        head.append('<th data-key="rating">rating</th>')
    for name in metric_names:
        head.append(
            f'<th data-key="m-{_key(name)}" class="num" title="judge {esc(name)}">'
            f'<span class="sub">judge</span><br>{esc(name)}</th>'
        )
    for name in human_names:
        head.append(
            f'<th data-key="h-{_key(name)}" class="num human" title="human {esc(name)}">'
            f'<span class="sub">human</span><br>{esc(name)}</th>'
        )
    head.append("<th></th>")
    ncols = len(head)
    if not items:
        return '<section id="items"><h2>Items</h2><p class="note">No items.</p></section>'
    bodies = [
        _item_body(item, metric_names, human_names, has_rating, ncols, id_labels) for item in items
    ]
    return (
        '<section id="items"><h2>Items <button type="button" class="toggle" id="expand-all" '
        'aria-pressed="false">expand all</button></h2>'
        '<p class="note">Click a column header to sort; "details" shows explanations, '
        "evidence and the source.</p>"
        f'<div class="panel"><table class="items"><thead><tr>{"".join(head)}</tr></thead>'
        f"{''.join(bodies)}</table></div></section>"
    )


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9_-]", "_", name.lower())


def _item_body(
    item: ItemView,
    metric_names: Sequence[str],
    human_names: Sequence[str],
    has_rating: bool,
    ncols: int,
    id_labels: Mapping[str, str],
) -> str:
    attrs = {"index": str(item.index), "id": item.id or ""}
    label = id_labels.get(item.id, item.id) if item.id else ""
    cells = [f'<td class="num">{item.index}</td>', f'<td class="id" title="{esc(item.id)}">'
             f"{esc(label)}</td>"]  # fmt: skip
    if has_rating:
        attrs["rating"] = str(_RATING_RANK.get(item.rating or "", ""))
        cells.append(f"<td>{_rating_badge(item)}</td>")
    for name in metric_names:
        view = item.metrics.get(name)
        attrs[f"m-{_key(name)}"] = "" if view is None or view.value is None else f"{view.value:g}"
        cells.append(f'<td class="num">{score_cell(view)}</td>')
    for name in human_names:
        value = item.human.get(name)
        num = value if isinstance(value, (int, float)) and not isinstance(value, bool) else None
        attrs[f"h-{_key(name)}"] = "" if num is None else f"{num:g}"
        cells.append(f'<td class="num">{"" if num is None else f"{num:.2f}"}</td>')
    detail_id = f"detail-{item.index}"
    cells.append(
        f'<td><button type="button" class="toggle" aria-expanded="false" '
        f'aria-controls="{detail_id}">details</button></td>'
    )
    data = " ".join(f'data-{k}="{esc(v)}"' for k, v in attrs.items())
    return (
        f'<tbody class="item" {data}><tr class="row">{"".join(cells)}</tr>'
        f'<tr class="detail" id="{detail_id}" hidden><td colspan="{ncols}">'
        f"{render_detail(item)}</td></tr></tbody>"
    )


def _rating_badge(item: ItemView) -> str:
    if item.error:
        return '<span class="badge failed">invalid</span>'
    if not item.rating:
        return '<span class="badge na">not rated</span>' if item.metrics else ""
    badge = f'<span class="badge {esc(item.rating)}">{esc(item.rating)}</span>'
    if item.uncertain:
        p = "" if item.rating_confidence is None else f" (p={item.rating_confidence:.2f})"
        badge += f' <span class="note" title="uncertain rating{p}">uncertain{esc(p)}</span>'
    return badge
