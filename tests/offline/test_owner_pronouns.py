"""A task said with "it" or "them" is the thing named just before, and an agent's phone
greeting ("<team>, <Name> speaking") makes them the call's agent.

The transcripts are written for these tests.
"""

from __future__ import annotations

import pytest

from sumjudge.offline import OfflineScorer
from sumjudge.offline.assignments import assignments
from sumjudge.offline.dialogue import source_units
from sumjudge.offline.doers import Doers

from .conftest import owner_evidence

STANDUP = (
    "Irene: Two new forklift drivers start on Monday. Paolo, can you train them before the "
    "first shift?\n"
    "Paolo: Sure.\n"
    "Greta: The loading bay door is sticking again.\n"
)

CALL = (
    "Hendrik: Westmoor council tax office, Hendrik speaking.\n"
    "Ayla: Hi, I moved house last week and my bill still shows the old address.\n"
    "Hendrik: Thanks. You don't need to send us a change form; we update it ourselves.\n"
    "Ayla: Great, thank you.\n"
)


def test_a_phone_greeting_names_the_agent() -> None:
    """ "Westmoor council tax office, Hendrik speaking": Hendrik is the agent."""
    assert Doers.of(source_units(CALL)[0]).roles == {"staff": "Hendrik", "customer": "Ayla"}


def test_it_and_them_carry_the_words_said_before() -> None:
    """The pronoun's words are the task's context; its own words stay its verb."""
    standup = assignments(source_units(STANDUP)[0])
    train = [a for a in standup if a.owner == "Paolo" and "train" in a.task]
    assert train and {"forklift", "driver"} <= train[0].context, standup
    call = assignments(source_units(CALL)[0])
    update = [a for a in call if a.owner == "Hendrik" and "update" in a.task]
    assert update and {"change", "form"} <= update[0].context, call


@pytest.mark.parametrize(
    ("source", "summary", "said", "owner"),
    [
        (
            STANDUP,
            "Greta trains the new forklift drivers.",
            "Greta",
            "Paolo",
        ),
        (CALL, "Ayla updates the change form herself.", "Ayla", "Hendrik"),
    ],
)
def test_a_pronoun_task_given_to_another_is_cited(
    lex: OfflineScorer, source: str, summary: str, said: str, owner: str
) -> None:
    """The task said with "them" / "it", given to someone else."""
    ev = owner_evidence(lex, source, summary)
    assert ev and f"to {said}, but in the source {owner} takes it" in ev[0], ev


@pytest.mark.parametrize(
    ("source", "summary"),
    [
        (STANDUP, "Paolo trains the new forklift drivers before the first shift."),
        (STANDUP, "Two new forklift drivers start on Monday."),
        (CALL, "Hendrik updates the address himself; no change form is needed."),
        (CALL, "Ayla moved house last week."),
    ],
)
def test_a_pronoun_task_with_its_doer_is_not_flagged(
    lex: OfflineScorer, source: str, summary: str
) -> None:
    """The same tasks with their doers, and facts that are no task."""
    assert owner_evidence(lex, source, summary) == []
