"""model="local": what can honestly be judged without an LLM, and N/A for the rest."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from autoeval_helpers import ITEM, SECTIONS

import sumjudge.evaluators.auto as evaluator_module
import sumjudge.offline.backend as offline_module
from sumjudge import ConfigError, load_contact_center_dataset
from sumjudge.autoeval import AutoEvaluator
from sumjudge.offline import OfflineVerdict, SentenceCheck
from sumjudge.offline.backend import NEEDS_LLM, Scorer, load_scorer


class FakeScorer:
    """Stands in for sumjudge.offline.OfflineScorer (the backend's `Scorer` interface).

    One check per sentence; a 2 for every metric asked of a (source, summary) pair.
    """

    name = "local-fake"
    version = "t"

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []
        self.analysed: list[tuple[str, str]] = []

    def analyse(self, source: str, summary: str) -> Any:
        self.analysed.append((source, summary))
        return (source, summary)

    def verdicts(self, a: Any, metrics: Sequence[str], lang: str) -> Mapping[str, OfflineVerdict]:
        return {m: OfflineVerdict(2, f"{m} in {lang}", 0.5, ()) for m in metrics}

    def check_sentences(
        self, source: str, summary: str, *, language: str | None = None
    ) -> list[SentenceCheck]:
        self.calls.append((source, summary))
        out = []
        for sentence in [s.strip() for s in summary.split(". ") if s.strip()]:
            ok = "01:30" in sentence
            quote = "The arrival window is from 01:30 PM to 2:45 PM." if ok else "made up text"
            out.append(
                SentenceCheck(sentence, ok, "supported" if ok else "unsupported", quote, 0.5)
            )
        return out


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeScorer:
    scorer = FakeScorer()
    monkeypatch.setattr(offline_module, "load_scorer", lambda model: scorer)
    return scorer


async def test_offline_rules(fake: FakeScorer) -> None:
    ev = AutoEvaluator("local", sections=SECTIONS, metrics=[*evaluator_module.AUTO_METRICS])
    # The offline judge is a backend like any other (issue 10): no judge-less branch.
    assert ev.judge.capabilities.mode == "offline" and ev.judge_name == "local-fake"
    out = await ev.evaluate(ITEM)
    accuracy = out["accuracy"]
    assert accuracy["mode"] == "offline"
    assert [p["section"] for p in accuracy["decomposition"]] == [
        "Agent actions",
        "Agent actions",
        "Call reason",
    ]
    first, second, _ = accuracy["decomposition"]
    assert first["is_accurate"] is True and first["quote_verified"] is True
    assert first["turns"] == [3]
    assert second["quote_verified"] is False
    assert second["flags"] == ["quote not found in the transcript"]
    assert accuracy["score"] == 33.33
    assert accuracy["sections"]["Resolved"]["score"] is None
    assert "categorical" in accuracy["sections"]["Resolved"]["reason"]
    # categorical sections are never sent to the sentence checker
    assert all("Partially" not in summary for _, summary in fake.calls)

    adherence = out["adherence"]
    assert adherence["sections"]["Agent actions"] == {"score": None, "reason": NEEDS_LLM}
    assert adherence["sections"]["Call reason"]["reason"].startswith("N/A: adherence is judged")
    assert adherence["sections"]["Resolved"]["rubrics"][0]["is_addressed"] == "False"
    assert adherence["score"] == 0.0 and adherence["mode"] == "offline"

    completeness = out["completeness"]
    assert completeness == {
        "score": None,
        "reason": NEEDS_LLM,
        "sections": {n: {"score": None, "reason": NEEDS_LLM} for n in ITEM["summary"]},
        "version": "offline-t",
        "mode": "offline",
    }


async def test_offline_categorical_pass_and_derived_consistency(fake: FakeScorer) -> None:
    item = {**ITEM, "summary": {**ITEM["summary"], "Resolved": "No"}}
    ev = AutoEvaluator("local", sections=SECTIONS, metrics=["adherence", "accuracy", "consistency"])
    out = await ev.evaluate(item)
    resolved = out["adherence"]["sections"]["Resolved"]
    assert resolved["rubrics"][0]["is_addressed"] == "True"
    assert "not judged" in resolved["rubrics"][0]["reasoning"]
    assert out["consistency"]["score"] == 1  # 2 of 3 sentences unsupported
    assert out["consistency"]["score_mode"] == "derived_from_accuracy"
    assert len(fake.calls) == 2  # one per free-form section, shared by both metrics


async def test_offline_consistency_alone_is_a_score_request_on_turns_and_sections(
    fake: FakeScorer,
) -> None:
    ev = AutoEvaluator("local", sections=SECTIONS, metrics=["consistency"])
    out = await ev.evaluate(ITEM)
    assert out["consistency"]["score"] == 2 and out["consistency"]["score_mode"] == "offline"
    assert out["consistency"]["explanation"] == "consistency in en"
    [(source, summary)] = fake.analysed  # the plain turns and sections, not the prompt
    assert "01:30" in source and "<transcript" not in source and "[1]" not in source
    assert "Partially" in summary and "##" not in summary


def test_the_old_import_path_is_the_backend() -> None:
    import sumjudge.judges.offline as old

    assert old.OfflineJudge is offline_module.OfflineJudge and old.load_scorer is load_scorer
    assert old.LOCAL_MODELS == ("local", "local-lexical")


def test_the_fake_has_the_scorer_interface() -> None:
    scorer: Scorer = FakeScorer()  # mypy checks the fake against the backend's protocol
    assert offline_module.OfflineJudge("local", scorer=scorer).capabilities.version == "offline-t"


async def test_offline_batch_over_bundled_set(fake: FakeScorer) -> None:
    data = load_contact_center_dataset()
    ev = AutoEvaluator("local", sections=data.sections())
    records = [r async for r in ev.evaluate_batch(data.load())]
    assert len(records) == 4 and all(r.result is not None for r in records)
    by_id = {r.id: r.to_dict() for r in records}
    mouse = by_id["cc-retail-mouse-return"]["adherence"]["sections"]
    assert mouse["Resolved"]["categorical_check"]["passed"] is False
    assert mouse["Customer sentiment"]["categorical_check"]["passed"] is True


def test_real_offline_scorer_or_a_clear_error() -> None:
    try:
        scorer = load_scorer("local-lexical")
    except ConfigError as exc:
        assert "offline judge" in str(exc) and "not available" in str(exc)
        return
    checks: Any = scorer.check_sentences("Rina ships on Friday.", "Rina ships on Friday.")
    assert checks and hasattr(checks[0], "support_quote")
