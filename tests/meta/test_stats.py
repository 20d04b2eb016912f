"""Tests for sumjudge.meta.stats: correlations, grouping rules, binary metrics, bootstrap."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sumjudge.meta import stats
from sumjudge.meta.stats import (
    balanced_accuracy,
    balanced_accuracy_at,
    best_threshold_balanced_accuracy,
    bootstrap_ci,
    kendall_tau_b,
    pooled,
    roc_auc,
    spearman,
    summary_level,
    summary_level_statistic,
    system_level,
    system_level_statistic,
)

scipy_stats = pytest.importorskip("scipy.stats")

# Likert means of 3 raters (thirds) against integer judge scores: many ties on both sides.
HUMAN = [1.0, 4 / 3, 2.0, 2.0, 3 + 2 / 3, 4.0, 4.0, 5.0, 1 + 2 / 3, 3.0, 3.0, 4 + 1 / 3]
JUDGE = [1.0, 2.0, 2.0, 1.0, 4.0, 5.0, 3.0, 5.0, 2.0, 3.0, 4.0, 4.0]


# --- correlations ----------------------------------------------------------------------------


def test_correlations_match_scipy_on_fixed_tied_data() -> None:
    assert spearman(JUDGE, HUMAN) == pytest.approx(
        scipy_stats.spearmanr(JUDGE, HUMAN).statistic, abs=1e-12
    )
    assert kendall_tau_b(JUDGE, HUMAN) == pytest.approx(
        scipy_stats.kendalltau(JUDGE, HUMAN, variant="b").statistic, abs=1e-12
    )


def test_tau_b_with_ties_hand_computed() -> None:
    # x = [1, 1, 2, 3], y = [1, 2, 2, 3]: 6 pairs; concordant 4, discordant 0,
    # one pair tied on x, one on y -> tau_b = 4 / sqrt(5 * 5) = 0.8.
    assert kendall_tau_b([1, 1, 2, 3], [1, 2, 2, 3]) == pytest.approx(0.8)
    # tau-a would be 4 / 6; tau-b corrects for ties.
    assert kendall_tau_b([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)


def test_tau_b_large_continuous_input_uses_pairwise_path(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(size=300)
    y = x + rng.normal(size=300)
    expected = scipy_stats.kendalltau(x, y, variant="b").statistic
    monkeypatch.setattr(stats, "_MAX_TABLE_CELLS", 10)
    assert kendall_tau_b(x, y) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("fn", [spearman, kendall_tau_b])
def test_constant_or_tiny_input_is_nan(fn: Callable[[stats.Values, stats.Values], float]) -> None:
    assert math.isnan(fn([2, 2, 2], [1, 2, 3]))
    assert math.isnan(fn([1, 2, 3], [4, 4, 4]))
    assert math.isnan(fn([1], [1]))
    assert math.isnan(fn([], []))


def test_missing_values_are_dropped_pairwise() -> None:
    x = [1.0, None, 3.0, 4.0, math.nan, 2.0]
    y = [1.0, 5.0, None, 4.0, 2.0, 3.0]
    assert spearman(x, y) == pytest.approx(scipy_stats.spearmanr([1, 4, 2], [1, 4, 3]).statistic)
    r = pooled(x, y, "kendall")
    assert (r.n_items, r.n_missing) == (3, 3)


def test_length_mismatch_raises() -> None:
    with pytest.raises(ValueError, match="length"):
        spearman([1, 2], [1, 2, 3])


likert = st.sampled_from([1.0, 2.0, 3.0, 4.0, 5.0, 2.5, 1 / 3])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(likert, likert), min_size=2, max_size=40))
def test_correlations_match_scipy_property(pairs: list[tuple[float, float]]) -> None:
    x = [p[0] for p in pairs]
    y = [p[1] for p in pairs]
    if len(set(x)) < 2 or len(set(y)) < 2:
        assert math.isnan(spearman(x, y)) and math.isnan(kendall_tau_b(x, y))
        return
    assert spearman(x, y) == pytest.approx(scipy_stats.spearmanr(x, y).statistic, abs=1e-9)
    tau = scipy_stats.kendalltau(x, y, variant="b").statistic
    assert kendall_tau_b(x, y) == pytest.approx(tau, abs=1e-9)


# --- grouping rules --------------------------------------------------------------------------


def test_summary_level_skips_singletons_and_constant_human_and_zeroes_constant_pred() -> None:
    groups = ["a"] * 3 + ["b"] * 3 + ["c"] + ["d"] * 3 + ["e"] * 2
    #        a--------  b--------  c  d--------  e------
    human = [1, 2, 3, 1, 2, 3, 4, 2, 2, 2, 1, None]
    pred = [1, 2, 3, 5, 5, 5, 4, 1, 2, 3, 1, 2]
    r = summary_level(pred, human, groups, "spearman")
    # a: 1.0, b: constant judge -> 0.0; c: singleton, d: constant human, e: 1 item left.
    assert r.value == pytest.approx(0.5)
    assert (r.n_groups_used, r.n_groups_skipped) == (2, 3)
    assert (r.n_items, r.n_missing) == (6, 1)


def test_summary_level_can_skip_constant_pred_like_geval() -> None:
    groups = ["a"] * 3 + ["b"] * 3
    human = [1, 2, 3, 1, 2, 3]
    pred = [1, 2, 3, 5, 5, 5]
    r = summary_level(pred, human, groups, "kendall", constant_pred="skip")
    assert r.value == pytest.approx(1.0)
    assert (r.n_groups_used, r.n_groups_skipped) == (1, 1)


def test_summary_level_all_skipped_is_nan() -> None:
    r = summary_level([1, 2], [3, 3], ["a", "a"])
    assert math.isnan(r.value) and r.n_groups_used == 0 and r.n_groups_skipped == 1


def test_summary_level_is_mean_of_per_group_scipy_values() -> None:
    rng = np.random.default_rng(0)
    groups = np.repeat(np.arange(10), 8)
    human = rng.integers(1, 6, groups.size).astype(float)
    pred = human + rng.integers(-2, 3, groups.size)
    expected = [
        scipy_stats.kendalltau(pred[groups == g], human[groups == g]).statistic
        for g in range(10)
        if len(set(human[groups == g])) > 1
    ]
    r = summary_level(pred, human, groups, "kendall")
    assert r.value == pytest.approx(float(np.mean(expected)))


def test_system_level_correlates_system_means() -> None:
    systems = ["s1", "s2", "s3", "s4"] * 2
    human = [1, 2, 3, 4, 1, 2, 3, 5]
    pred = [2, 1, 3, 4, 2, 2, 3, None]
    r = system_level(pred, human, systems, "spearman")
    # means: pred s1 2, s2 1.5, s3 3, s4 4; human s1 1, s2 2, s3 3, s4 4 (s4 only first item)
    assert r.value == pytest.approx(scipy_stats.spearmanr([2, 1.5, 3, 4], [1, 2, 3, 4]).statistic)
    assert (r.n_groups_used, r.n_groups_skipped, r.n_missing) == (4, 0, 1)
    assert math.isnan(system_level([1, 2], [1, 2], ["a", "b"]).value)  # fewer than 3 systems


# --- binary labels ---------------------------------------------------------------------------


def brute_force_auc(scores: list[float], labels: list[int]) -> float:
    pos = [s for s, y in zip(scores, labels, strict=True) if y == 1]
    neg = [s for s, y in zip(scores, labels, strict=True) if y == 0]
    wins = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p, n in itertools.product(pos, neg))
    return wins / (len(pos) * len(neg))


def test_roc_auc_fixed() -> None:
    assert roc_auc([1, 2, 3, 4], [0, 0, 1, 1]) == 1.0
    assert roc_auc([1, 2, 3, 4], [1, 1, 0, 0]) == 0.0
    assert roc_auc([3, 3, 3, 3], [0, 1, 0, 1]) == 0.5
    assert roc_auc([1, 3, 3, 2], [0, 1, 0, 1]) == pytest.approx(2.5 / 4)  # one tie, one loss
    assert math.isnan(roc_auc([1, 2], [1, 1]))
    with pytest.raises(ValueError, match="0 or 1"):
        roc_auc([1, 2], [0, 2])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 5), st.integers(0, 1)), min_size=2, max_size=50))
def test_roc_auc_matches_brute_force(pairs: list[tuple[int, int]]) -> None:
    scores = [float(p[0]) for p in pairs]
    labels = [p[1] for p in pairs]
    auc = roc_auc(scores, labels)
    if len(set(labels)) < 2:
        assert math.isnan(auc)
    else:
        assert auc == pytest.approx(brute_force_auc(scores, labels))


def test_balanced_accuracy() -> None:
    # 3 positives, 1 predicted positive -> TPR 1/3; 2 negatives, both right -> TNR 1.
    assert balanced_accuracy([1, 0, 0, 0, 0], [1, 1, 1, 0, 0]) == pytest.approx(2 / 3)
    assert balanced_accuracy([True, False], [1, 0]) == 1.0
    assert math.isnan(balanced_accuracy([1, 0], [1, 1]))
    # score 3 on a 1-3 scale is "consistent" at threshold 2.5 (strictly above).
    assert balanced_accuracy_at([3, 2, 1, 3], [1, 0, 0, 0], 2.5) == pytest.approx((1 + 2 / 3) / 2)
    assert balanced_accuracy_at([3, 2, 1], [1, 1, 0], 2.0) == pytest.approx(0.75)


def brute_force_best(scores: list[float], labels: list[int]) -> float:
    cands = [min(scores) - 1, *scores]
    return max(balanced_accuracy_at(scores, labels, t) for t in cands)


def test_best_threshold_fixed() -> None:
    thr, ba = best_threshold_balanced_accuracy([1, 2, 3, 3, 2, 1], [0, 0, 1, 1, 1, 0])
    assert thr == 1.5 and ba == pytest.approx((1 + 2 / 3) / 2)
    thr, ba = best_threshold_balanced_accuracy([1, 1, 2, 3], [0, 0, 1, 1])
    assert (thr, ba) == (1.5, 1.0)
    assert best_threshold_balanced_accuracy([2, 2], [0, 1]) == (2.0, 0.5)
    assert best_threshold_balanced_accuracy([1, 2], [1, 0]) == (2.0, 0.5)  # never below 0.5
    assert all(math.isnan(v) for v in best_threshold_balanced_accuracy([1, 2], [0, 0]))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 5), st.integers(0, 1)), min_size=2, max_size=40))
def test_best_threshold_matches_brute_force(pairs: list[tuple[int, int]]) -> None:
    scores = [float(p[0]) for p in pairs]
    labels = [p[1] for p in pairs]
    thr, ba = best_threshold_balanced_accuracy(scores, labels)
    if len(set(labels)) < 2:
        assert math.isnan(ba)
        return
    assert ba == pytest.approx(max(brute_force_best(scores, labels), 0.5))
    assert balanced_accuracy_at(scores, labels, thr) == pytest.approx(ba)


# --- bootstrap -------------------------------------------------------------------------------


def _correlated_groups(
    n_groups: int = 30, size: int = 6, noise: float = 0.8
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    groups = np.repeat(np.arange(n_groups), size)
    human = rng.integers(1, 6, groups.size).astype(float)
    pred = np.round(human + rng.normal(0, noise, groups.size))
    return pred, human, groups


def test_bootstrap_is_deterministic_and_contains_estimate() -> None:
    pred, human, groups = _correlated_groups()

    def fn(i: stats.IntArray, g: stats.IntArray) -> float:
        return spearman(pred[i], human[i])

    a = bootstrap_ci(fn, groups, n_resamples=300, seed=11)
    b = bootstrap_ci(fn, groups, n_resamples=300, seed=11)
    c = bootstrap_ci(fn, groups, n_resamples=300, seed=12)
    assert a == b
    assert (a.ci_low, a.ci_high) != (c.ci_low, c.ci_high)
    assert a.estimate == pytest.approx(pooled(pred, human).value)
    assert a.ci_low < a.estimate < a.ci_high
    assert a.n_invalid == 0


def test_bootstrap_resamples_whole_groups_and_counts_duplicates_separately() -> None:
    seen: list[tuple[np.ndarray, np.ndarray]] = []
    groups = ["x", "x", "y", "z", "z", "z"]

    def fn(i: stats.IntArray, g: stats.IntArray) -> float:
        seen.append((i.copy(), g.copy()))
        return float(len(i))

    bootstrap_ci(fn, groups, n_resamples=50, seed=0)
    members = {0: [0, 1], 1: [2], 2: [3, 4, 5]}
    codes = [0, 0, 1, 2, 2, 2]
    for indices, group_ids in seen[1:]:
        assert sorted(set(group_ids.tolist())) == [0, 1, 2]  # one draw per original group
        for draw in range(3):
            rows = indices[group_ids == draw].tolist()
            assert rows == members[codes[rows[0]]]


def test_summary_level_statistic_equals_generic_recomputation() -> None:
    pred, human, groups = _correlated_groups(n_groups=12, size=4, noise=1.5)
    pred[3] = np.nan
    fast = summary_level_statistic(pred, human, groups, "kendall")

    def slow(i: stats.IntArray, g: stats.IntArray) -> float:
        return summary_level(pred[i], human[i], g, "kendall").value

    a = bootstrap_ci(fast, groups, n_resamples=200, seed=3)
    b = bootstrap_ci(slow, groups, n_resamples=200, seed=3)
    assert a.estimate == pytest.approx(summary_level(pred, human, groups, "kendall").value)
    assert a.estimate == pytest.approx(b.estimate)
    assert a.ci_low == pytest.approx(b.ci_low) and a.ci_high == pytest.approx(b.ci_high)
    assert a.ci_low <= a.estimate <= a.ci_high


def test_system_level_statistic_matches_system_level() -> None:
    pred, human, _ = _correlated_groups(n_groups=10, size=5)
    systems = np.tile(np.arange(5), 10)
    fn = system_level_statistic(pred, human, systems, "spearman")
    everything = np.arange(pred.size, dtype=np.intp)
    assert fn(everything, everything) == pytest.approx(system_level(pred, human, systems).value)


def test_bootstrap_drops_nan_replicates_and_reports_them() -> None:
    groups = [0, 1, 2, 3]

    def fn(i: stats.IntArray, g: stats.IntArray) -> float:
        return math.nan if 0 in i else 1.0

    r = bootstrap_ci(fn, groups, n_resamples=200, seed=0)
    assert math.isnan(r.estimate)
    assert 0 < r.n_invalid < 200 and r.ci_low == r.ci_high == 1.0
    none = bootstrap_ci(lambda i, g: math.nan, groups, n_resamples=20)
    assert none.n_invalid == 20 and math.isnan(none.ci_low)
