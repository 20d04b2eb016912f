"""A judge card as a plain-text table for the terminal (`sumjudge meta-eval`)."""

from __future__ import annotations

from typing import Any

from sumjudge.meta.schema import VARIANTS, Figure, JudgeCard

__all__ = ["format_table"]


def format_table(card: JudgeCard, *, digits: int = 3) -> str:
    """Render a card as a plain-text table: one line per dataset/metric/figure.

    The `score` and `weighted_score` columns (then one per further variant, e.g. `raw`)
    show `value [ci_low, ci_high]`; `n` and `groups` (used/skipped) come from `score`
    (the next variant if only that exists), with the other variants' counts after a `|` when
    they differ.
    """
    variant_names = list(
        dict.fromkeys(
            [
                *VARIANTS,
                *(
                    v
                    for ds in card.datasets.values()
                    for mf in ds.metrics.values()
                    for v in mf.variants
                ),
            ]
        )
    )
    header = ["dataset", "metric", "labels", "figure", *variant_names, "n", "groups", "thr"]
    lines: list[list[str]] = []
    for ds_name, ds in card.datasets.items():
        for metric, mf in ds.metrics.items():
            names = list(dict.fromkeys(f for v in mf.variants.values() for f in v))
            for fig_name in names:
                figs = [mf.variants.get(v, {}).get(fig_name) for v in variant_names]
                present = [f for f in figs if f is not None]
                lines.append(
                    [
                        ds_name,
                        metric,
                        mf.label_kind,
                        fig_name,
                        *(_cell(f, digits) for f in figs),
                        _joined(str(f.n_items) for f in present),
                        _joined(f"{f.n_groups_used}/{f.n_groups_skipped}" for f in present),
                        _joined("" if f.threshold is None else f"{f.threshold:g}" for f in present),
                    ]
                )
    title = (
        f"judge {card.judge}  data {card.data_hash[:12]}  "
        f"{round((1 - card.alpha) * 100)}% CI, {card.n_resamples} document resamples"
    )
    widths = [max(len(r[c]) for r in [header, *lines]) for c in range(len(header))]
    rendered = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip()
                for r in [header, *lines]]  # fmt: skip
    rule = "-" * max(len(r) for r in rendered)
    notes = [f"{name}: {note}" for name, note in card.variant_notes.items()]
    return "\n".join([title, rendered[0], rule, *rendered[1:], *notes])


def _cell(fig: Figure | None, digits: int) -> str:
    if fig is None:
        return "-"
    if fig.value is None:
        return "n/a"
    if fig.ci_low is None or fig.ci_high is None:
        return f"{fig.value:.{digits}f}"
    return f"{fig.value:.{digits}f} [{fig.ci_low:.{digits}f}, {fig.ci_high:.{digits}f}]"


def _joined(parts: Any) -> str:
    return "|".join(dict.fromkeys(parts))
