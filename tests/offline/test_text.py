"""Tests of `sumjudge.text`, the shared sentence splitter and transcript-turn parser."""

from __future__ import annotations

from sumjudge.text import find_turns, parse_turn_line, parse_turns, split_sentences
from sumjudge.types import ConversationItem


def test_sentences_are_verbatim_spans_and_skip_abbreviations() -> None:
    """Offsets give back the text; "Mr." and "U.S." do not end sentences."""
    text = 'Mr. Lee met U.S. officials.  "Done," he said.\nNext line\n\n- \n'
    sents = split_sentences(text)
    assert [s.text for s in sents] == [
        "Mr. Lee met U.S. officials.",
        '"Done," he said.',
        "Next line",
    ]
    assert all(text[s.start : s.end] == s.text for s in sents)


def test_find_turns_parts() -> None:
    """Timestamps, names and roles are parsed; the turn text starts at the name."""
    text = "[00:00:05] Rina (PM): Good morning.\n00:01 Bagus: Morning, Rina.\n"
    turns = find_turns(text)
    assert [(t.speaker, t.role, t.timestamp, t.body) for t in turns] == [
        ("Rina", "PM", "00:00:05", "Good morning."),
        ("Bagus", None, "00:01", "Morning, Rina."),
    ]
    assert turns[0].text == "Rina (PM): Good morning." == text[turns[0].start : turns[0].end]
    assert parse_turns(text) is None  # two turns are not enough to call it a dialogue


def test_parse_turn_line() -> None:
    """Any short label is a speaker on its own line; lines without a head give None."""
    assert parse_turn_line("agent : hi there") == ("agent", "hi there", None, None)
    assert parse_turn_line("Customer Service Rep: ok: fine") == (
        "Customer Service Rep",
        "ok: fine",
        None,
        None,
    )
    assert parse_turn_line("[00:01:12] Rina (PM): Let's start.") == (
        "Rina",
        "Let's start.",
        "PM",
        "00:01:12",
    )
    assert parse_turn_line("Tom ( ): x") == ("Tom", "x", None, None)
    assert parse_turn_line("no head here") is None
    assert parse_turn_line("12:30: lunch") is None


def test_autoeval_turns_from_text_lines() -> None:
    """Plain-text transcripts keep "Speaker:" as the role and gain names and timestamps."""
    conv = ConversationItem(
        transcript="Agent: Hello.\n[00:00:09] Marisol (customer): Hi.\njust text",
        summary="ok",
    )
    assert [(t.role, t.name, t.timestamp, t.text) for t in conv.turns] == [
        ("Agent", None, None, "Hello."),
        ("customer", "Marisol", "00:00:09", "Hi."),
        ("text", None, None, "just text"),
    ]
