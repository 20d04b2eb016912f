"""Owner swaps in the forms meetings and calls give them: each swap is cited, its faithful
wording is not.

The transcripts are written for these tests: titles in speaker labels, names in brackets,
names a role speaker is greeted by, requests with a title, list items "Name: task",
passives with "by", role words of one kind ("the rep", "petugas"), Indonesian verb forms.
"""

from __future__ import annotations

import pytest

from sumjudge.offline import OfflineScorer
from sumjudge.offline.assignments import assignments, id_base
from sumjudge.offline.dialogue import source_units
from sumjudge.offline.doers import Doers

from .conftest import owner_evidence

COMMITTEE = (
    "Cllr Hughes (chair): Item two is the library opening hours.\n"
    "Mrs Okafor: Footfall on Sundays has doubled since March.\n"
    "Cllr Hughes (chair): Dr Rahman, please draft the consultation survey for the residents "
    "by the 3rd of May.\n"
    "Dr Rahman: Of course.\n"
    "Mrs Okafor: I'll ask the volunteers about Sunday cover.\n"
    "Cllr Hughes (chair): And Mr Berg, could you cost a manual door counter for the branch?\n"
    "Mr Berg: Yes, I'll get two quotes.\n"
    "Mrs Okafor: The poster will be printed by Mr Berg next week.\n"
)

CALL = (
    "Agent (Priya): Good morning, Lumen Energy, Priya speaking.\n"
    "Customer: Hi. My direct debit was taken twice this month.\n"
    "Agent (Priya): Sorry about that. Can I take your account number?\n"
    "Customer: It's 55102.\n"
    "Agent (Priya): Thanks, Oskar. I've cancelled the second payment, and we'll refund the "
    "duplicate to your bank within five working days.\n"
    "Customer: Should I call my bank as well?\n"
    "Agent (Priya): No need. I'll also send you a confirmation letter by post.\n"
)

PANGGILAN = (
    "Rudi (Petugas): Selamat siang, dengan Rudi. Ada yang bisa dibantu?\n"
    "Ibu Sari (Pelanggan): Tagihan listrik saya bulan ini dua kali lipat.\n"
    "Rudi (Petugas): Baik, Bu. Saya periksa dulu. Meteran dicatat salah oleh petugas lapangan.\n"
    "Ibu Sari (Pelanggan): Jadi bagaimana?\n"
    "Rudi (Petugas): Saya kirimkan tagihan koreksi lewat email hari ini.\n"
    "Ibu Sari (Pelanggan): Baik, saya tunggu.\n"
)


def test_who_is_who() -> None:
    """Titles are no names, a bracket names a role speaker, a greeting names the other."""
    doers = Doers.of(source_units(COMMITTEE)[0])
    assert doers.names["Rahman"] == "Dr Rahman" and doers.names["Berg"] == "Mr Berg"
    assert "Cllr" not in doers.names and "Dr" not in doers.names
    call = Doers.of(source_units(CALL)[0])
    assert call.names["Priya"] == "Agent" and call.names["Oskar"] == "Customer"
    assert call.roles == {"staff": "Agent", "customer": "Customer"}


def test_indonesian_verbs_lose_their_affixes() -> None:
    """Active, passive and bare forms of one verb are one form."""
    assert id_base("membuka") == id_base("buka") == id_base("dibuka")
    assert id_base("mengirimkan") == id_base("kirim") == id_base("dikirim")
    assert id_base("menulis") == id_base("tulis")
    assert id_base("memeriksa") == id_base("periksa")
    assert id_base("memperpanjang") == id_base("perpanjang") == id_base("diperpanjang")
    assert id_base("mengabari") == id_base("kabari")


def test_tasks_read_from_requests_passives_and_the_agents_we() -> None:
    """A request with a title, a passive naming its doer, the agent's "we" in a call."""
    tasks = assignments(source_units(COMMITTEE)[0])
    assert any(a.owner == "Dr Rahman" and {"consultation", "survey"} <= a.task for a in tasks)
    assert any(a.owner == "Mr Berg" and {"poster", "print"} <= a.task for a in tasks)
    call = assignments(source_units(CALL)[0])
    assert any(a.owner == "Agent" and {"refund", "duplicate"} <= a.task for a in call)


@pytest.mark.parametrize(
    ("summary", "said", "owner"),
    [
        ("- Cllr Hughes: draft the consultation survey by 3 May.", "Cllr Hughes", "Dr Rahman"),
        ("Mrs Okafor drafts the residents' consultation survey.", "Mrs Okafor", "Dr Rahman"),
        ("- Okafor: manual door counter costs for the branch.", "Okafor", "Mr Berg"),
        ("The poster will be printed by Dr Rahman.", "Dr Rahman", "Mr Berg"),
        ("Mr Berg will ask the volunteers about Sunday cover.", "Mr Berg", "Mrs Okafor"),
    ],
)
def test_meeting_swaps_are_cited(lex: OfflineScorer, summary: str, said: str, owner: str) -> None:
    """Another person's task, in a sentence, a list item, a passive."""
    ev = owner_evidence(lex, COMMITTEE, summary)
    assert ev and f"to {said}, but in the source {owner} takes it" in ev[0], ev
    assert lex.score(COMMITTEE, summary, ["consistency"])["consistency"].score < 3


@pytest.mark.parametrize(
    "summary",
    [
        "- Dr Rahman: draft the consultation survey for residents by 3 May.",
        "Rahman drafts the residents' consultation survey.",
        "- Berg: manual door counter for the branch (two quotes).",
        "The poster will be printed by Mr Berg next week.",
        "Mrs Okafor will ask the volunteers about Sunday cover.",
        "The chair, Cllr Hughes, asked Dr Rahman to draft the consultation survey.",
    ],
)
def test_meeting_faithful_owners_are_not_flagged(lex: OfflineScorer, summary: str) -> None:
    """The same tasks with their doers as the source gives them."""
    assert owner_evidence(lex, COMMITTEE, summary) == []


@pytest.mark.parametrize(
    ("summary", "said"),
    [
        ("Oskar cancelled the second payment.", "Oskar"),
        ("The customer will refund the duplicate payment within five days.", "The customer"),
        ("The caller sends a confirmation letter by post.", "The caller"),
    ],
)
def test_call_swaps_are_cited(lex: OfflineScorer, summary: str, said: str) -> None:
    """The agent's acts ("I've cancelled", "we'll refund") given to the customer."""
    ev = owner_evidence(lex, CALL, summary)
    assert ev and f"to {said}, but in the source Agent takes it" in ev[0], ev


@pytest.mark.parametrize(
    "summary",
    [
        "Priya cancelled the second payment and will refund the duplicate within five days.",
        "The rep will send Oskar a confirmation letter by post.",
        "The agent refunds the duplicate payment; the customer need not call his bank.",
    ],
)
def test_call_faithful_owners_are_not_flagged(lex: OfflineScorer, summary: str) -> None:
    """The agent named by name, by "the rep", by "the agent"."""
    assert owner_evidence(lex, CALL, summary) == []


def test_indonesian_call(lex: OfflineScorer) -> None:
    """ "Ibu Sari mengirimkan tagihan koreksi" where the agent sends it; "petugas" is Rudi."""
    ev = owner_evidence(lex, PANGGILAN, "Ibu Sari mengirim tagihan koreksi lewat email.")
    assert ev and "memberikan tugas kepada Ibu Sari" in ev[0], ev
    for faithful in (
        "Rudi mengirimkan tagihan koreksi lewat email hari ini.",
        "Petugas mengirim tagihan koreksi lewat email.",
    ):
        assert owner_evidence(lex, PANGGILAN, faithful) == [], faithful


BANK_CALL = (
    "Josh: Thanks for calling Harbour Bank, Josh speaking. How can I help?\n"
    "Mina: Someone used my card in Lisbon last night.\n"
    "Josh: I've frozen the card. You don't need to go to the police; we'll report the fraud "
    "to the card network ourselves.\n"
    "Mina: Thank you. Can I get a new card?\n"
    "Josh: Yes, I've ordered one. It arrives in three days.\n"
)


def test_a_call_labelled_by_name_has_an_agent() -> None:
    """The speaker who opens the call as agents do is the agent, the other the customer."""
    doers = Doers.of(source_units(BANK_CALL)[0])
    assert doers.roles == {"staff": "Josh", "customer": "Mina"}


@pytest.mark.parametrize(
    ("summary", "said"),
    [
        ("Mina reports the fraud to the card network herself.", "Mina"),
        ("The customer froze the card.", "The customer"),
    ],
)
def test_name_labelled_call_swaps_are_cited(lex: OfflineScorer, summary: str, said: str) -> None:
    """The agent's "we'll report" and "I've frozen" given to the customer."""
    ev = owner_evidence(lex, BANK_CALL, summary)
    assert ev and f"to {said}, but in the source Josh takes it" in ev[0], ev


@pytest.mark.parametrize(
    "summary",
    [
        "Josh, the agent, froze the card and ordered a new one.",
        "The bank reports the fraud to the card network; Mina need not go to the police.",
        "The agent will report the fraud to the card network.",
    ],
)
def test_name_labelled_call_faithful_owners(lex: OfflineScorer, summary: str) -> None:
    """The agent named by name with an apposition, by role, or as the bank."""
    assert owner_evidence(lex, BANK_CALL, summary) == []


ROUTER_CALL = (
    "Agent: Thanks for calling Fibrenet, how can I help?\n"
    "Customer: My wifi keeps dropping in the evenings.\n"
    "Agent: I can see your hub is on a crowded channel. I've moved it to channel 11 and "
    "turned on band steering.\n"
    "Customer: Thanks, I'll restart my laptop and test the connection tonight.\n"
)


def test_a_second_verb_of_the_doer_is_checked(lex: OfflineScorer) -> None:
    """ "X did A, and moved B": the second act is X's too, and checked as such."""
    swap = "The customer restarted the hub, and moved it to channel 11."
    ev = owner_evidence(lex, ROUTER_CALL, swap)
    assert ev and "to The customer, but in the source Agent takes it" in ev[0], ev
    faithful = "The agent moved the hub to channel 11, and turned on band steering."
    assert owner_evidence(lex, ROUTER_CALL, faithful) == []
    both = "The customer will restart the laptop and tests the connection tonight."
    assert owner_evidence(lex, ROUTER_CALL, both) == []
    other = "The agent moved the hub to channel 11, and Customer restarts the laptop."
    assert owner_evidence(lex, ROUTER_CALL, other) == []


STANDUP = (
    "Lena: Next, the bugs. Who can take the login timeout bug?\n"
    "Omar: I'll take it.\n"
    "Lena: Thanks. Tariq, you're on the export crash.\n"
    "Tariq: Sure.\n"
)

ROAMING = (
    "Agent: Thanks for calling Teleco, how can I help?\n"
    "Customer: I was charged for roaming in France.\n"
    "Agent: I've refunded the charge and turned on usage alerts at 80 percent.\n"
    "Customer: Great.\n"
    "Agent: You'll need to restart your phone to get the new settings.\n"
)


@pytest.mark.parametrize(
    ("source", "summary", "said", "owner"),
    [
        (STANDUP, "- Tariq: the login timeout bug.", "Tariq", "Omar"),
        (STANDUP, "- Omar: the export crash.", "Omar", "Tariq"),
        (ROAMING, "The customer switched on usage alerts.", "The customer", "Agent"),
        (ROAMING, "The agent restarts the phone.", "The agent", "Customer"),
    ],
)
def test_requests_to_the_room_and_acts_in_other_words(
    lex: OfflineScorer, source: str, summary: str, said: str, owner: str
) -> None:
    """ "Who can take ...?" taken by the next speaker; "you're on ..."; "turned on" as
    "switched on"; the request ending a call of two is the other speaker's."""
    ev = owner_evidence(lex, source, summary)
    assert ev and f"to {said}, but in the source {owner} takes it" in ev[0], ev


@pytest.mark.parametrize(
    ("source", "summary"),
    [
        (STANDUP, "- Omar: the login timeout bug."),
        (STANDUP, "- Tariq: the export crash."),
        (ROAMING, "The agent switched on usage alerts at 80%."),
        (ROAMING, "The customer needs to restart the phone."),
    ],
)
def test_requests_to_the_room_faithful(lex: OfflineScorer, source: str, summary: str) -> None:
    """The same tasks with their doers."""
    assert owner_evidence(lex, source, summary) == []


PARTY = (
    "Maria: Ann and Emily, could you take care of the food?\n"
    "Ann: Sure.\n"
    "Nathan: I'm at the dentist after work, you collect the cake from the bakery.\n"
    "Emily: Fine, I'll collect it.\n"
)


@pytest.mark.parametrize(
    "summary",
    [
        "Ann and Emily will take care of the food.",
        "Emily will collect the cake from the bakery.",
    ],
)
def test_joint_doers_and_another_subject_are_no_swap(lex: OfflineScorer, summary: str) -> None:
    """Two people asked together share the task; "I'm at the dentist, you collect ..." gives
    the collection to the one addressed, not to the speaker."""
    assert owner_evidence(lex, PARTY, summary) == []


def test_a_decimal_point_ends_no_clause(lex: OfflineScorer) -> None:
    """ "on the 2.4 GHz band, and moved it ...": the second act is read past the "2.4"."""
    source = (
        "Agent: Thanks for calling Fibrenet, how can I help?\n"
        "Customer: My wifi is slow upstairs.\n"
        "Agent: Your hub was on the 2.4 GHz band. I've moved it to channel 11 with band "
        "steering on.\n"
    )
    swap = "The customer checked the 2.4 GHz band and moved the hub to channel 11."
    ev = owner_evidence(lex, source, swap)
    assert ev and "but in the source Agent takes it" in ev[0], ev


def test_a_customers_question_and_a_negation_take_no_task(lex: OfflineScorer) -> None:
    """ "Do I need to report it?" asked by the customer is not the customer's task, nor is
    "I didn't make them"; the agent's "we report it" is the agent's."""
    source = (
        "Ravi: Thanks for calling Crest Bank, Ravi speaking. How can I help?\n"
        "Leah: There are two payments I didn't make. Do I need to report them to the police?\n"
        "Ravi: No. We report the fraud to the card scheme ourselves.\n"
    )
    ev = owner_evidence(lex, source, "Leah reports the fraud to the card scheme herself.")
    assert ev and "to Leah, but in the source Ravi takes it" in ev[0], ev
    assert owner_evidence(lex, source, "Ravi reports the fraud to the card scheme.") == []


def test_a_view_takes_no_task(lex: OfflineScorer) -> None:
    """ "I think we need a supplier audit plan" is a view; the one asked takes the task."""
    source = (
        "Amelia: I think we need a supplier audit plan before the renewal.\n"
        "Chair: Agreed. Bo, can you write the supplier audit plan by Friday?\n"
        "Bo: Yes.\n"
    )
    ev = owner_evidence(lex, source, "- Amelia: supplier audit plan, by Friday.")
    assert ev and "to Amelia, but in the source Bo takes it" in ev[0], ev
    assert owner_evidence(lex, source, "- Bo: supplier audit plan, by Friday.") == []


def test_a_pronoun_subject_is_the_person_named_before(lex: OfflineScorer) -> None:
    """ "He will ..." after a sentence opening on "Cllr Hughes" is about Cllr Hughes."""
    swap = "Cllr Hughes opened item two. He will draft the consultation survey by 3 May."
    ev = owner_evidence(lex, COMMITTEE, swap)
    assert ev and "but in the source Dr Rahman takes it" in ev[0], ev
    faithful = "Dr Rahman was asked about the survey. He will draft it for the residents by 3 May."
    assert owner_evidence(lex, COMMITTEE, faithful) == []


def test_a_meeting_role_with_a_name_in_apposition(lex: OfflineScorer) -> None:
    """ "The chair, Cllr Hughes, drafts ..." is the chair's claim, cited against Dr Rahman."""
    ev = owner_evidence(lex, COMMITTEE, "The chair, Cllr Hughes, drafts the consultation survey.")
    assert ev and "but in the source Dr Rahman takes it" in ev[0], ev
    faithful = "Dr Rahman, the expert, drafts the consultation survey for the residents."
    assert owner_evidence(lex, COMMITTEE, faithful) == []
