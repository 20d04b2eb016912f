"""`CallStats.since`: every counter, the token usage included, minus its snapshot."""

from __future__ import annotations

from dataclasses import fields

from sumjudge.accounting import CallStats
from sumjudge.protocol import Usage


def test_since_subtracts_every_counter_from_its_snapshot() -> None:
    before = CallStats(4, 5, 1, Usage(300, 100, 10, 2), 0.25, 1, 0)
    now = CallStats(10, 12, 3, Usage(1000, 200, 50, 7), 1.0, 2, 3)
    run = now.since(before)
    assert run == CallStats(6, 7, 2, Usage(700, 100, 40, 5), 0.75, 1, 3)
    # each counter checked by name, so a field order mistake cannot pass
    for f in fields(CallStats):
        assert getattr(run, f.name) == getattr(now, f.name) - getattr(before, f.name)


def test_since_a_fresh_snapshot_is_the_counters_themselves() -> None:
    now = CallStats(2, 3, 1, Usage(40, 5, 0, 0), 0.5, 1, 1)
    assert now.since(CallStats()) == now
