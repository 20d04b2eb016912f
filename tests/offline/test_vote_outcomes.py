"""A vote's outcome read by the noun of what is voted on (`offline/motions.py`).

The sources and summaries are written for these tests: a reversed outcome is cited, and
faithful restatements, other votes and negated outcomes are left alone.
"""

from __future__ import annotations

import pytest

from sumjudge.offline import OfflineScorer
from sumjudge.offline.motions import reversed_outcome
from sumjudge.offline.source import analyse_source

_PARK = (
    "Chair: Item four is the motion to close the car park on Sundays.\n"
    "Ines: I think it will hurt the market traders.\n"
    "Paul: The traders park behind the hall, not in the car park.\n"
    "Chair: Those in favour? Seven. Against? Three.\n"
    "Chair: The motion is carried, seven to three."
)


def _cited(source: str, summary: str) -> str:
    return reversed_outcome(summary, analyse_source(source, None))


@pytest.mark.parametrize(
    "summary",
    [
        "The motion to close the car park on Sundays was defeated, 7 to 3.",
        "The motion to close the car park on Sundays failed.",
        "The members rejected the motion to close the car park on Sundays.",
    ],
)
def test_a_reversed_outcome_is_cited(summary: str) -> None:
    assert _cited(_PARK, summary) == "Chair: The motion is carried, seven to three."


@pytest.mark.parametrize(
    "summary",
    [
        # faithful twins
        "The motion to close the car park on Sundays was carried, 7 to 3.",
        "The motion to close the car park on Sundays passed with no abstentions.",
        # a negated outcome: which way it goes is not the bare word
        "The motion to close the car park was not defeated.",
        # a question asserts nothing
        "Was the motion defeated?",
        # both sides in one sentence
        "An amendment was rejected and the motion carried.",
    ],
)
def test_faithful_outcomes_are_left_alone(summary: str) -> None:
    assert _cited(_PARK, summary) == ""


def test_another_vote_or_noun_is_not_the_same_vote() -> None:
    source = (
        "Chair: First the amendment to cut the grant. Against? Most. The amendment falls.\n"
        "Omar: Can we vote on the motion now?\n"
        "Chair: Yes. The motion is carried, nine to two."
    )
    # the amendment fell: a summary saying the motion passed is about the other vote
    assert _cited(source, "The motion was carried.") == ""
    assert _cited(source, "The amendment to cut the grant failed.") == ""
    assert _cited(source, "The amendment to cut the grant was approved.") == (
        "Chair: The amendment falls."
    )
    # a tally with no number in common is another vote
    assert _cited(source, "The motion was defeated 4 to 6.") == ""


def test_two_votes_on_one_noun_clear_both_outcomes() -> None:
    source = (
        "Chair: The motion on parking is carried.\n"
        "Omar: And the signs?\n"
        "Chair: The motion on signage is defeated."
    )
    assert _cited(source, "The motion on signage was defeated.") == ""
    assert _cited(source, "The motion on parking was defeated.") == ""


def test_indonesian_outcome() -> None:
    source = (
        "Ketua: Usulan memasang lampu jalan di gang tiga kita putuskan sekarang.\n"
        "Bu Rina: Saya setuju, gang tiga gelap sekali.\n"
        "Ketua: Sebagian besar setuju. Usulan disetujui."
    )
    assert _cited(source, "Usulan memasang lampu jalan ditolak warga.") == (
        "Ketua: Usulan disetujui."
    )
    assert _cited(source, "Usulan memasang lampu jalan disetujui warga.") == ""


def test_the_scorer_flags_the_reversed_outcome() -> None:
    scorer = OfflineScorer(use_embeddings=False)
    bad = scorer.analyse(_PARK, "The motion to close the car park on Sundays failed, 7 to 3.")
    good = scorer.analyse(_PARK, "The motion to close the car park on Sundays carried, 7 to 3.")
    assert any(si.contradicts for si in bad.sentences)
    assert not any(si.contradicts for si in good.sentences)
