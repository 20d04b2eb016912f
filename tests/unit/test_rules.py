"""The rule book against the specification's table, for every score and metric subset."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sumjudge.rules import DEFAULT_RULE_BOOK, RuleBook, normalize, rate

METRICS = ("coherence", "consistency", "relevance", "fluency")
GOOD = {"coherence": 2, "consistency": 3, "relevance": 3, "fluency": 2}


def spec_rating(scores: dict[str, int], enabled: list[str]) -> str:
    """The specification's rules, written independently of the implementation."""
    if any(scores[m] <= 1 for m in enabled):
        return "bad"
    if all(scores[m] >= GOOD[m] for m in enabled):
        return "good"
    return "incomplete"


SUBSETS = [list(c) for r in range(1, 5) for c in itertools.combinations(METRICS, r)]


@pytest.mark.parametrize("enabled", SUBSETS, ids=lambda s: "+".join(s))
def test_every_combination_matches_spec(enabled: list[str]) -> None:
    for values in itertools.product((1, 2, 3), repeat=4):
        scores = dict(zip(METRICS, values, strict=True))
        r = rate(scores, enabled)
        expected = spec_rating(scores, enabled)
        assert r.relevancy_rating == expected, (scores, enabled)
        assert r.score == {"good": 1.0, "incomplete": 0.5, "bad": 0.0}[expected]
        assert r.binary_score == (1 if expected == "good" else 0)
        norm = [normalize(scores[m]) for m in enabled]
        assert r.avg_score == pytest.approx(round(sum(norm) / len(norm) + 1e-9, 2))
        if expected == "good":
            assert r.global_explanation == "All metrics met the expected values."
            assert r.possible_issues == []
        else:
            short = [m for m in enabled if scores[m] < GOOD[m]]
            assert len(r.possible_issues) == len(short)
            for m in short:
                assert f"{m} scored {scores[m]}" in r.global_explanation


def test_spec_example_aggregates() -> None:
    r = rate({"coherence": 3, "consistency": 3, "relevance": 3, "fluency": 2}, list(METRICS))
    assert (r.relevancy_rating, r.score, r.binary_score, r.avg_score) == ("good", 1.0, 1, 0.92)
    assert normalize(2) == 0.67
    assert normalize(3) == 1.0
    assert normalize(1) == 0.33


@given(
    st.dictionaries(st.sampled_from(METRICS), st.integers(1, 3), min_size=4, max_size=4),
    st.sampled_from(METRICS),
)
def test_rating_is_monotone_in_scores(scores: dict[str, int], bump: str) -> None:
    order = {"bad": 0, "incomplete": 1, "good": 2}
    before = rate(scores, list(METRICS)).relevancy_rating
    higher = dict(scores)
    higher[bump] = min(3, higher[bump] + 1)
    after = rate(higher, list(METRICS)).relevancy_rating
    assert before is not None and after is not None
    assert order[after] >= order[before]


@given(st.permutations(list(METRICS)))
def test_order_of_enabled_metrics_does_not_matter(order: list[str]) -> None:
    scores = {"coherence": 2, "consistency": 2, "relevance": 3, "fluency": 3}
    a = rate(scores, list(METRICS))
    b = rate(scores, order)
    assert (a.relevancy_rating, a.avg_score) == (b.relevancy_rating, b.avg_score)


def test_failed_metric_means_no_rating() -> None:
    r = rate(
        {"coherence": 3, "consistency": None, "relevance": 3, "fluency": 3},
        list(METRICS),
        failures={"consistency": "RateLimitError: rate limited"},
    )
    assert r.relevancy_rating is None
    assert r.score is None and r.binary_score is None and r.avg_score is None
    assert "consistency" in r.global_explanation and "RateLimitError" in r.global_explanation


def test_custom_rule_book() -> None:
    strict = RuleBook.from_dict({m: {"good_at_least": 3, "bad_at_most": 2} for m in METRICS})
    scores = {"coherence": 3, "consistency": 3, "relevance": 3, "fluency": 2}
    assert rate(scores, list(METRICS), DEFAULT_RULE_BOOK).relevancy_rating == "good"
    assert rate(scores, list(METRICS), strict).relevancy_rating == "bad"


def test_rule_book_from_yaml(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "rules.yaml"
    path.write_text("coherence:\n  good_at_least: 3\n")
    book = RuleBook.from_file(path)
    assert rate({"coherence": 2}, ["coherence"], book).relevancy_rating == "incomplete"
