"""Long summaries: pair signals in linear time (pairs.py)."""

from __future__ import annotations

import random

import pytest

from sumjudge.offline import pairs


def test_inversions_counts_every_out_of_order_pair() -> None:
    rng = random.Random(0)
    for n in (0, 1, 2, 7, 60):
        p = [rng.randrange(10) for _ in range(n)]
        slow = sum(1 for i in range(n) for j in range(i + 1, n) if p[j] < p[i])
        assert pairs.inversions(p) == slow


def test_repetition_is_every_pair_up_to_the_span_then_a_band(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    contents = [{"a", "b"}, {"c"}, {"a", "b"}, {"a", "b", "c"}, set(), {"c"}]
    top, found = pairs.repetition(contents)
    assert top == 1.0 and found == [(0, 2), (0, 3), (1, 5), (2, 3)]
    monkeypatch.setattr(pairs, "REPEAT_SPAN", 2)
    assert pairs.repetition(contents)[1] == [(0, 2), (2, 3)]  # each with the next two
