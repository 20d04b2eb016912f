"""The re-ask after a cut-off reply: more room, and a note asking for brevity."""

from __future__ import annotations

from sumjudge.protocol import JudgeRequest, Message
from sumjudge.reask import BRIEF_NOTE, roomier_request
from sumjudge.subjects import ScoreSubject


def test_the_note_joins_the_last_user_message_and_the_budget_doubles() -> None:
    request = JudgeRequest(
        messages=(Message.of("system", "Judge."), Message.of("user", "Text")),
        task="coherence",
        max_tokens=1024,
    )
    roomier = roomier_request(request)
    assert [m.role for m in roomier.messages] == ["system", "user"]
    assert roomier.messages[-1].parts == ("Text", "\n\n" + BRIEF_NOTE)
    assert roomier.max_tokens == 2048
    assert roomier.task == "coherence:room"


def test_a_request_without_messages_gets_the_budget_only() -> None:
    subject = ScoreSubject(source="A.", summary="B.", language="en", metrics=("coherence",))
    request = JudgeRequest(messages=(), task="coherence", max_tokens=100, subject=subject)
    roomier = roomier_request(request)
    assert roomier.messages == ()
    assert roomier.max_tokens == 356
    assert roomier.subject == subject
