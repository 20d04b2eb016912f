"""Sentence-shape signals: each fires on garbled text and stays silent on fluent paraphrase."""

from __future__ import annotations

from sumjudge.offline.dialogue import source_units
from sumjudge.offline.shape import (
    article_errors,
    repeated_content,
    shape_features,
)
from sumjudge.offline.source import turn_sentences

SOURCE = (
    "England goalkeeper Joe Hart was praised by Gianluigi Buffon after the draw in Turin. "
    "The Italy captain won his 147th cap on Tuesday night."
)
FLUENT = [
    "Buffon praised Hart, England's goalkeeper, after a draw in Turin.",
    "The Italian captain earned his 147th cap.",
]


def test_article_before_a_function_word_is_counted() -> None:
    """ "The is the of" is garbled; "the goalkeeper of the team" is not."""
    assert article_errors("The is the of the new organization.") == 2
    assert article_errors("The goalkeeper of the team was praised.") == 0


def test_near_repeats_are_loops_far_repeats_are_not() -> None:
    """A content word back within five words is a loop; repeated far apart it is not."""
    assert repeated_content("Gianluigi Buffon has labelled Buffon a legend.")
    assert repeated_content("The media team posted highlights of the game highlights.")
    assert not repeated_content(
        "The budget stays at its level while the hiring freeze lasts, and the budget is reviewed."
    )


def test_fluent_paraphrase_has_no_shape_signal() -> None:
    """Paraphrase in new words is not a shape problem."""
    feats = shape_features(FLUENT)
    assert feats == {
        "article_err": 0.0,
        "rep_in_sent": 0.0,
        "run_on": 0.0,
        "conn_start": 0.0,
    }


def test_run_on_counts_only_the_excess_and_openers_count_connectives() -> None:
    """Only words beyond the run-on limit count; "However, ..." as an opener is flagged."""
    long = " ".join(["word"] * 60) + "."
    assert shape_features([long])["run_on"] > 0
    assert shape_features(["However, the draw was praised."])["conn_start"] == 1.0
    assert shape_features(["The draw was praised. However, it was late."])["conn_start"] == 0.0


def test_turn_sentences_are_the_pieces_of_long_turns() -> None:
    """Each sentence of a multi-sentence turn becomes a passage, with "I" resolved."""
    units, dialogue = source_units(
        "Priya: I'll update the forecast. Tom tells the heads.\nTom: Fine.\nPriya: Thanks.\n"
    )
    assert dialogue
    parts = turn_sentences(units)
    assert parts == ["Priya: Priya update the forecast.", "Priya: Tom tells the heads."]
