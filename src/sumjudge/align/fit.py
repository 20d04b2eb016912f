"""What any judge may learn from labels: cut points, a rule book, few-shot examples.

Every fit here is monotone and small, and leans on a prior: with few labels it stays near
the judge's own behaviour, and with many the labels decide.

- Cut points: the person's 1-3 shares (Likert) reproduced on the judge's continuous score,
  or the threshold that best separates binary labels, shrunk toward the prior cuts with
  weight n / (n + `PRIOR_WEIGHT`).
- Rule book: the per-metric thresholds (good at least 1-3, bad at most 0-1) whose ratings
  agree best with the person's (balanced accuracy over the three ratings); ties go to the
  book with fewest changes from the default.
- Few-shot: both ends of the person's scale first, then the rest, preferring items with a
  note (the reason shown to the judge) and where the judge disagreed.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Literal

import numpy as np

from ..rules import DEFAULT_RULE_BOOK, RuleBook, Threshold
from .joined import LabelledItem

__all__ = [
    "LLM_PRIOR_CUTS",
    "MIN_RATINGS",
    "PRIOR_WEIGHT",
    "bin_of",
    "choose_examples",
    "fit_cuts",
    "fit_rule_book",
    "label_kind",
]

#: Labels' weight against the prior: n labels count n / (n + PRIOR_WEIGHT).
PRIOR_WEIGHT = 20.0
#: An LLM's weighted score rounds to its verdict by default: 1.5 and 2.5.
LLM_PRIOR_CUTS = (1.5, 2.5)
#: Fewer people's ratings than this: the rule book is not refitted.
MIN_RATINGS = 20
#: 1-5 Likert labels (SummEval means) bin as the offline judge's own fit does.
FIVE_POINT_EDGES = (3.0, 4.0)

LabelKind = Literal["likert", "binary"]


def label_kind(values: Sequence[float]) -> LabelKind:
    """Binary when every value is 0 or 1, else Likert (as meta-eval decides)."""
    return "binary" if values and all(v in (0.0, 1.0) for v in values) else "likert"


def bin_of(value: float, scale_max: float) -> int:
    """A person's Likert value on 1-3: itself (rounded) on 1-3 scales, binned on 1-5."""
    if scale_max <= 3.0:
        return int(min(3, max(1, round(value))))
    lo, hi = FIVE_POINT_EDGES
    return 1 if value < lo else 2 if value < hi else 3


def fit_cuts(
    scores: Sequence[float],
    values: Sequence[float],
    kind: LabelKind,
    prior: tuple[float, float],
) -> tuple[float, float]:
    """Cut points on the judge's continuous `scores` that match the person's `values`.

    Args:
        scores: The judge's continuous score per item (weighted score or raw).
        values: The person's value per item (Likert on any scale, or 0/1).
        kind: "likert" or "binary".
        prior: The cuts in use now (the result moves from them toward the fit).
    """
    x = np.asarray(scores, dtype=float)
    y = np.asarray(values, dtype=float)
    n = len(x)
    if n == 0:
        return prior
    if kind == "binary":
        upper = _best_split(x, y > 0.5)
        if upper is None:
            return prior
        fitted = (min(prior[0], upper - 1e-6), upper)
    else:
        top = float(y.max())
        bins = np.array([bin_of(v, top) for v in y])
        share1, share12 = float(np.mean(bins == 1)), float(np.mean(bins <= 2))
        lo = float(np.quantile(x, share1)) if share1 > 0 else min(prior[0], float(x.min()))
        hi = float(np.quantile(x, share12)) if share12 < 1 else max(prior[1], float(x.max()))
        fitted = (lo, hi)
    w = n / (n + PRIOR_WEIGHT)
    cuts = (w * fitted[0] + (1 - w) * prior[0], w * fitted[1] + (1 - w) * prior[1])
    if cuts[1] <= cuts[0]:
        cuts = (cuts[0], cuts[0] + 1e-6)
    return (round(cuts[0], 6), round(cuts[1], 6))


def _best_split(x: np.ndarray, positive: np.ndarray) -> float | None:
    """The threshold t maximising balanced accuracy of `x >= t` (midpoints of values)."""
    if positive.all() or (~positive).all():
        return None
    values = np.unique(x)
    if len(values) < 2:
        return None
    candidates = (values[:-1] + values[1:]) / 2
    pos, neg = positive.sum(), (~positive).sum()
    best, best_t = -1.0, None
    for t in candidates:
        pred = x >= t
        bal = 0.5 * ((pred & positive).sum() / pos + (~pred & ~positive).sum() / neg)
        if bal > best + 1e-12:
            best, best_t = bal, float(t)
    return best_t


def fit_rule_book(
    items: Sequence[LabelledItem],
    scores: Mapping[str, Sequence[int]],
    metrics: Sequence[str],
) -> RuleBook | None:
    """The rule book whose ratings agree best with the people's, or None with too few.

    Args:
        items: The labelled items (their `rating` is the person's).
        scores: Per metric, the (calibrated) 1-3 score of each item, in `items` order.
        metrics: The metrics the book covers.
    """
    rated = [i for i, item in enumerate(items) if item.rating]
    if len(rated) < MIN_RATINGS or len({items[i].rating for i in rated}) < 2:
        return None
    people = [items[i].rating for i in rated]
    matrix = np.array([[scores[m][i] for m in metrics] for i in rated])
    best: tuple[float, int] = (-1.0, 0)
    chosen = DEFAULT_RULE_BOOK
    options = [(g, b) for g in (1, 2, 3) for b in (0, 1)]
    for combo in itertools.product(options, repeat=len(metrics)):
        good_at = np.array([g for g, _ in combo])
        bad_at = np.array([b for _, b in combo])
        # The rule book's own order (rules.rate): bad first, then good, else incomplete.
        bad = (matrix <= bad_at).any(axis=1)
        good = (matrix >= good_at).all(axis=1) & ~bad
        ratings = np.where(bad, "bad", np.where(good, "good", "incomplete")).tolist()
        changes = sum(c != _default(m) for m, c in zip(metrics, combo, strict=True))
        key = (_balanced(ratings, people), -changes)
        if key > best:
            best = key
            chosen = RuleBook(
                {m: Threshold(g, b) for m, (g, b) in zip(metrics, combo, strict=True)}
            )
    return chosen


def _default(metric: str) -> tuple[int, int]:
    t = DEFAULT_RULE_BOOK.thresholds.get(metric, Threshold(2, 1))
    return (t.good_at_least, t.bad_at_most)


def _balanced(pred: Sequence[str | None], truth: Sequence[str | None]) -> float:
    """Mean recall over the ratings the people gave."""
    recalls = []
    for cls in sorted({t for t in truth if t}):
        idx = [i for i, t in enumerate(truth) if t == cls]
        recalls.append(sum(pred[i] == cls for i in idx) / len(idx))
    return float(np.mean(recalls)) if recalls else 0.0


def choose_examples(
    items: Sequence[LabelledItem], metric: str, k: int = 4
) -> list[tuple[LabelledItem, int]]:
    """Up to `k` (item, person's 1-3) few-shot examples for `metric`, from distinct sources.

    The lowest and highest bins the people used come first (the judge sees both ends of
    the scale), then the others; within a bin, items with a note, then items where the
    judge was furthest from the person, then by id (deterministic).
    """
    usable = [i for i in items if metric in i.human and i.source and i.summary]
    if not usable:
        return []
    top = max(i.human[metric] for i in usable)
    binned = [(i, bin_of(i.human[metric], top)) for i in usable]

    def rank(pair: tuple[LabelledItem, int]) -> tuple[int, float, str]:
        item, b = pair
        gap = abs(item.judge[metric].score - b) if metric in item.judge else 0
        return (0 if item.note else 1, -gap, item.id)

    by_bin: dict[int, list[tuple[LabelledItem, int]]] = {}
    for pair in sorted(binned, key=rank):
        by_bin.setdefault(pair[1], []).append(pair)
    order = sorted(by_bin)
    ends = [order[0], order[-1]] if len(order) > 1 else order
    sequence = ends + [b for b in order if b not in ends]
    chosen: list[tuple[LabelledItem, int]] = []
    groups: set[str] = set()
    while len(chosen) < k and any(by_bin.values()):
        for b in sequence:
            pool = by_bin.get(b, [])
            while pool and pool[0][0].group in groups:
                pool.pop(0)
            if pool and len(chosen) < k:
                pair = pool.pop(0)
                chosen.append(pair)
                groups.add(pair[0].group)
    return chosen
