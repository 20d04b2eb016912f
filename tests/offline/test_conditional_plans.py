"""A plan the source makes conditional, summarised as done at once (`offline/polarity.py`).

"If the fan still rattles next week, call us and we'll book an engineer visit" against
"An engineer visit was booked straight away". The sources and summaries are written for
these tests.
"""

from __future__ import annotations

import pytest

from sumjudge.offline import OfflineScorer
from sumjudge.offline.decisions import contrary_sides
from sumjudge.offline.polarity import clauses

from .conftest import contradicted

_SOURCE = (
    "Agent: Thanks for waiting. Please clean the filter first; that fixes most noise.\n"
    "Customer: Okay.\n"
    "Agent: If the fan still rattles next week, call us with reference 88120 and we'll book"
    " an engineer visit.\n"
    "Customer: Thanks."
)


def test_the_clauses_of_a_sentence_opening_with_its_condition_are_conditional() -> None:
    (k, side), *_ = contrary_sides(["only", "if"])
    got = clauses("If it still rattles, call us and we'll book an engineer visit.")
    free = clauses("We'll book an engineer visit straight away.")
    assert all((k, side) in c.sides for c in got)
    assert (k, 1 - side) in free[0].sides


@pytest.mark.parametrize(
    "summary",
    [
        "An engineer visit was booked straight away for the rattling fan.",
        "The agent booked an engineer visit immediately, without waiting for next week.",
    ],
)
def test_a_conditional_plan_done_at_once_is_cited(lex: OfflineScorer, summary: str) -> None:
    got = contradicted(lex, _SOURCE, summary)
    assert len(got) == 1
    assert got[0].startswith("Agent: If the fan")


@pytest.mark.parametrize(
    "summary",
    [
        "If the fan still rattles next week, he calls back and an engineer visit is booked.",
        "An engineer visit will be booked if the fan still rattles next week.",
        "The customer will clean the filter first.",
    ],
)
def test_faithful_twins_are_not_cited(lex: OfflineScorer, summary: str) -> None:
    assert not contradicted(lex, _SOURCE, summary)
