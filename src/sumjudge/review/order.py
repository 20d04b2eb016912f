"""In which order `sumjudge review` shows items: pure functions of the judge's signals.

Four orders (docs/review.md):

- `uncertain` (default): the items the judge was least sure of first (`uncertainty_key`).
- `disagree`: once the reviewer has `DISAGREE_MIN_LABELS` labels, the unlabelled items
  whose judge scores sit where this reviewer has disagreed with the judge most so far;
  with fewer labels, `uncertain` (and a note saying so).
- `random`: shuffled with a seed, so two runs with one seed agree.
- `input`: the results file's order.

Nothing here reads files or the clock: the signals come in as `Signals`, the reviewer's
labels as `sumjudge.align.Label`s.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..align import Label

__all__ = [
    "DISAGREE_MIN_LABELS",
    "ORDERS",
    "Ordering",
    "Signals",
    "disagreement_rates",
    "order_items",
    "raw_margin",
    "uncertainty_key",
]

ORDERS: tuple[str, ...] = ("uncertain", "disagree", "random", "input")
#: Fewer labels than this say too little about where a reviewer and the judge part ways.
DISAGREE_MIN_LABELS = 5
#: The judge's rating, compared with the reviewer's rating like a metric.
RATING_KEY = "rating"


@dataclass(frozen=True)
class Signals:
    """What the judge said about one item, reduced to what ordering needs.

    Attributes:
        id: The item's id (labels are keyed by it).
        position: The item's position in the results file (the `input` order, tie-breaks).
        scores: The judge's score per metric (1-3 or a percentage), scored metrics only.
        rating: The judge's rating (good / incomplete / bad), if any.
        rating_confidence: The probability of the rating (`rules.rating_confidence`).
        confidences: Per metric, the probability of its score (from logprobs).
        panel_ranges: Per metric, max - min of the panel members' 1-3 scores.
        spreads: Per metric, the standard deviation of repeated judgments.
        raw_margins: Per metric, how far the offline judge's continuous `raw` score lies
            from the nearest cut point of its model (`raw_margin`).
        uncertain: The record's `uncertain` flag.
        evidence: How many evidence lines (problems found) the metrics list.
    """

    id: str
    position: int
    scores: Mapping[str, float] = field(default_factory=dict)
    rating: str | None = None
    rating_confidence: float | None = None
    confidences: Mapping[str, float] = field(default_factory=dict)
    panel_ranges: Mapping[str, float] = field(default_factory=dict)
    spreads: Mapping[str, float] = field(default_factory=dict)
    raw_margins: Mapping[str, float] = field(default_factory=dict)
    uncertain: bool = False
    evidence: int = 0


@dataclass(frozen=True)
class Ordering:
    """Item ids in review order, and a note for the page when the order fell back."""

    ids: list[str]
    note: str = ""


def raw_margin(raw: float, cuts: Sequence[float]) -> float:
    """The distance of `raw` to the nearest cut point: small means "nearly the next score"."""
    return min(abs(raw - c) for c in cuts)


def uncertainty_key(s: Signals) -> tuple[int, float, int]:
    """Sort key of the `uncertain` order: lower is less certain, reviewed first.

    A tier, then a value within it (the tiers keep unlike quantities apart):

    0. a probability-like confidence, the lowest of: `rating_confidence`, each metric's
       `confidence`, 1 - panel range / 2 (a 1-vs-3 split is 0), 1 - sample spread;
    1. else the offline judge's smallest `raw_margin` (in the model's raw units);
    2. else the `uncertain` flag, then more evidence lines first;
    3. no signal at all.

    The last element is the position, so ties keep the file's order.
    """
    probs = [*s.confidences.values()]
    if s.rating_confidence is not None:
        probs.append(s.rating_confidence)
    probs += [max(0.0, 1.0 - r / 2.0) for r in s.panel_ranges.values()]
    probs += [max(0.0, 1.0 - v) for v in s.spreads.values()]
    if probs:
        return (0, min(probs), s.position)
    if s.raw_margins:
        return (1, min(s.raw_margins.values()), s.position)
    if s.uncertain or s.evidence:
        return (2, -float(s.uncertain) * 1000 - s.evidence, s.position)
    return (3, 0.0, s.position)


def _judge_levels(label: Label, signals: Signals | None) -> dict[str, str]:
    """The judge's level per metric (and rating) for a label: as it was when labelled."""
    judged = label.judge.get("scores") if isinstance(label.judge, Mapping) else None
    scores = judged if isinstance(judged, Mapping) else (signals.scores if signals else {})
    levels = {str(m): _level(v) for m, v in scores.items() if isinstance(v, (int, float))}
    rating = label.judge.get("rating") if label.judge else (signals.rating if signals else None)
    if isinstance(rating, str):
        levels[RATING_KEY] = rating
    return levels


def _level(value: float) -> str:
    return f"{value:g}"


def disagreement_rates(
    labels: Iterable[Label], signals: Mapping[str, Signals]
) -> dict[tuple[str, str], tuple[int, int]]:
    """Per (metric, judge level): (disagreements, labels) over one reviewer's labels.

    A metric disagrees when the reviewer's value differs from the judge's score or they
    said "disagree"; the rating disagrees when theirs differs from the judge's.
    """
    out: dict[tuple[str, str], tuple[int, int]] = {}
    for label in labels:
        levels = _judge_levels(label, signals.get(label.id))
        for metric, level in levels.items():
            if metric == RATING_KEY:
                if label.rating is None:
                    continue
                differs = label.rating != level
            else:
                if metric in label.agree and metric not in label.scores:
                    differs = not label.agree[metric]
                elif metric in label.scores:
                    differs = _level(label.scores[metric]) != level
                else:
                    continue
            d, n = out.get((metric, level), (0, 0))
            out[(metric, level)] = (d + int(differs), n + 1)
    return out


def order_items(
    items: Sequence[Signals],
    mode: str,
    labels: Sequence[Label] = (),
    *,
    seed: int | None = None,
) -> Ordering:
    """The review order of `items` for one reviewer whose latest labels are `labels`.

    Args:
        items: The judged items.
        mode: One of `ORDERS`.
        labels: This reviewer's latest label per item (for `disagree`).
        seed: The `random` order's seed (None: a fresh shuffle).

    Raises:
        ValueError: An unknown `mode`.
    """
    if mode not in ORDERS:
        raise ValueError(f"order must be one of {', '.join(ORDERS)} (got {mode!r})")
    if mode == "input":
        return Ordering([s.id for s in sorted(items, key=lambda s: s.position)])
    if mode == "random":
        ids = [s.id for s in sorted(items, key=lambda s: s.position)]
        random.Random(seed).shuffle(ids)
        return Ordering(ids)
    uncertain = sorted(items, key=uncertainty_key)
    if mode == "uncertain":
        return Ordering([s.id for s in uncertain])
    known = {s.id: s for s in items}
    mine = [x for x in labels if x.id in known]
    if len(mine) < DISAGREE_MIN_LABELS:
        return Ordering(
            [s.id for s in uncertain],
            note=(
                f"order 'disagree' needs {DISAGREE_MIN_LABELS} of your labels to learn "
                f"where you and the judge disagree (you have {len(mine)}); "
                "showing the judge's least certain items first"
            ),
        )
    rates = disagreement_rates(mine, known)
    done = {x.id for x in mine}
    rank = {s.id: k for k, s in enumerate(uncertain)}

    def key(s: Signals) -> tuple[float, int]:
        levels = dict(_judge_levels(Label(id=s.id), s))
        worst = 0.0
        for metric, level in levels.items():
            d, n = rates.get((metric, level), (0, 0))
            if n:
                worst = max(worst, d / n)
        return (-worst, rank[s.id])

    todo = sorted((s for s in items if s.id not in done), key=key)
    # Labelled items first, in the order they were labelled, so "previous" walks back
    # through what the reviewer did; then what is left, most disagreed-on first.
    return Ordering([x.id for x in mine] + [s.id for s in todo])
