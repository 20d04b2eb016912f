"""Decision readings of the contradiction check (`offline/decisions.py`, `polarity.py`).

Each reading is tested on a reversed decision it must cite and on faithful wordings it must
leave alone. The sources are written for these tests.
"""

from __future__ import annotations

import pytest

from sumjudge.offline import OfflineScorer
from sumjudge.offline.decisions import chosen_and_turned_down, contrary_sides, root, swapped
from sumjudge.offline.polarity import Clause, clauses, opposed


def _cited(scorer: OfflineScorer, source: str, summary: str) -> list[str]:
    """The source sentences the summary's sentences are said to contradict."""
    a = scorer.analyse(source, summary)
    return [
        si.contradicts or si.vote_reversed
        for si in a.sentences
        if si.contradicts or si.vote_reversed
    ]


@pytest.mark.parametrize(
    ("source", "summary", "quoted"),
    [
        # a choice made the other way round
        (
            "Mira: My gym membership has to change.\n"
            "Agent: Then we'll pause the membership rather than cancel it.\n"
            "Mira: Thank you.",
            "The agent cancelled the membership rather than pausing it.",
            "pause the membership rather than cancel",
        ),
        # "X instead of Y" asserts X, which the source denies
        (
            "Lena: We will not launch the beta in May. It moves to June.\nOmar: Understood.",
            "The beta will launch in May instead of moving to June.",
            "We will not launch the beta in May",
        ),
        # decision verbs and their opposites
        (
            "Omar accepted the revised quote from the printer on Monday.",
            "Omar turned down the revised quote from the printer on Monday.",
            "Omar accepted the revised quote",
        ),
        (
            "Agent: The late fee on the March invoice is waived this time.",
            "The agent charged the late fee on the March invoice.",
            "The late fee on the March invoice is waived",
        ),
        (
            "Attending the safety briefing is optional for visitors.",
            "Attending the safety briefing is required for visitors.",
            "is optional for visitors",
        ),
        (
            "The supplier delivered the spare parts on time last week.",
            "The supplier delivered the spare parts late last week.",
            "delivered the spare parts on time",
        ),
        (
            "Customers get the loyalty discount automatically at checkout.",
            "Customers get the loyalty discount at checkout only if they ask for it.",
            "loyalty discount automatically",
        ),
        # a relation about the same thing
        (
            "The security patch must be installed before the audit.",
            "The security patch can be installed after the audit.",
            "installed before the audit",
        ),
        # "rather not" is a negation
        (
            "Fiona: I'd rather not cut the outreach programme this year.",
            "The gap is closed by cutting the outreach programme this year.",
            "rather not cut the outreach programme",
        ),
        # Indonesian: a decision word, and one verb under two affixes
        (
            "Rapat evaluasi dijadwalkan hari Kamis di ruang direksi.",
            "Rapat evaluasi di ruang direksi dibatalkan.",
            "Rapat evaluasi dijadwalkan",
        ),
        (
            "Bu Sari: Kami tidak mengajukan permohonan kredit ke bank tahun ini.",
            "Permohonan kredit akan diajukan ke bank tahun ini.",
            "tidak mengajukan permohonan kredit",
        ),
    ],
)
def test_reversed_decisions_are_cited(
    lex: OfflineScorer, source: str, summary: str, quoted: str
) -> None:
    """The reversed decision cites the source sentence it reverses, and lowers consistency."""
    assert any(quoted in q for q in _cited(lex, source, summary)), _cited(lex, source, summary)
    assert lex.score(source, summary, ["consistency"])["consistency"].score <= 2


def test_vote_count_turns_after_the_call(lex: OfflineScorer) -> None:
    """A count given a few turns after the call for a vote is read against "unanimously"."""
    source = (
        "Chair: Two options tonight, the new kiln or the printing press.\n"
        "Dev: The kiln is older and keeps failing.\n"
        "Chair: Let's vote. Hands up for the kiln.\n"
        "Chair: Five. And the press?\n"
        "Maya: Me.\n"
        "Tom: And me.\n"
        "Chair: Two, Maya and Tom. So the kiln wins, five to two.\n"
    )
    summary = "The committee voted unanimously for the new kiln."
    assert any("five to two" in q for q in _cited(lex, source, summary))


@pytest.mark.parametrize(
    ("source", "summary"),
    [
        # the relation restated with its two things the other way round
        (
            "Nathan: After the quick lunch, we head to the station.",
            "They will have a quick lunch before heading to the station.",
        ),
        # the source sentence contrasts two cases; the summary restates one
        (
            "Ana: The banner sits above the fold on laptops but below it on small phones.",
            "On small phones the banner sits below the fold.",
        ),
        # "without" limits the clause like "until"
        (
            "Ines: We won't wait for the customer to ask for the credit.",
            "The customer gets the credit without waiting for them to ask.",
        ),
        # the same choice, in the same order
        (
            "Customer: Then the basic plan. Let's switch instead of cancelling.",
            "She switched to the basic plan instead of cancelling.",
        ),
        # a proposal, then the decision: the summary gives the decision
        (
            "Tom: I'd submit the grant draft now.\n"
            "Ana: We won't submit the grant draft this month.",
            "The grant draft will not be submitted this month.",
        ),
        # both sides of a choice restated
        (
            "Priya: We round before tax instead of after.",
            "Rounding happened before tax instead of after.",
        ),
        # a condition is not asserted
        (
            "Agent: The policy pays for a hotel only if the house is unsafe to live in.",
            "The house is not unsafe to live in, so no hotel.",
        ),
        # a contrary word both clauses use is not the opposite
        (
            "Bea: No payment was taken for the failed orders.",
            "No payment was taken for the failed orders.",
        ),
    ],
)
def test_faithful_decisions_are_not_contradictions(
    lex: OfflineScorer, source: str, summary: str
) -> None:
    """Faithful wordings of decisions, relations and choices are no evidence."""
    assert _cited(lex, source, summary) == []


def test_choices_and_their_order() -> None:
    """ "X rather than Y" chooses X and turns down Y; a swap names them the other way."""
    assert chosen_and_turned_down("frozen rather than cancelled") == (("freeze",), "cancell")
    assert chosen_and_turned_down("no choice here") is None
    yes = chosen_and_turned_down("we pause it rather than cancel")
    no = chosen_and_turned_down("cancelled instead of paused")
    assert yes is not None and no is not None
    assert swapped(no, yes)
    assert not swapped(yes, yes)
    # the option turned down reads as a negated clause
    chosen, turned = clauses("Let's switch instead of cancelling")
    assert not chosen.negated and turned.negated and "cancell" in turned.scope


def test_contrary_phrases_and_roots() -> None:
    """Phrases of contrary pairs are read in word order; Indonesian affixes share a root."""
    assert contrary_sides(["she", "turned", "down", "the", "offer"])
    assert not contrary_sides(["she", "turned", "the", "page", "down"])
    assert root("diajukan") == root("mengajukan")
    # a negation word is not a content word two clauses share
    assert "can't" not in Clause.of("we can't include the coffee bar").content
    assert opposed(
        Clause.of("the coffee bar was agreed today"),
        Clause.of("we're not agreeing to the coffee bar today"),
    )


OFFER = (
    "Agent: We also have a mesh booster for the upstairs rooms. Would you like to add the "
    "mesh booster? It is 5 pounds a month.\n"
    "Customer: {reply}\n"
    "Agent: Fine. Anything else?\n"
)


@pytest.mark.parametrize(
    ("reply", "summary"),
    [
        ("No, thanks. The router is enough.", "The customer agreed to add the mesh booster."),
        ("Yes, please. The upstairs signal is weak.", "The customer did not add the mesh booster."),
    ],
)
def test_a_reply_is_read_with_the_question(lex: OfflineScorer, reply: str, summary: str) -> None:
    """A yes or no to an offer is the decision: the summary saying the other is cited."""
    cited = _cited(lex, OFFER.format(reply=reply), summary)
    assert any("Would you like to add the mesh booster?" in q for q in cited), cited
    assert any(reply.split(".")[0] in q for q in cited), cited


@pytest.mark.parametrize(
    ("reply", "summary"),
    [
        # the same decision
        ("No, thanks. The router is enough.", "The customer did not add the mesh booster."),
        ("Yes, please. The upstairs signal is weak.", "The customer added the mesh booster."),
        # a reply that is neither yes nor no
        ("No way! That is cheap.", "The customer added the mesh booster."),
        # the answer is the customer's; the summary speaks of someone else
        ("No, thanks. The router is enough.", "The Agent added the mesh booster upstairs."),
    ],
)
def test_faithful_replies_are_not_contradictions(
    lex: OfflineScorer, reply: str, summary: str
) -> None:
    """The decision restated, a reply that is no answer, or another person's doing."""
    assert _cited(lex, OFFER.format(reply=reply), summary) == []
