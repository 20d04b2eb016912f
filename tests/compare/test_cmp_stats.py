"""The comparison's statistics against scipy and independent resamplers."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
import scipy.stats as st
from hypothesis import given, settings
from hypothesis import strategies as hs

from sumjudge.compare.stats import (
    EXACT_MAX_N,
    holm,
    paired_bootstrap,
    sign_test,
    wilcoxon_min_p,
    wilcoxon_pratt,
    wilson,
)


def _brute_force_p(d: list[float]) -> float:
    """Exact two-sided p by enumerating every sign pattern of the non-zero differences."""
    arr = np.asarray(d, dtype=float)
    ranks = st.rankdata(np.abs(arr))
    nz = arr != 0
    kept = ranks[nz]
    observed = ranks[arr > 0].sum()
    sums = [
        sum(r for r, s in zip(kept, signs, strict=True) if s)
        for signs in itertools.product((0, 1), repeat=len(kept))
    ]
    sums = np.array(sums)
    lower, upper = (sums <= observed + 1e-9).mean(), (sums >= observed - 1e-9).mean()
    return min(1.0, 2 * min(lower, upper))


FIXED = [
    [1, 2, -1, 3, 0, 2, 1, 1, -2, 4, 1, 0],
    [0.5, -0.25, 1.5, 2.0, 0.75, -1.0, 0.33, 1.25],
    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
]


@pytest.mark.parametrize("d", FIXED)
def test_exact_matches_enumeration_with_ties_and_zeros(d: list[float]) -> None:
    result = wilcoxon_pratt(d)
    assert result.method == "wilcoxon-pratt-exact"
    assert result.p_value == pytest.approx(_brute_force_p(d), abs=1e-12)


def test_exact_matches_scipy_exact_without_ties() -> None:
    rng = np.random.default_rng(3)
    for n in (6, 12, 20, EXACT_MAX_N):
        d = rng.normal(size=n)
        ours = wilcoxon_pratt(d)
        theirs = st.wilcoxon(d, zero_method="pratt", method="exact")
        assert ours.p_value == pytest.approx(theirs.pvalue, rel=1e-9)
        assert ours.statistic == pytest.approx(theirs.statistic)


def test_normal_approximation_matches_scipy_on_fixed_data() -> None:
    # 50 integer score differences with many ties and zeros, as judge scores give.
    d = [1, 0, 0, 1, -1, 2, 0, 1, 1, 0] * 4 + [1, 1, -2, 0, 1, 0, 1, 1, 0, -1]
    ours = wilcoxon_pratt(d)
    theirs = st.wilcoxon(d, zero_method="pratt", method="approx", correction=False)
    assert ours.method == "wilcoxon-pratt-normal"
    assert ours.p_value == pytest.approx(theirs.pvalue, rel=1e-9)


@settings(max_examples=60, deadline=None)
@given(hs.lists(hs.integers(-3, 3), min_size=EXACT_MAX_N + 1, max_size=90))
def test_normal_approximation_matches_scipy(d: list[int]) -> None:
    ours = wilcoxon_pratt(d)
    if ours.n_nonzero <= EXACT_MAX_N:  # few non-zero: the exact branch, checked elsewhere
        assert ours.method in ("wilcoxon-pratt-exact", "wilcoxon-pratt (all differences zero)")
        return
    theirs = st.wilcoxon(d, zero_method="pratt", method="approx", correction=False)
    assert ours.p_value == pytest.approx(theirs.pvalue, rel=1e-7, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(hs.lists(hs.integers(-2, 2), min_size=1, max_size=12))
def test_exact_matches_enumeration(d: list[int]) -> None:
    ours = wilcoxon_pratt(d)
    if ours.n_nonzero == 0:
        assert ours.p_value == 1.0
        return
    assert ours.p_value == pytest.approx(_brute_force_p(d), abs=1e-12)


def test_all_zero_differences_give_p_one() -> None:
    assert wilcoxon_pratt([0.0] * 30).p_value == 1.0


def test_bootstrap_matches_scipy_bootstrap_on_items() -> None:
    rng = np.random.default_rng(7)
    d = rng.integers(-1, 3, size=60).astype(float)
    low, high = paired_bootstrap(d, n_resamples=20000, seed=1)
    ref = st.bootstrap((d,), np.mean, n_resamples=20000, method="percentile", random_state=2)
    assert low == pytest.approx(ref.confidence_interval.low, abs=0.03)
    assert high == pytest.approx(ref.confidence_interval.high, abs=0.03)
    assert low < d.mean() < high


def _cluster_resampler(d: list[float], groups: list[str], n: int, seed: int) -> tuple[float, float]:
    """An independent cluster bootstrap: plain Python, its own random generator."""
    rnd = random.Random(seed)
    clusters: dict[str, list[float]] = {}
    for value, g in zip(d, groups, strict=True):
        clusters.setdefault(g, []).append(value)
    keys = list(clusters)
    stats = []
    for _ in range(n):
        drawn = [clusters[rnd.choice(keys)] for _ in keys]
        values = [v for c in drawn for v in c]
        stats.append(sum(values) / len(values))
    stats.sort()
    return stats[int(0.025 * n)], stats[int(0.975 * n) - 1]


def test_cluster_bootstrap_matches_an_independent_resampler() -> None:
    rng = np.random.default_rng(11)
    # 20 sources with 3 summaries each; a source effect makes the clusters matter.
    effect = rng.normal(0, 1, size=20)
    d = [float(effect[g] + rng.normal(0, 0.2)) for g in range(20) for _ in range(3)]
    groups = [f"doc{g}" for g in range(20) for _ in range(3)]
    low, high = paired_bootstrap(d, groups, n_resamples=20000, seed=0)
    ref_low, ref_high = _cluster_resampler(d, groups, 20000, seed=5)
    assert low == pytest.approx(ref_low, abs=0.05)
    assert high == pytest.approx(ref_high, abs=0.05)
    item_low, item_high = paired_bootstrap(d, n_resamples=20000, seed=0)
    # Treating the 60 items as independent understates the uncertainty.
    assert (high - low) > 1.3 * (item_high - item_low)


def test_bootstrap_is_reproducible_with_its_seed() -> None:
    d = [1.0, 0.0, 2.0, -1.0, 1.0, 0.0]
    assert paired_bootstrap(d, seed=4) == paired_bootstrap(d, seed=4)
    assert paired_bootstrap([0.0] * 10) == (0.0, 0.0)


def test_holm_against_hand_computed_values() -> None:
    assert holm([0.01, 0.04, 0.03, 0.20]) == pytest.approx([0.04, 0.09, 0.09, 0.20])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert holm([]) == []


@pytest.mark.parametrize(("k", "n"), [(0, 10), (3, 10), (10, 10), (37, 50), (1, 1)])
def test_wilson_matches_scipy(k: int, n: int) -> None:
    ref = st.binomtest(k, n).proportion_ci(method="wilson")
    low, high = wilson(k, n)
    assert low == pytest.approx(ref.low, abs=1e-12)
    assert high == pytest.approx(ref.high, abs=1e-12)


@pytest.mark.parametrize(("worse", "better"), [(0, 0), (3, 0), (2, 9), (10, 10), (1, 6)])
def test_sign_test_matches_scipy_binomtest(worse: int, better: int) -> None:
    expected = 1.0 if worse + better == 0 else st.binomtest(worse, worse + better).pvalue
    assert sign_test(worse, better) == pytest.approx(expected, rel=1e-12)


@settings(max_examples=50, deadline=None)
@given(
    hs.lists(hs.integers(-2, 2), min_size=1, max_size=40),
    hs.integers(-3, 3),
    hs.integers(0, 2**16),
)
def test_bootstrap_properties(d: list[int], shift: int, seed: int) -> None:
    low, high = paired_bootstrap(d, n_resamples=300, seed=seed)
    assert min(d) <= low <= high <= max(d)
    # The same seed draws the same items: shifting the data shifts the interval.
    s_low, s_high = paired_bootstrap([x + shift for x in d], n_resamples=300, seed=seed)
    assert (s_low, s_high) == pytest.approx((low + shift, high + shift))
    # One group per item is the item bootstrap.
    groups = [f"g{i}" for i in range(len(d))]
    assert paired_bootstrap(d, groups, n_resamples=300, seed=seed) == (low, high)


@pytest.mark.parametrize("n", [1, 4, 6, 25, 26, 40])
def test_wilcoxon_min_p_is_the_all_one_sign_outcome(n: int) -> None:
    # Every difference negative gives the smallest p the exact test can give, ties or not;
    # above EXACT_MAX_N the normal approximation's smallest p is at all ranks tied.
    tied = -np.array([1 + i // 3 for i in range(n)], dtype=float)
    if n <= EXACT_MAX_N:
        assert wilcoxon_min_p(n) == pytest.approx(wilcoxon_pratt(tied).p_value, rel=1e-9)
    else:
        assert wilcoxon_min_p(n) < wilcoxon_pratt(tied).p_value
        same = -np.ones(n)
        assert wilcoxon_min_p(n) == pytest.approx(wilcoxon_pratt(same).p_value, rel=1e-9)
    if n > 1:  # one difference of the other sign: a larger p
        mixed = tied.copy()
        mixed[0] = -mixed[0]
        assert wilcoxon_pratt(mixed).p_value > wilcoxon_min_p(n)
    assert wilcoxon_min_p(0) == 1.0
