from __future__ import annotations

import pytest

from sumjudge.align import Label
from sumjudge.review.order import (
    DISAGREE_MIN_LABELS,
    Signals,
    disagreement_rates,
    order_items,
    raw_margin,
    uncertainty_key,
)


def sig(id: str, position: int, **kw: object) -> Signals:
    return Signals(id=id, position=position, **kw)  # type: ignore[arg-type]


def test_input_order_is_the_files() -> None:
    items = [sig("b", 1), sig("a", 0), sig("c", 2)]
    assert order_items(items, "input").ids == ["a", "b", "c"]


def test_random_order_depends_on_the_seed_only() -> None:
    items = [sig(str(k), k) for k in range(20)]
    first = order_items(items, "random", seed=7).ids
    assert first == order_items(list(reversed(items)), "random", seed=7).ids
    assert first != order_items(items, "random", seed=8).ids
    assert sorted(first) == sorted(s.id for s in items)


def test_uncertain_lowest_confidence_first() -> None:
    items = [
        sig("sure", 0, rating_confidence=0.95),
        sig("unsure", 1, rating_confidence=0.4),
        sig("metric-unsure", 2, rating_confidence=0.9, confidences={"coherence": 0.3}),
        sig("panel-split", 3, panel_ranges={"fluency": 2.0}),  # 1 vs 3: confidence 0
        sig("spread", 4, spreads={"relevance": 0.5}),
    ]
    assert order_items(items, "uncertain").ids == [
        "panel-split",
        "metric-unsure",
        "unsure",
        "spread",
        "sure",
    ]


def test_raw_margin_is_distance_to_nearest_cut() -> None:
    assert raw_margin(0.5, (0.4, 0.55)) == pytest.approx(0.05)
    assert raw_margin(0.1, (0.4, 0.55)) == pytest.approx(0.3)


def test_uncertain_offline_raw_margin_then_flags_then_nothing() -> None:
    items = [
        sig("nothing", 0),
        sig("flagged", 1, uncertain=True),
        sig("far", 2, raw_margins={"coherence": 0.3, "fluency": 0.2}),
        sig("near", 3, raw_margins={"coherence": 0.4, "fluency": 0.01}),
        sig("evidence", 4, evidence=2),
        sig("prob", 5, confidences={"coherence": 0.99}),
    ]
    # A probability beats a raw margin (tiers), smallest margin over metrics counts.
    assert order_items(items, "uncertain").ids == [
        "prob",
        "near",
        "far",
        "flagged",
        "evidence",
        "nothing",
    ]
    assert uncertainty_key(items[0])[0] == 3


def _labels(reviewer: str, rows: list[tuple[str, dict[str, int], dict[str, bool]]]) -> list[Label]:
    return [
        Label(id=i, reviewer=reviewer, scores=s, agree=a, judge={"scores": {"coherence": 3.0}})
        for i, s, a in rows
    ]


def test_disagree_falls_back_to_uncertain_with_few_labels() -> None:
    items = [sig("a", 0, rating_confidence=0.9), sig("b", 1, rating_confidence=0.2)]
    labels = _labels("ann", [("a", {"coherence": 1}, {})])
    out = order_items(items, "disagree", labels)
    assert out.ids == ["b", "a"]
    assert f"needs {DISAGREE_MIN_LABELS}" in out.note and "you have 1" in out.note


def test_disagreement_rates_per_metric_and_level() -> None:
    signals = {k: sig(k, 0, scores={"coherence": 3.0}) for k in "abc"}
    labels = [
        Label(id="a", scores={"coherence": 1}, judge={"scores": {"coherence": 3}}),
        Label(id="b", agree={"coherence": True}, judge={"scores": {"coherence": 3}}),
        Label(id="c", agree={"coherence": False}, judge={"scores": {"coherence": 2}}),
    ]
    rates = disagreement_rates(labels, signals)
    assert rates[("coherence", "3")] == (1, 2)
    assert rates[("coherence", "2")] == (1, 1)  # the judge's score when labelled counts


def test_disagree_puts_labelled_first_then_most_disagreed_cells() -> None:
    # The reviewer always disagrees when the judge gives coherence 3, never at 1.
    done = [sig(f"d{k}", k, scores={"coherence": 3.0 if k % 2 else 1.0}) for k in range(6)]
    labels = [
        Label(
            id=s.id,
            reviewer="ann",
            scores={"coherence": 2 if s.scores["coherence"] == 3 else 1},
            judge={"scores": {"coherence": s.scores["coherence"]}},
        )
        for s in done
    ]
    todo = [
        sig("at1", 10, scores={"coherence": 1.0}, rating_confidence=0.1),
        sig("at3", 11, scores={"coherence": 3.0}, rating_confidence=0.9),
        sig("at2", 12, scores={"coherence": 2.0}, rating_confidence=0.5),
    ]
    out = order_items(done + todo, "disagree", labels)
    assert out.note == ""
    assert out.ids[:6] == [s.id for s in done]  # in labelling order
    # at3 sits where the reviewer disagreed 3/3 times; at1 and at2 tie at 0 (at1 first:
    # the judge was less sure of it).
    assert out.ids[6:] == ["at3", "at1", "at2"]


def test_disagree_counts_the_rating() -> None:
    done = [sig(f"d{k}", k, rating="good") for k in range(5)]
    labels = [
        Label(id=s.id, reviewer="ann", rating="bad", judge={"rating": "good", "scores": {}})
        for s in done
    ]
    todo = [sig("bad", 10, rating="bad"), sig("good", 11, rating="good")]
    assert order_items(done + todo, "disagree", labels).ids[5:] == ["good", "bad"]


def test_unknown_order() -> None:
    with pytest.raises(ValueError, match="order must be one of"):
        order_items([], "best")
