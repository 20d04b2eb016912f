"""The fingerprint of a request without messages covers its subject; with messages, not.

A judge that reads no prompt (`Capabilities.reads_prompt` False) is sent requests without
messages; its subject then tells two items apart. Every request with messages keeps the
key it always had, so no LLM reply in a response cache is lost.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace

from sumjudge.protocol import JudgeRequest, Message, PairSubject, ScoreSubject, TurnsSubject


def test_a_request_with_messages_keeps_its_key() -> None:
    request = JudgeRequest(
        messages=(
            Message.of("system", "Judge it."),
            Message("user", ("<source>Sú.</source>", "Rate it.")),
        ),
        task="coherence@1",
        schema={"type": "object"},
        schema_name="coherence_verdict",
        logprobs=True,
        kind="score",
        subject=ScoreSubject("Sú.", "S.", "en", ("coherence",)),
    )
    # the key of this request before the subject could enter the fingerprint
    assert request.fingerprint() == (
        "413b5a7a9360e95337ad4ec00d89eea47b47b240ff375fd7850918e89c0e8d7e"
    )
    assert "subject" not in request.fingerprint_payload()
    assert request.fingerprint() == replace(request, subject=None).fingerprint()
    # nor does a request with neither messages nor subject change its key
    assert JudgeRequest(messages=(), task="t@1").fingerprint() == (
        "8e9c86f89108b35ab7bd126f6df2d5b73fd379694992566eeb5ae1bfd11841f0"
    )


def test_a_request_without_messages_is_keyed_by_its_subject() -> None:
    one = JudgeRequest(
        messages=(), task="coherence@1", kind="score", subject=ScoreSubject("A.", "B.")
    )
    other = replace(one, subject=ScoreSubject("A.", "C."))
    assert one.fingerprint() != other.fingerprint()
    assert one.fingerprint() == replace(one, subject=ScoreSubject("A.", "B.")).fingerprint()
    blob = json.dumps(
        one.fingerprint_payload(), sort_keys=True, ensure_ascii=False, separators=(",", ":")
    )
    assert one.fingerprint() == hashlib.sha256(blob.encode()).hexdigest()
    # the sections' order is part of what is judged, so of the key
    ab = TurnsSubject(("Hi.",), {"A": "x", "B": "y"})
    ba = TurnsSubject(("Hi.",), {"B": "y", "A": "x"})
    turns = replace(one, kind="accuracy", subject=ab)
    assert turns.fingerprint() != replace(turns, subject=ba).fingerprint()
    # and two kinds of subject holding the same values are two subjects
    pair = replace(one, subject=PairSubject("A.", "B.", "C.", "coherence"))
    assert pair.fingerprint_payload()["subject"]["type"] == "PairSubject"
