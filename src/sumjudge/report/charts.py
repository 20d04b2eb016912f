"""Charts for the HTML report, drawn by matplotlib and inlined as SVG (no files, no network).

matplotlib is imported lazily, so the rest of sumjudge works without it; without it the
report is written without charts and says which extra to install.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["CHART_COLORS", "charts_available", "distribution_svg", "interval_svg"]

CHART_COLORS = {
    "1": "#d1495b",
    "2": "#edae49",
    "3": "#3c9d5d",
    "failed": "#9aa0a6",
    "n/a": "#c7ccd1",
    "bar": "#4f6d9a",
    "weighted": "#8fa8c8",
}
_PROLOG = re.compile(r"^.*?(?=<svg)", re.S)
_INK = "#2b2f33"
_GRID = "#e3e6ea"


def charts_available() -> bool:
    """Whether matplotlib can be imported (the `report` extra)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _figure(width: float, height: float) -> Any:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100)
    fig.patch.set_alpha(0)
    return fig


def _style(ax: Any) -> None:
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    ax.spines["bottom"].set_color("#b8bec5")
    ax.tick_params(colors=_INK, labelsize=9, length=0)
    ax.yaxis.grid(True, color=_GRID, linewidth=0.8)
    ax.set_axisbelow(True)
    ax.set_facecolor("none")


def _svg(fig: Any, salt: str) -> str:
    import matplotlib

    buf = io.StringIO()
    # Text stays text (small, crisp, searchable); a per-chart salt keeps the generated
    # element ids apart when several SVGs share one HTML document.
    with matplotlib.rc_context(
        {"svg.fonttype": "none", "svg.hashsalt": f"sumjudge-{salt}", "font.size": 9}
    ):
        fig.savefig(buf, format="svg", bbox_inches="tight", pad_inches=0.05)
    text = _PROLOG.sub("", buf.getvalue(), count=1)
    return text.replace("<svg ", '<svg role="img" class="chart" ', 1)


def distribution_svg(
    metric: str,
    values: Sequence[float | None],
    *,
    unit: str = "1-3",
    failed: int = 0,
    not_applicable: int = 0,
    weighted: Sequence[float] = (),
) -> str:
    """Bar chart of one metric's scores across items, as an inline `<svg>` element.

    For 1-3 scores: one bar per score (plus failed and N/A items); when logprob-weighted
    scores exist, a light tick marks their mean. For percentages: 10-point bins.
    """
    present = [v for v in values if v is not None]
    fig = _figure(3.4, 2.1)
    ax = fig.subplots()
    _style(ax)
    labels: list[str]
    counts: list[int]
    colors: list[str]
    if unit == "1-3":
        labels = ["1", "2", "3"]
        counts = [sum(1 for v in present if round(v) == k) for k in (1, 2, 3)]
        colors = [CHART_COLORS[k] for k in labels]
    else:
        edges = list(range(0, 101, 10))
        labels = [f"{lo}" if lo % 20 == 0 else "" for lo in edges[:-1]]
        counts = [0] * 10
        for v in present:
            counts[min(int(max(v, 0.0) // 10), 9)] += 1
        colors = [CHART_COLORS["bar"]] * 10
    if failed:
        labels.append("failed")
        counts.append(failed)
        colors.append(CHART_COLORS["failed"])
    if not_applicable:
        labels.append("N/A")
        counts.append(not_applicable)
        colors.append(CHART_COLORS["n/a"])
    xs = list(range(len(labels)))
    bars = ax.bar(xs, counts, color=colors, width=0.7 if unit == "1-3" else 0.85, zorder=2)
    if unit == "1-3" and weighted:
        # Weighted scores share the 1-3 axis (bar k sits at x = k - 1): mark their mean.
        mean = sum(weighted) / len(weighted) - 1
        ax.axvline(mean, color=_INK, linewidth=1, linestyle=(0, (3, 2)), zorder=3)
    for bar, count in zip(bars, counts, strict=True):
        if count:
            ax.annotate(
                str(count),
                (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                ha="center",
                va="bottom",
                fontsize=8,
                color=_INK,
                xytext=(0, 1),
                textcoords="offset points",
            )
    ax.set_xticks(xs)
    ax.set_xticklabels(labels, parse_math=False)
    ax.set_ylim(0, max([*counts, 1]) * 1.18)
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("score" if unit == "1-3" else "score (%), 10-point bins", color=_INK)
    ax.set_title(metric, loc="left", fontsize=10, color=_INK, fontweight="bold", parse_math=False)
    return _svg(fig, f"dist-{metric}")


Interval = tuple[str, float | None, float | None, float | None]  # label, value, low, high
_SERIES_COLORS = ("#3d5f8f", "#d08c2b", "#6a9f58", "#9b5fa8")


def interval_svg(title: str, series: Mapping[str, Sequence[Interval]]) -> str:
    """Dot-and-whisker plot: per label, one dot and interval per series (e.g. score variant).

    `series` maps a series name to `(label, value, low, high)` rows; labels shared by
    several series are drawn on one line, the series slightly offset.
    """
    labels = list(dict.fromkeys(r[0] for rows in series.values() for r in rows if r[1] is not None))
    fig = _figure(6.4, 0.7 + 0.34 * max(len(labels), 1))
    ax = fig.subplots()
    _style(ax)
    ax.yaxis.grid(False)
    ax.xaxis.grid(True, color=_GRID, linewidth=0.8)
    ypos = {label: len(labels) - 1 - k for k, label in enumerate(labels)}
    n = max(len(series), 1)
    lows: list[float] = [0.0]
    for s_index, (name, rows) in enumerate(series.items()):
        color = _SERIES_COLORS[s_index % len(_SERIES_COLORS)]
        offset = (s_index - (n - 1) / 2) * 0.22
        first = True
        for label, value, low, high in rows:
            if value is None:
                continue
            y = ypos[label] + offset
            if low is not None and high is not None:
                ax.plot([low, high], [y, y], color=color, alpha=0.45, linewidth=3,
                        solid_capstyle="round")  # fmt: skip
                lows.append(low)
            ax.plot([value], [y], "o", color=color, markersize=5, zorder=3,
                    label=name if first else None)  # fmt: skip
            lows.append(value)
            first = False
    ax.axvline(0, color="#b8bec5", linewidth=0.8)
    ax.set_yticks([ypos[label] for label in labels])
    ax.set_yticklabels(labels, parse_math=False)
    ax.set_ylim(-0.6, len(labels) - 0.4)
    ax.set_xlim(min(-0.1, min(lows) - 0.05), 1.0)
    if len(series) > 1:
        ax.legend(frameon=False, fontsize=8, loc="lower right")
    ax.set_title(title, loc="left", fontsize=10, color=_INK, fontweight="bold", parse_math=False)
    return _svg(fig, f"ci-{title}")
