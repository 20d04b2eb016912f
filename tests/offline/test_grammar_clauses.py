"""The second pass of the grammar rules: clauses, joined subjects, phrases, aspect words.

Sentences written for these tests (not taken from the meetings corpus). Each rule has
errors it must find and fluent twins of the same shape it must leave alone.
"""

from __future__ import annotations

import pytest

from sumjudge.offline.grammar import agreement_errors, singular_names
from sumjudge.offline.grammar_id import indonesian_errors
from sumjudge.offline.grammar_subjects import KnownWords

VOCABULARY = {"roles", "role", "quote", "quotes", "offices", "office", "printers", "updated"}
PERSONS = frozenset(["lena", "omar"])


@pytest.mark.parametrize(
    ("sentence", "error"),
    [
        ("The form has a second page, which sit below the fold.", "page, which sit"),
        ("We asked the engineer, who send the report today.", "engineer, who send"),
        ("The printer and the scanner is broken again.", "The printer and the scanner is"),
        ("Her laptop and her phone was stolen.", "Her laptop and her phone was"),
        ("The rate is fixed at 4% and the quote were higher.", "quote were"),
        ("The fee is £20 a month and Acme renewal quote were £30.", "Acme renewal quote were"),
        ("Staff is 40; three Berlin office remains empty.", "three berlin office"),
        ("The project is under the way now.", "under the way"),
        ("We discussed about the schedule.", "discussed about"),
        ("Lena was ready but need help with the slides.", "but need"),
        ("He is busy and forget the call.", "and forget"),
        ("The alert at 90% give no warning.", "alert at 90 % give"),
        ("After a short delay the router reconnect.", "the router reconnect"),
        ("Sales grew (the best result of last years).", "last years"),
        ("The basic plan still offers no extra seats are; users can be added.", "seats are;"),
    ],
)
def test_clause_errors(sentence: str, error: str) -> None:
    """Each rule finds its error, cited as the words at fault."""
    assert error in agreement_errors(sentence, KnownWords(VOCABULARY, PERSONS))


@pytest.mark.parametrize(
    "sentence",
    [
        "The form has a second page, which sits below the fold.",
        "The printer and the scanner, which need toner, are old.",
        "The printers, which need toner, are old.",
        "The printer and the scanner are broken again.",
        "Our CEO and founder is Lena.",
        "The sales and marketing team is small.",
        "Every desk and every chair is new.",
        "Lena and Omar were late.",
        "The fee is £20 a month and the quotes were higher.",
        "Three Berlin offices remain empty.",
        "The project is under way now.",
        "We discussed the schedule.",
        "Lena was asked to stay and help the team.",
        "She made the team stop and think.",
        "Lena will call and confirm the date.",
        "The alert at 90% gives no warning.",
        "We let the router reconnect.",
        "The modem and the router reconnect.",
        "The results of last years' survey were good.",
        "The results from the last years were good.",
        "Leave the printers where they are.",
        "The resolutions are: one, two and three.",
    ],
)
def test_fluent_twins(sentence: str) -> None:
    """The same shapes written well: no error."""
    assert agreement_errors(sentence, KnownWords(VOCABULARY, PERSONS)) == []


def test_a_name_in_a_joined_subject_is_still_one_person() -> None:
    """ "Ann and Felix were" is a joined subject: Felix, used with "was", stays a person."""
    text = "Felix was calm in the interview. Ann and Felix were both good."
    assert "felix" in singular_names(text)
    assert "liverpool" not in singular_names("Liverpool is top. Liverpool are winning.")


@pytest.mark.parametrize(
    ("sentence", "error"),
    [
        ("Lampu rem itu sudah yang rusak.", "sudah yang rusak"),
        ("Laporan itu akan yang dikirim besok.", "akan yang dikirim"),
    ],
)
def test_indonesian_aspect_before_yang(sentence: str, error: str) -> None:
    """An aspect word belongs after "yang", with its predicate."""
    assert error in indonesian_errors(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Lampu rem yang sudah rusak diganti.",
        "Ini sudah yang terbaik.",
        "Ini sudah yang kedua kalinya.",
        "Harganya masih yang lama.",
    ],
)
def test_indonesian_aspect_fluent(sentence: str) -> None:
    """The aspect after "yang", or a superlative or an ordinal after "yang": no error."""
    assert indonesian_errors(sentence) == []
