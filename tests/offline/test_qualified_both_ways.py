"""One thing qualified both ways (`offline/qualified.py`): "paid on time" / "paid late".

The sources and summaries are written for these tests: a reversed verdict on one thing is
cited with a single shared word, and faithful twins, negated verdicts and sources giving
both sides are left alone.
"""

from __future__ import annotations

import pytest

from sumjudge.offline import OfflineScorer
from sumjudge.offline.qualified import qualified_both_ways

_QUOTES = [
    "Agent: I can see the March bill here.",
    "Agent: The March bill was paid late, on the 9th.",
    "Agent: So the reminder letter was correct.",
]


@pytest.mark.parametrize(
    ("summary", "quoted"),
    [
        (
            "The agent said the bill was paid on time.",
            "Agent: The March bill was paid late, on the 9th.",
        ),
        ("The reminder letter was wrong.", "Agent: So the reminder letter was correct."),
    ],
)
def test_the_other_side_on_the_same_thing_is_cited(summary: str, quoted: str) -> None:
    assert qualified_both_ways(summary, _QUOTES) == quoted


@pytest.mark.parametrize(
    "summary",
    [
        # faithful twins
        "The agent said the bill was paid late.",
        "The reminder letter was correct.",
        # a negation near the contrary word: not the bare word
        "The bill was not paid on time.",
        "The reminder letter wasn't wrong.",
        # the contrary word qualifies something else
        "The agent was on time for the call about the bill payment.",
        # both sides in the summary sentence
        "One letter was correct and one was wrong.",
    ],
)
def test_faithful_or_unread_sentences_are_left_alone(summary: str) -> None:
    assert qualified_both_ways(summary, _QUOTES) == ""


def test_a_source_giving_both_sides_is_not_contradicted() -> None:
    quotes = [
        "Tom: The first parcel was delivered correctly.",
        "Tom: The second went to the wrong house.",
    ]
    assert qualified_both_ways("A parcel was delivered to the wrong house.", quotes) == ""


def test_the_scorer_cites_it() -> None:
    scorer = OfflineScorer(use_embeddings=False)
    source = (
        "Gita: My parcel says delivered, but it is not here.\n"
        "Agent: The photo shows door 14.\n"
        "Agent: You live at 41, so it was delivered to the wrong address.\n"
        "Gita: What happens now?\n"
        "Agent: The driver collects it tomorrow and brings it to you."
    )
    bad = scorer.analyse(source, "The agent found that the parcel was delivered correctly.")
    good = scorer.analyse(
        source, "The agent found that the parcel was delivered to the wrong address."
    )
    assert [si.contradicts for si in bad.sentences if si.contradicts] == [
        "Agent: You live at 41, so it was delivered to the wrong address."
    ]
    assert not any(si.contradicts for si in good.sentences)
