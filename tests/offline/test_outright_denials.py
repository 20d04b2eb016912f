"""A denial of one thing (`offline/denials.py`): "No one was hurt" / "a porter was hurt".

The sources and summaries are written for these tests.
"""

from __future__ import annotations

import pytest

from sumjudge.offline import OfflineScorer

from .conftest import contradicted

_SOURCE = (
    "Mei: Two things from the weekend. A pallet fell off the top shelf in aisle four.\n"
    "Dev: Was anyone near it?\n"
    "Mei: No one was hurt. The shelf is closed until the inspection on Monday.\n"
    "Dev: And the temps for next week, do we book them?\n"
    "Mei: Correct, no temps. The regular shifts cover it.\n"
    "Dev: No problem, I'll tell the team."
)


def _cited(scorer: OfflineScorer, summary: str) -> list[str]:
    return contradicted(scorer, _SOURCE, summary)


@pytest.mark.parametrize(
    ("summary", "quoted"),
    [
        ("A pallet fell in aisle four and a porter was hurt.", "Mei: No one was hurt."),
        ("Temps will be booked for next week.", "Mei: Correct, no temps."),
    ],
)
def test_a_thing_denied_outright_is_cited(lex: OfflineScorer, summary: str, quoted: str) -> None:
    assert _cited(lex, summary) == [quoted]


@pytest.mark.parametrize(
    "summary",
    [
        # faithful twins
        "A pallet fell in aisle four; no one was hurt.",
        "No temps will be booked; the regular shifts cover next week.",
        # an idiom denies nothing
        "Dev had a problem with the shelf in aisle four.",
    ],
)
def test_faithful_twins_and_idioms_are_not_cited(lex: OfflineScorer, summary: str) -> None:
    assert _cited(lex, summary) == []


def test_a_denied_telling_is_not_a_denied_thing() -> None:
    source = (
        "Ana: You were told the router was the fault.\n"
        "Raj: Nobody told me that before today.\n"
        "Ana: I'm sorry. The fault was at the exchange."
    )
    scorer = OfflineScorer(use_embeddings=False)
    a = scorer.analyse(source, "Raj had been wrongly told that the router was the fault.")
    assert not any(si.contradicts for si in a.sentences)
