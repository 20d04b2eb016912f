"""Grammar errors of English and Indonesian sentences, and fluency from their rate.

The sentences are written for these tests (not taken from the meetings corpus): each rule
has errors it must find and fluent sentences of the same shape it must leave alone.
"""

from __future__ import annotations

import pytest

from sumjudge.offline import OfflineScorer
from sumjudge.offline.grammar import agreement_errors, garbled, grammar_errors, persons_of
from sumjudge.offline.grammar_id import indonesian_errors
from sumjudge.offline.grammar_subjects import KnownWords

VOCABULARY = {
    "failed",
    "needed",
    "week",
    "weeks",
    "printers",
    "invoice",
    "users",
    "user",
    "day",
    "worked",
    "works",
    "helped",
    "checked",
    "check",
    "prepared",
}
PERSONS = frozenset(["maria", "omar", "ann", "ben", "carla"])
NAMES = frozenset(["chelsea", "falcon"])
KNOWN = KnownWords(VOCABULARY, PERSONS, NAMES)


@pytest.mark.parametrize(
    ("sentence", "error"),
    [
        ("Maria send the invoice every Monday.", "Maria send"),
        ("Because it fail on Fridays, the job is rerun.", "it fail"),
        ("They needs more time for the audit.", "they needs"),
        ("The new printer are broken again.", "new printer are"),
        ("The budget include travel and hotels.", "budget include"),
        ("The invoices goes out on Monday.", "invoices goes"),
        ("The report was write by the auditor.", "was write"),
        ("We have went through the whole list.", "have went"),
        ("She can went home after the call.", "can went"),
        ("The pump is old, and the spare pump be repaired next week.", "spare pump be"),
        ("Until it be repaired, the lift stays closed.", "it be"),
        ("She booked the room for this weeks.", "this weeks"),
        ("The fee is charged per users, not per team.", "per users"),
        ("They run a three-days course for new staff.", "a three-days"),
        ("They chose a more cheap option.", "more cheap"),
        ("It was the most best offer we had.", "most best"),
        ("Omar, the new analyst, prepare the slides.", "Omar, the new analyst, prepare"),
        ("The files had being moved before the audit.", "had being"),
        ("The audit did not checked the last quarter.", "did not checked"),
        ("Ann were on leave in May.", "Ann were"),
        ("Ben raise the topic at every review.", "Ben raise"),
        ("The board met on June to vote.", "on june"),
        ("Costs stayed despite of the cuts.", "despite of"),
        ("She had not sign the form before noon.", "had not sign"),
        ("The two who needs a laptop get one today.", "two who needs"),
        ("It is a plan which include the new printers.", "plan which include"),
    ],
)
def test_english_errors(sentence: str, error: str) -> None:
    """Each rule finds its error, cited as the words at fault."""
    assert error in agreement_errors(sentence, KNOWN)


@pytest.mark.parametrize(
    "sentence",
    [
        "Ann will send the deck on Friday.",
        "Ann and Ben send the deck on Mondays.",
        "Ann, Ben, and Carla are leading the review.",
        "The team are meeting on Friday.",
        "The people were happy with the result.",
        "If it were cheaper, we would buy it.",
        "They asked that he pay the fee in full.",
        "Chelsea are top of the league.",
        "At the heart of the plan are two changes.",
        "Present were Ann and Ben.",
        "This helps.",
        "A vendor works on the fix.",
        "The two were late.",
        "The news is good for the team.",
        "The Falcon 9 rocket was delayed.",
        "It takes a few days to arrive.",
        "Let the customer decide.",
        "It cost £60 last year.",
        "She read the report twice.",
        "- Review the deck with Ann.",
        "Ann to send the deck.",
        "Action items: Ann sends the deck; Ben books the room.",
        "The printers were replaced, and the new printer is faster.",
        "They chose a cheaper option with more small suppliers.",
        "The manager and the agent are both in the call.",
        "Will you be at the meeting?",
        "She has been at the client since May.",
        "Both teams failed the check twice.",
        "The board met on June 5 and on 12 June.",
        "Ann had not come to the first call.",
        "They missed two deadlines, which means a delay.",
        "The two who need a laptop get one today.",
        "Ann herself took the notes.",
    ],
)
def test_fluent_english(sentence: str) -> None:
    """Names, lists, collective nouns, subjunctives, inversions, imperatives: no error."""
    assert agreement_errors(sentence, KNOWN) == []


@pytest.mark.parametrize(
    ("sentence", "error"),
    [
        ("Paket itu sudah dikirim oleh.", "dikirim oleh."),
        ("Rumah nya besar dan bersih.", "Rumah nya"),
        ("Teknisi memperbaiki diperbaiki mesin itu kemarin.", "memperbaiki diperbaiki"),
        ("Tim sudah selesai menyelesaikan laporan.", "selesai menyelesaikan"),
        ("Sari dia menelepon pelanggan pagi ini.", "Sari dia"),
    ],
)
def test_indonesian_errors(sentence: str, error: str) -> None:
    """A detached "nya", "oleh" without its agent, one verb twice, a doubled subject."""
    found = indonesian_errors(sentence, frozenset(["sari"]))
    assert any(error.lower() == f.lower() for f in found), found


@pytest.mark.parametrize(
    "sentence",
    [
        "Diskusi itu dipimpin oleh Budi.",
        "Rumahnya besar dan bersih.",
        "Kemudian dia menelepon pelanggan.",
        "Laporan itu ditulis oleh tim keuangan dan dikirim kemarin.",
        "Mereka makan makanan sehat setiap hari.",
    ],
)
def test_fluent_indonesian(sentence: str) -> None:
    """The agent after "oleh", the attached clitic, a sentence-initial adverb: no error."""
    assert indonesian_errors(sentence, frozenset(["budi"])) == []


def test_other_languages_are_left_alone() -> None:
    """Only English and Indonesian have rules; a French summary gets no errors."""
    assert grammar_errors(["Ils est partis."], set(), "fr") == [[]]


def test_persons_are_speakers_titled_and_introduced() -> None:
    """Speakers, a name after a title and a self-introduced name are persons; roles are not."""
    text = "Agent: Hi, this is Valerie. Mr Okafor asked about it.\nCustomer: Thanks."
    persons = persons_of(text, frozenset(["Agent", "Customer", "Dana Reyes"]))
    assert {"valerie", "okafor", "dana", "reyes"} <= persons
    assert not {"agent", "customer", "mr"} & persons


def test_garbled_is_a_rate() -> None:
    """Two errors make fluency poor in a short summary, not in a long one; monotone."""
    assert garbled(2, 8)
    assert not garbled(1, 1)
    assert not garbled(2, 25)
    assert garbled(3, 30)
    assert all(garbled(n + 1, s) >= garbled(n, s) for n in range(6) for s in range(1, 40))


SOURCE = (
    "Maria: The new printer is broken again, so I ordered a replacement on Monday.\n"
    "Omar: The budget includes the replacement. I will send the invoice to finance.\n"
    "Maria: The old printers were slow anyway. The team checked the toner costs too.\n"
)


def test_one_slip_is_fair_and_garbled_text_is_poor(lex: OfflineScorer) -> None:
    """Two errors in three sentences: fluency 1, both cited; one error: fluency 2 at most."""
    garbled_summary = (
        "The new printer are broken again. Maria ordered a replacement on Monday. "
        "Omar send the invoice to finance."
    )
    v = lex.score(SOURCE, garbled_summary, ("fluency",))["fluency"]
    assert v.score == 1, v.explanation
    assert v.evidence[0] == "2 language errors in 3 sentences"
    assert any('"new printer are"' in e for e in v.evidence)
    assert any('"Omar send"' in e for e in v.evidence)
    slip = (
        "The new printer is broken again. Maria ordered a replacement on Monday. "
        "Omar send the invoice to finance."
    )
    v = lex.score(SOURCE, slip, ("fluency",))["fluency"]
    assert v.score == 2, v.explanation
    fluent = (
        "The new printer is broken again. Maria ordered a replacement on Monday. "
        "Omar will send the invoice to finance."
    )
    assert lex.score(SOURCE, fluent, ("fluency",))["fluency"].evidence == ()
