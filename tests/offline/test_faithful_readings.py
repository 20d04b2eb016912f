"""Faithful writing the offline judge once misread: clock times, ratios, spoken money.

Each case pairs a source line with a faithful restatement (it must give no evidence) and,
where the reading could hide an error, a changed restatement (it must still be found).
The sentences are written for these tests, not taken from any benchmark corpus.
"""

from __future__ import annotations

import pytest

from sumjudge.offline import OfflineScorer
from sumjudge.offline.numbers import mentions, new_numbers, numbers
from sumjudge.offline.problems import broken_reason
from sumjudge.offline.source import analyse_source


def _new_numbers(source: str, sentence: str) -> list[str]:
    return new_numbers(sentence, analyse_source(source, None))


@pytest.mark.parametrize(
    ("source", "summary"),
    [
        ("The dentist can see you on Friday at 8.", "Dentist appointment: Friday 8:00."),
        ("The ferry leaves at 7.45 in the evening.", "The ferry leaves at 19:45."),
        ("The ferry leaves at 7:45 pm.", "The ferry leaves at 19:45."),
        ("The call is booked for 15:30.", "The call is booked for 3.30pm."),
        ("The screen's contrast is 2.8 to 1.", "The contrast is 2.8:1."),
        ("Grace and Tom meet every week to talk it over.", "Weekly 1:1 with Grace and Tom."),
        ("The fine is 12 pounds 40.", "The fine is £12.40."),
        ("It costs eight dollars and fifteen cents.", "It costs $8.15."),
        ("The refund is £31.75.", "The refund is 31 pounds 75."),
    ],
)
def test_times_ratios_and_spoken_money_match(source: str, summary: str) -> None:
    """A time's minutes, a ratio's unit side and an amount's hundredths are no new number."""
    assert _new_numbers(source, summary) == []


@pytest.mark.parametrize(
    ("source", "summary", "new"),
    [
        ("The bus leaves at 9:15.", "The bus leaves at 9:45.", "9:45"),
        ("The bus leaves at 8 in the morning.", "The bus leaves at 9:00.", "9:00"),
        ("The contrast is 2.8 to 1.", "The contrast is 3.5:1.", "3.5"),
        ("The fine is 12 pounds 40.", "The fine is £12.90.", "12.90"),
    ],
)
def test_a_changed_time_ratio_or_amount_is_still_found(source: str, summary: str, new: str) -> None:
    """The joined readings stay exact: a different time, ratio side or amount is new."""
    assert _new_numbers(source, summary) == [new]


def test_a_weight_in_pounds_and_ounces_is_not_money() -> None:
    """A weight, "7 pounds 12 ounces", is two numbers, not 7.12."""
    assert [m.written for m in mentions("The baby weighed 7 pounds 12 ounces.")] == ["7", "12"]


def test_timestamps_keep_their_parts() -> None:
    """Three colon-joined numbers (a timestamp) are read as before: each part on its own."""
    assert {"0", "1", "45"} <= numbers("[00:01:45] Hello.")


@pytest.mark.parametrize(
    "sentence",
    [
        "Maya books the venue once the deposit is in.",
        "We will decide when the survey results are in.",
        "The discount is still on.",
    ],
)
def test_a_preposition_used_as_an_adverb_after_be_ends_a_sentence(sentence: str) -> None:
    """After "be", "in" is an adverb ("once the deposit is in"): the sentence is complete."""
    assert broken_reason(sentence) == ""


@pytest.mark.parametrize(
    "sentence",
    ["The panel will meet in.", "The report is about the drop in.", "The crew is working on."],
)
def test_a_sentence_cut_after_a_preposition_is_still_broken(sentence: str) -> None:
    """Anywhere else a final "in" or "on" still leaves the sentence unfinished."""
    assert broken_reason(sentence).startswith("ends with")


_TRIED = (
    "Agent: Let's try restarting the router. Switch it off at the wall, wait ten seconds, "
    "then switch it back on.\n"
    "Customer: Okay, it's back on.\n"
    "Agent: Can you open a web page now?\n"
    "Customer: {outcome}\n"
    "Agent: Then I'll book an engineer for Thursday morning.\n"
)
_TRIED_SUMMARY = "Switching the router off at the wall for ten seconds and back on did not help."


def _negation(source: str, summary: str) -> list[str]:
    analysis = OfflineScorer(use_embeddings=False).analyse(source, summary)
    return [si.unmatched_negation for si in analysis.sentences if si.unmatched_negation]


def test_a_failed_attempt_is_matched_by_the_reply_after_it() -> None:
    """A summary's "did not help" restates the turn after the attempt ("still nothing")."""
    source = _TRIED.format(outcome="Still nothing loads, the same error page.")
    assert _negation(source, _TRIED_SUMMARY) == []


def test_a_negation_the_reply_does_not_back_is_still_found() -> None:
    """When the reply says it worked, "did not help" has no negated counterpart."""
    source = _TRIED.format(outcome="Yes, the page loads fine now.")
    assert _negation(source, _TRIED_SUMMARY) == ["not"]


_CALL = (
    "Agent: Please send the receipt by email today.\n"
    "Customer: Sure, I'll do that tonight.\n"
    "Agent: And I'll call the shop on Monday.\n"
)


@pytest.mark.parametrize(
    "summary",
    [
        "**Next steps:** the customer emails the receipt; the agent calls the shop on Monday.",
        "Open points: the customer emails the receipt; the agent calls the shop on Monday.",
    ],
)
def test_a_run_in_label_is_not_a_name(summary: str) -> None:
    """A label ("Next steps:") opening a dialogue summary's line is no new name."""
    analysis = OfflineScorer(use_embeddings=False).analyse(_CALL, summary)
    assert [n for si in analysis.sentences for n in si.new_names] == []


def test_a_new_name_before_a_verb_is_still_found() -> None:
    """A name opening a sentence with a verb after it ("Judy calls") is still read."""
    analysis = OfflineScorer(use_embeddings=False).analyse(_CALL, "Judy calls the shop on Monday.")
    assert [n for si in analysis.sentences for n in si.new_names] == ["Judy"]


def test_the_lead_in_of_a_list_is_complete() -> None:
    """A sentence closed by a colon introduces the list after it: it is not cut off."""
    assert broken_reason("The board picked three suppliers for the new site:") == ""
    assert broken_reason("The board picked three suppliers for the new site") != ""


@pytest.mark.parametrize(
    ("source", "summary"),
    [
        ("Agent: The engineer comes at nine thirty.", "The engineer comes at 9:30."),
        ("Agent: It's ten fifteen on Thursday.", "The slot is Thursday 10:15."),
        ("Agent: The adapter is nine ninety-nine.", "The adapter costs £9.99."),
    ],
)
def test_a_spoken_time_or_price_matches_its_digits(source: str, summary: str) -> None:
    """A call's "nine thirty" is 9:30 (or 9.30), never 39."""
    assert _new_numbers(source, summary) == []


def test_a_spoken_time_is_still_compared() -> None:
    """A different time than the one said is new."""
    assert _new_numbers("Agent: The engineer comes at nine thirty.", "At 9:45.") == ["9:45"]


def test_a_moment_of_a_timed_transcript_is_no_new_number() -> None:
    """A summary citing "at 01:45" points at the turn stamped [00:01:45]: no new time."""
    source = "[00:01:45] Agent: The refund is approved.\n[00:02:10] Customer: Thanks.\n"
    assert _new_numbers(source, "At 01:45 the agent approved the refund.") == []
    assert _new_numbers(source, "At 03:45 the agent approved the refund.") == ["03:45"]
