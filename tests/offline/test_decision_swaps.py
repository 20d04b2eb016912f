"""A decision given to the other of two people decided together (`offline/decision_swaps.py`).

The sources and summaries are written for these tests.
"""

from __future__ import annotations

import pytest

from sumjudge.offline import OfflineScorer
from sumjudge.offline.decision_swaps import decided
from sumjudge.offline.source import analyse_source

from .conftest import contradicted

_SOURCE = (
    "Grace: We saw three tenders for the cleaning contract: Brightway, Kleen and Ostara.\n"
    "Paul: Brightway is cheapest, but their references were thin.\n"
    "Grace: Then Kleen gets the contract and Brightway stays on the reserve list. We are"
    " rejecting Ostara, their price was double.\n"
    "Paul: Agreed."
)


def test_the_source_decisions_are_read_with_their_names() -> None:
    got = decided(analyse_source(_SOURCE, None).units)
    assert [sorted(d.named) for d in got] == [["ostara"]]


def test_a_decision_given_to_the_other_name_is_cited(lex: OfflineScorer) -> None:
    summary = "Ostara stays on the reserve list; Brightway is rejected."
    got = contradicted(lex, _SOURCE, summary)
    assert got == ["Grace: We are rejecting Ostara, their price was double."]


@pytest.mark.parametrize(
    "summary",
    [
        "Brightway stays on the reserve list; Ostara is rejected.",
        "Kleen gets the contract; Ostara is rejected for its price.",
        "Ostara is rejected, and Kleen is not rejected.",
        "Grace and Paul rejected Ostara.",
    ],
)
def test_faithful_twins_are_not_cited(lex: OfflineScorer, summary: str) -> None:
    assert not contradicted(lex, _SOURCE, summary)
