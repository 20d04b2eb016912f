"""Evidence of statements the source contradicts, and of agreement errors.

Each planted error is checked against its faithful counterpart: the signal must cite the
summary sentence and the source sentence, and must not fire on the faithful wording.
"""

from __future__ import annotations

import pytest

from sumjudge.offline import OfflineScorer
from sumjudge.offline.grammar import agreement_errors
from sumjudge.offline.grammar_subjects import KnownWords
from sumjudge.offline.polarity import Clause, opposed

from .faithful_corpus import BOARD_MEETING_EN

BOARD = BOARD_MEETING_EN.source
CALL = (
    "WEBVTT\n\n"
    "1\n00:00:01.000 --> 00:00:05.000\n<v Ana Silva>Thanks for calling Northwind support, "
    "this is Ana. How can I help?\n\n"
    "2\n00:00:05.500 --> 00:00:12.000\n<v Raj Patel>Hi, our team is still on the version one "
    "API and it stops working next month.\n\n"
    "3\n00:00:12.500 --> 00:00:20.000\n<v Ana Silva>That's right, version one is retired on "
    "the thirtieth of June. Extended support is not offered for it.\n\n"
    "4\n00:00:20.500 --> 00:00:27.000\n<v Raj Patel>Can we get a refund for the unused "
    "months of our plan?\n\n"
    "5\n00:00:27.500 --> 00:00:36.000\n<v Ana Silva>I can issue a refund for two months, and "
    "I'll email you the migration guide today.\n\n"
    "6\n00:00:36.500 --> 00:00:42.000\n<v Raj Patel>Great. I'll ask our developers to start "
    "the migration this week.\n"
)
CALL_FAITHFUL = (
    "Raj Patel called Northwind support because his team still uses the version one API, "
    "which is retired on 30 June. Ana explained that extended support is not offered. She "
    "will refund two months and email the migration guide today. Raj will ask his "
    "developers to start the migration this week."
)


def _evidence(scorer: OfflineScorer, source: str, summary: str, metric: str) -> list[str]:
    return list(scorer.score(source, summary, [metric])[metric].evidence)


@pytest.mark.parametrize(
    ("summary", "said", "owner", "quoted"),
    [
        (
            "Marcus Lee will draft the staff announcement by Friday.",
            "Marcus Lee",
            "Sofia Reyes",
            "I'll draft the announcement",
        ),
        (
            "Marcus will get three quotes from removal companies by next Wednesday.",
            "Marcus",
            "Tom Becker",
            "Tom, can you get three quotes",
        ),
        (
            "- Sofia Reyes: get three quotes from removal companies.",
            "Sofia Reyes",
            "Tom Becker",
            "Tom, can you get three quotes",
        ),
    ],
)
def test_owner_swap_is_cited(
    lex: OfflineScorer, summary: str, said: str, owner: str, quoted: str
) -> None:
    """An action item given to the wrong person cites who takes it in the source."""
    v = lex.score(BOARD, summary)["consistency"]
    assert v.score <= 2
    hits = [e for e in v.evidence if f"gives the task to {said}, but" in e]
    assert hits and f"{owner} takes it" in hits[0] and quoted in hits[0], v.evidence


def test_owner_swap_in_a_call_and_its_faithful_wording(lex: OfflineScorer) -> None:
    """In a WebVTT call: the agent's task given to the customer; "She will ..." is Ana."""
    assert _evidence(lex, CALL, CALL_FAITHFUL, "consistency") == []
    ev = _evidence(lex, CALL, "Raj will email the migration guide today.", "consistency")
    assert any("to Raj, but in the source Ana Silva takes it" in e for e in ev), ev


def test_who_asked_is_not_the_owner(lex: OfflineScorer) -> None:
    """ "Marcus asked Tom to get ..." gives the task to Tom, as the source does."""
    summary = "Marcus asked Tom to get three quotes from removal companies."
    assert _evidence(lex, BOARD, summary, "consistency") == []


@pytest.mark.parametrize(
    ("summary", "quoted"),
    [
        ("The parking policy was approved unanimously.", "six to one"),
        ("The board agreed to move the office before March.", "agreed not to move"),
        ("The proposal to open a second site was approved.", "was rejected"),
        ("Extended parking for visitors is offered.", "is not offered"),
    ],
)
def test_reversed_decisions_are_cited(lex: OfflineScorer, summary: str, quoted: str) -> None:
    """A vote called unanimous, a decision reversed, a negation dropped: the source is quoted."""
    v = lex.score(BOARD, summary)["consistency"]
    assert v.score <= 2
    assert any(summary[:30] in e and quoted in e for e in v.evidence), v.evidence


def test_contradictions_in_a_call(lex: OfflineScorer) -> None:
    """ "paid extended support" where it is not offered; a refund "refused" that was issued."""
    for summary, quoted in (
        ("Ana offered extended support for version one.", "Extended support is not offered"),
        ("Ana refused a refund for the unused months.", "I can issue a refund"),
    ):
        ev = _evidence(lex, CALL, summary, "consistency")
        assert any("says the opposite of the source" in e and quoted in e for e in ev), ev


def test_explanations_in_indonesian(lex: OfflineScorer) -> None:
    """The new evidence has Indonesian wording too."""
    v = lex.score(BOARD, "Marcus Lee will draft the staff announcement by Friday.", language="id")
    assert any(
        "padahal di sumber Sofia Reyes yang mengambilnya" in e for e in v["consistency"].evidence
    )
    v = lex.score(BOARD, "The parking policy was approved unanimously.", language="id")
    assert any("mencatat suara menolak" in e for e in v["consistency"].evidence)


@pytest.mark.parametrize(
    ("summary", "source"),
    [
        # a limit or turn the other clause lacks is how a negation is paraphrased
        (
            "The office move is on hold until March.",
            "We agreed not to move the office before March.",
        ),
        (
            "Abigail reminds Damien to put on a coat and tie.",
            "Abigail: Don't forget to put on a coat and tie.",
        ),
        ("There is no charge for the visit.", "Agent: The visit is free of charge."),
        # the negation bears on another word
        (
            "Chelsea signed the sponsorship deal in February.",
            "Their interest is not connected to the sponsorship deal they signed in February.",
        ),
        # a question asserts nothing
        (
            "Jack didn't get the package Gene sent him.",
            "Gene: Did you get the package I sent you\nJack: Not yet",
        ),
        # an interjection is not a negation
        ("Eileen wanted him to do it.", "Peter: No Eileen wanted me to do it"),
    ],
)
def test_faithful_rewordings_are_not_contradictions(
    lex: OfflineScorer, summary: str, source: str
) -> None:
    """Paraphrased negations, other scopes, questions and interjections are no evidence."""
    a = lex.analyse(source, summary)
    assert all(not si.contradicts for si in a.sentences)


def test_opposed_needs_a_restatement() -> None:
    """Two clauses on one topic are not opposed unless one restates the other."""
    plain = Clause.of("the team will ship the release on Friday")
    assert opposed(plain, Clause.of("the team will not ship the release on Friday"))
    assert not opposed(plain, Clause.of("nobody asked about Friday"))


@pytest.mark.parametrize(
    ("sentence", "errors"),
    [
        (
            "Their is many customer which is still depend on v1.",
            ["their is", "many customer", "is still depend"],
        ),
        ("There is several issue with the login page.", ["is several", "several issue"]),
        ("They is moving the office in March.", ["they is"]),
    ],
)
def test_agreement_errors(sentence: str, errors: list[str]) -> None:
    """The agreement patterns, each cited as the words at fault."""
    vocabulary = {"customers", "issues"}
    assert agreement_errors(sentence, KnownWords(vocabulary)) == errors


@pytest.mark.parametrize(
    "sentence",
    [
        "Their team is still on version one.",
        "There are many customers who still depend on v1.",
        "Many customer accounts are still on version one.",
        "A few customer complaints came in.",
        "Does he have the keys?",
        "The two teams agreed on a date.",
        "The ten minute break was skipped.",
        "Their tickets are open.",
    ],
)
def test_fluent_sentences_have_no_agreement_errors(sentence: str) -> None:
    """Possessive "their", modifiers ("many customer accounts"), questions, plurals."""
    assert (
        agreement_errors(sentence, KnownWords({"customers", "accounts", "teams", "minutes"})) == []
    )


def test_grammar_caps_fluency(lex: OfflineScorer) -> None:
    """Two agreement errors make fluency poor, one fair; each is cited with its sentence."""
    memo = (
        "Support for version one of the API ends on 30 June. Paid extended support is not "
        "offered. Many customers are still depending on version one."
    )
    v = lex.score(
        memo, "Support ends on 30 June. Their is many customer which is still depend on v1."
    )
    assert v["fluency"].score == 1
    assert any('("many customer")' in e and "Their is many" in e for e in v["fluency"].evidence)
    v = lex.score(memo, "Support ends on 30 June. Many customers is still on version one.")
    assert v["fluency"].score <= 3


def test_doers_in_any_tense_and_self_introduced_names(lex: OfflineScorer) -> None:
    """ "X sends", "X sent", "X is sending" name a doer; "this is Valerie" names the agent;
    a request and the reply taking it are one task."""
    source = (
        "Agent: Thanks for calling, this is Valerie. How can I help?\n"
        "Customer: I'd like to confirm the new contract.\n"
        "Agent: I'll send you an email confirming the new contract today.\n"
        "Customer: Great. Can you also add the router to it?\n"
        "Agent: Sure, I've added the router and booked the install for Friday.\n"
    )
    for summary in (
        "Valerie will send an email confirming the new contract today.",
        "The agent sent an email confirming the new contract.",
        "Valerie added the router and booked the install for Friday.",
    ):
        assert _evidence(lex, source, summary, "consistency") == [], summary
    for summary in (
        "The customer sends an email confirming the new contract today.",
        "The customer booked the install for Friday.",
    ):
        ev = _evidence(lex, source, summary, "consistency")
        assert any("but in the source Agent takes it" in e for e in ev), (summary, ev)


@pytest.mark.parametrize(
    ("sentence", "error"),
    [
        ("The fix can starts in June.", "can starts"),
        ("Aylin will starting the updates.", "will starting"),
        ("She bringed the query down to 2 seconds.", "bringed"),
        ("The first two day was lost.", "two day"),
        ("She still have her cards.", "she still have"),
        ("Two mains is going be vegetarian.", "going be"),
    ],
)
def test_more_agreement_errors(sentence: str, error: str) -> None:
    """Modal + inflected verb, wrong verb forms, counts, pronouns with an adverb, "going be"."""
    vocabulary = {"start", "days", "updat", "cards"}
    assert error in agreement_errors(sentence, KnownWords(vocabulary))


@pytest.mark.parametrize(
    "sentence",
    [
        "The fix can start in June.",
        "Aylin will be starting the updates.",
        "It takes two days.",
        "The 2 teams met on day 2.",
        "Version 2.4 ships; room 12 is booked.",
        "She will always help.",
    ],
)
def test_more_fluent_sentences(sentence: str) -> None:
    """Their correct forms, and numbers that are no counts of a noun."""
    assert (
        agreement_errors(sentence, KnownWords({"start", "days", "teams", "rooms", "updat"})) == []
    )
