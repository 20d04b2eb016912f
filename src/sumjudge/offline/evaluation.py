"""Meta-evaluation helpers shared by the fit script and the benchmark (numpy only)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

Vec = npt.NDArray[np.float64]


def rankdata(x: Sequence[float] | Vec) -> Vec:
    """Average ranks (ties share the mean rank), 1-based."""
    a = np.asarray(x, dtype=np.float64)
    order = np.argsort(a, kind="mergesort")
    ranks = np.empty(len(a), dtype=np.float64)
    sa = a[order]
    i = 0
    while i < len(a):
        j = i
        while j + 1 < len(a) and sa[j + 1] == sa[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2.0 + 1.0
        i = j + 1
    return ranks


def spearman(x: Sequence[float] | Vec, y: Sequence[float] | Vec) -> float:
    rx, ry = rankdata(x), rankdata(y)
    if rx.std() == 0 or ry.std() == 0:
        return 0.0
    return float(np.corrcoef(rx, ry)[0, 1])


def summary_level_spearman(
    pred: Sequence[float] | Vec, human: Sequence[float] | Vec, groups: Sequence[str]
) -> float:
    """Mean over source documents of Spearman(pred, human); documents whose human scores are all
    equal are skipped (a constant prediction within a document counts as 0)."""
    p, h, g = np.asarray(pred, float), np.asarray(human, float), np.asarray(groups)
    vals = []
    for grp in dict.fromkeys(g.tolist()):
        m = g == grp
        if np.unique(h[m]).size < 2:
            continue
        vals.append(spearman(p[m], h[m]))
    return float(np.mean(vals)) if vals else float("nan")


def roc_auc(labels: Sequence[float] | Vec, scores: Sequence[float] | Vec) -> float:
    """AUC of ``scores`` for separating label 1 (positive) from 0."""
    y = np.asarray(labels, float)
    r = rankdata(scores)
    n1 = float((y == 1).sum())
    n0 = float(len(y) - n1)
    return float((r[y == 1].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))


def group_kfold(groups: Sequence[str], k: int = 5) -> list[npt.NDArray[np.bool_]]:
    """Deterministic GroupKFold: groups (sorted by size, then name) dealt to the lightest fold.
    Returns one boolean test mask per fold."""
    g = np.asarray(groups)
    uniq, counts = np.unique(g, return_counts=True)
    order = sorted(range(len(uniq)), key=lambda i: (-counts[i], str(uniq[i])))
    load = [0] * k
    fold_of: dict[str, int] = {}
    for i in order:
        f = int(np.argmin(load))
        fold_of[str(uniq[i])] = f
        load[f] += int(counts[i])
    return [np.array([fold_of[str(v)] == f for v in g]) for f in range(k)]
