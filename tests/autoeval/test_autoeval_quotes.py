"""Transcript rendering and verification of the evidence quotes the judge gives."""

from __future__ import annotations

from autoeval_helpers import ITEM, NO_WAIT, SECTIONS, TURNS, responder

from sumjudge import ScriptedJudge
from sumjudge.autoeval import AutoEvaluator, Turn, render_transcript, verify_quote

T = [Turn.model_validate(t) for t in TURNS]


def test_render_transcript_numbers_turns() -> None:
    turns = [
        Turn(role="agent", name="Devon", timestamp="00:00:29", text="Hello  there.\nHi"),
        Turn(role="customer", text="Hi."),
        Turn(role="customer", timestamp="00:01", text="Ok."),
    ]
    assert render_transcript(turns) == (
        "[1] agent (Devon, 00:00:29): Hello there. Hi\n[2] customer: Hi.\n[3] customer (00:01): Ok."
    )


def test_verify_quote_normalises_whitespace_case_and_quotes() -> None:
    assert verify_quote("the arrival WINDOW is   from 01:30 pm", T) is True
    assert verify_quote('"I confirmed the phone number is 123-456-7890."', T) is True
    assert verify_quote("The arrival window is from ... 2:45 PM", T) is True
    assert verify_quote("Is my number 123-456-7890 on file?", T) is True
    assert verify_quote("Thanks for calling ABC, this is Robyn’s", T) is False
    assert verify_quote("a $30 credit", T) is False
    assert verify_quote("", T) is None
    assert verify_quote('  ""  ', T) is None


async def test_unverifiable_quote_and_bad_turn_are_flagged() -> None:
    points = [
        {
            "section": "Agent actions",
            "point": "The window is 1:30 to 2:45.",
            "turns": [3],
            "quote": "The arrival window is from 01:30 PM to 2:45 PM",
            "accuracy": "This is accurate.",
            "is_accurate": True,
        },
        {
            "section": "agent ACTIONS",
            "point": "The agent offered a $30 credit.",
            "turns": ["3", 42],
            "quote": "I can offer you a $30 credit",
            "accuracy": "This is accurate.",
            "is_accurate": True,
        },
        {
            "section": "Call reason",
            "point": "The customer called about an appointment.",
            "turns": [],
            "quote": "",
            "accuracy": "This is accurate.",
            "is_accurate": "true",
        },
    ]
    judge = ScriptedJudge(responder=responder(points=points))
    ev = AutoEvaluator(judge, sections=SECTIONS, metrics=["accuracy"], retry_policy=NO_WAIT)
    out = (await ev.evaluate(ITEM))["accuracy"]
    good, invented, unquoted = out["decomposition"]
    assert good["quote_verified"] is True and "flags" not in good
    assert invented["section"] == "Agent actions"  # matched case-insensitively
    assert invented["quote_verified"] is False
    assert invented["turns"] == [3]
    assert invented["flags"] == [
        "quote not found in the transcript",
        "turn number(s) [42] do not exist (1-5)",
    ]
    assert unquoted["quote_verified"] is None and unquoted["is_accurate"] is True
    assert out["unverified_quotes"] == 1
    # flagged, not silently re-scored: the judge's verdict is kept
    assert out["score"] == 100.0


async def test_schemas_pin_section_names_and_question_ids() -> None:
    points = [
        {
            "section": "Invented",
            "point": "Something.",
            "turns": [],
            "quote": "",
            "accuracy": "This is accurate.",
            "is_accurate": True,
        }
    ]
    judge = ScriptedJudge(responder=responder(points=points))
    ev = AutoEvaluator(judge, sections=SECTIONS, retry_policy=NO_WAIT)
    out = await ev.evaluate(ITEM)
    assert out["accuracy"]["decomposition"][0]["flags"] == [
        "the summary has no section of this name"
    ]
    schema = judge.requests_for("accuracy")[0].schema
    assert schema is not None
    section = schema["properties"]["decomposition"]["items"]["properties"]["section"]
    assert section["enum"] == ["Agent actions", "Call reason", "Resolved"]
    adherence = judge.requests_for("adherence")[0].schema
    assert adherence is not None
    ids = adherence["properties"]["rubrics"]["items"]["properties"]["id"]["enum"]
    assert ids == ["Q1", "Q2", "Q3", "Q4", "Q5"]
