"""Agreement with binary human labels (e.g. consistent or not): ROC AUC and balanced accuracy.

Label `1` is the positive class and a score is called positive when it is strictly above the
threshold. Pairs with a missing value are dropped; a figure is `nan` when either class is
absent.
"""

from __future__ import annotations

import math

import numpy as np

from sumjudge.meta._arrays import BoolArray, FloatArray, Values, paired, rankdata

__all__ = [
    "balanced_accuracy",
    "balanced_accuracy_at",
    "best_threshold_balanced_accuracy",
    "roc_auc",
]


def _binary_pair(scores: Values, labels: Values) -> tuple[FloatArray, BoolArray]:
    s, y = paired(scores, labels)
    if not np.all((y == 0) | (y == 1)):
        raise ValueError("binary labels must be 0 or 1")
    return s, y == 1


def _class_sizes(positive: BoolArray) -> tuple[int, int] | None:
    """Positives and negatives, or `None` when a class is absent (the figures are undefined)."""
    n_pos = int(positive.sum())
    n_neg = positive.size - n_pos
    return None if n_pos == 0 or n_neg == 0 else (n_pos, n_neg)


def roc_auc(scores: Values, labels: Values) -> float:
    """Area under the ROC curve, rank-based (Mann-Whitney U); a tied pair counts 0.5.

    Equals the probability that a random positive item (label 1) scores above a random negative
    one, as `sklearn.metrics.roc_auc_score`. Pairs with a missing value are dropped; `nan`
    when either class is absent.
    """
    s, pos = _binary_pair(scores, labels)
    sizes = _class_sizes(pos)
    if sizes is None:
        return math.nan
    n_pos, n_neg = sizes
    rank_sum = float(rankdata(s)[pos].sum())
    return (rank_sum - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def balanced_accuracy(pred_positive: Values, labels: Values) -> float:
    """Mean of the true-positive and true-negative rates of 0/1 (or bool) predictions.

    Pairs with a missing value are dropped; `nan` when either class is absent from `labels`
    (where `sklearn` would average over the classes present instead).
    """
    pp, pos = _binary_pair(pred_positive, labels)
    sizes = _class_sizes(pos)
    if sizes is None:
        return math.nan
    n_pos, n_neg = sizes
    predicted = pp != 0
    tpr = float(np.sum(predicted & pos)) / n_pos
    tnr = float(np.sum(~predicted & ~pos)) / n_neg
    return (tpr + tnr) / 2


def balanced_accuracy_at(scores: Values, labels: Values, threshold: float) -> float:
    """Balanced accuracy when a score strictly above `threshold` predicts label 1."""
    s, y = paired(scores, labels)
    return balanced_accuracy((s > threshold).astype(np.float64), y)


def best_threshold_balanced_accuracy(scores: Values, labels: Values) -> tuple[float, float]:
    """The threshold maximising balanced accuracy, and that balanced accuracy.

    Candidate thresholds are the midpoints between consecutive distinct scores (a score above
    the threshold predicts 1), so for 1-3 integer scores the candidates are 1.5 and 2.5, plus
    the highest score (nothing predicted 1, balanced accuracy 0.5), so the result is never
    below 0.5. Ties go to the lowest threshold. `(nan, nan)` when either class is absent.
    The value is optimistic: the threshold is tuned on the data it is measured on.
    """
    s, pos = _binary_pair(scores, labels)
    sizes = _class_sizes(pos)
    if sizes is None:
        return math.nan, math.nan
    n_pos, n_neg = sizes
    uniq, code = np.unique(s, return_inverse=True)
    code = code.ravel()
    pos_at = np.bincount(code[pos], minlength=uniq.size)
    neg_at = np.bincount(code[~pos], minlength=uniq.size)
    # Threshold k lies between uniq[k] and uniq[k + 1]: items with code > k are predicted 1.
    tp = np.cumsum(pos_at[::-1])[::-1][1:]
    tn = np.cumsum(neg_at)[:-1]
    ba = np.r_[(tp / n_pos + tn / n_neg) / 2, 0.5]
    thresholds = np.r_[(uniq[:-1] + uniq[1:]) / 2, uniq[-1]]
    k = int(np.argmax(ba))
    return float(thresholds[k]), float(ba[k])
