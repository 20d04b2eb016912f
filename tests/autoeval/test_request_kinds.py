"""Every request says what it asks for (`kind`) and carries its material typed (`subject`).

The offline judge dispatches on them, never on the task string; neither enters the
fingerprint, so cache keys stay what they were.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest
from autoeval_helpers import ITEM, NO_WAIT, SECTIONS, responder

from sumjudge import RequestError, ScriptedJudge
from sumjudge.autoeval import AutoEvaluator
from sumjudge.metrics import SUMMARY_METRICS, JudgeOptions
from sumjudge.metrics.chunk_notes import notes_request
from sumjudge.metrics.layouts import build_rubrics_first_request, build_single_request
from sumjudge.metrics.pairwise import build_pair_request
from sumjudge.offline import OfflineVerdict, SentenceCheck
from sumjudge.offline.backend import OfflineJudge
from sumjudge.protocol import JudgeRequest, PairSubject, ScoreSubject, TurnsSubject

COHERENCE = SUMMARY_METRICS["coherence"]
FOUR = list(SUMMARY_METRICS.values())


def test_summary_requests_carry_their_kind_and_score_subject() -> None:
    options = JudgeOptions(language="en")
    one = COHERENCE.build_request("Src.", "Sum.", language="en")
    first = build_rubrics_first_request(COHERENCE, FOUR, "Src.", "Sum.", options)
    single = build_single_request(FOUR, "Src.", "Sum.", options)
    pair = build_pair_request(COHERENCE, "Src.", "A.", "B.", options)
    assert (one.kind, first.kind, single.kind, pair.kind) == (
        "score",
        "score",
        "single_call",
        "pairwise",
    )
    assert one.subject == first.subject == ScoreSubject("Src.", "Sum.", "en", ("coherence",))
    assert single.subject == ScoreSubject("Src.", "Sum.", "en", tuple(SUMMARY_METRICS))
    assert pair.subject == PairSubject("Src.", "A.", "B.", "coherence")
    assert notes_request(0, "Part.", 2, None).kind == "notes"


def test_kind_and_subject_stay_out_of_the_cache_key() -> None:
    request = COHERENCE.build_request("Src.", "Sum.")
    bare = replace(request, kind="other", subject=None)
    assert bare.fingerprint() == request.fingerprint() and bare == request


async def test_conversation_requests_carry_their_kind_and_subject() -> None:
    judge = ScriptedJudge(responder=responder())
    ev = AutoEvaluator(judge, sections=SECTIONS, retry_policy=NO_WAIT)
    await ev.evaluate(ITEM)
    kinds = {r.task.split("@")[0]: r.kind for r in judge.requests}
    assert kinds == {
        "rubric": "rubric",
        "accuracy": "accuracy",
        "adherence": "questions",
        "completeness": "questions",
    }
    [accuracy] = judge.requests_for("accuracy")
    assert isinstance(accuracy.subject, TurnsSubject)
    assert accuracy.subject.turns[0] == ITEM["transcript"][0]["text"]
    assert "Resolved" in accuracy.subject.sections


class _Scorer:
    name = "local-fake"
    version = "t"

    def analyse(self, source: str, summary: str) -> Any:
        return summary

    def verdicts(self, a: Any, metrics: Sequence[str], lang: str) -> Mapping[str, OfflineVerdict]:
        return {m: OfflineVerdict(2, f"{m}: {a}", 0.25, ("e",)) for m in metrics}

    def check_sentences(
        self, source: str, summary: str, *, language: str | None = None
    ) -> list[SentenceCheck]:
        return [SentenceCheck(summary, True, "ok", summary, 1.0)]  # quoted verbatim


async def test_the_offline_judge_dispatches_on_the_kind_not_the_task() -> None:
    judge = OfflineJudge("local", scorer=_Scorer())
    subject = ScoreSubject("Src.", "Sum.", "en", ("fluency",))
    odd = JudgeRequest(messages=(), task="anything@9", kind="score", subject=subject)
    reply = await judge.complete(odd)
    assert reply.parsed == {
        "explanation": "fluency: Sum.",
        "score": 2,
        "evidence": ["e"],
        "raw": 0.25,
    }
    both = replace(odd, kind="single_call", subject=replace(subject, metrics=("a", "b")))
    assert set((await judge.complete(both)).parsed) == {"a", "b"}
    turns = TurnsSubject(("Hi there.", "Bye."), {"Notes": "Hi there."}, None)
    points = (await judge.complete(replace(odd, kind="accuracy", subject=turns))).parsed
    assert points["decomposition"][0]["turns"] == [1]
    with pytest.raises(RequestError, match="cannot judge coherence@"):
        await judge.complete(replace(COHERENCE.build_request("S.", "T."), kind="other"))
    with pytest.raises(RequestError, match="needs the request's TurnsSubject"):
        await judge.complete(replace(odd, kind="accuracy"))
