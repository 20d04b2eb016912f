"""A yes-no question that names its proposal by a pronoun (`offline/replies.py`).

"The bike shed idea came up again. Are we doing it?" / "No." is read with the sentence
before it. The sources and summaries are written for these tests.
"""

from __future__ import annotations

import pytest

from sumjudge.offline import OfflineScorer
from sumjudge.offline.replies import answered
from sumjudge.offline.source import analyse_source

from .conftest import contradicted

_SOURCE = (
    "Hana: Next, the printed staff newsletter. Are we bringing it back?\n"
    "Luis: No, the printed newsletter stays cancelled this year; the budget is spent.\n"
    "Hana: Fine. Then the email version goes out on Fridays."
)


def test_the_question_is_read_with_the_sentence_naming_it() -> None:
    info = analyse_source(_SOURCE, None)
    got = answered(info.units[0], info.units[1])
    assert got is not None
    question, yes, _ = got
    assert not yes
    assert "newsletter" in question


def test_a_question_naming_its_proposal_is_read_as_it_is() -> None:
    source = (
        "Ada: Morning, Ben.\n"
        "Ben: Morning.\n"
        "Ada: We talked about it. Are we moving the stand-up to ten?\n"
        "Ben: Yes, from Monday."
    )
    info = analyse_source(source, None)
    got = answered(info.units[2], info.units[3])
    assert got is not None
    assert got[0].endswith("?")


def test_a_declined_proposal_stated_as_done_is_cited(lex: OfflineScorer) -> None:
    a = lex.analyse(_SOURCE, "The printed staff newsletter is being brought back.")
    assert [si.contradicts for si in a.sentences if si.contradicts] == [
        "Hana: Are we bringing it back? / Luis: No, the printed newsletter stays cancelled"
        " this year; the budget is spent."
    ]


@pytest.mark.parametrize(
    "summary",
    [
        "The printed staff newsletter is not being brought back this year.",
        "The email newsletter goes out on Fridays.",
    ],
)
def test_faithful_twins_are_not_cited(lex: OfflineScorer, summary: str) -> None:
    assert not contradicted(lex, _SOURCE, summary)
