"""N/A rules, the categorical check, the empty-content rule and the percentage arithmetic."""

from __future__ import annotations

from typing import Any

import pytest
from autoeval_helpers import ACTIONS, ITEM, NO_WAIT, REASON, RESOLVED, SECTIONS, TURNS, responder

from sumjudge import ScriptedJudge
from sumjudge.autoeval import AutoEvaluator, SectionDefinition
from sumjudge.metrics.adherence import categorical_check
from sumjudge.metrics.consistency import derived_score
from sumjudge.metrics.rubric import CATEGORICAL_QUESTION
from sumjudge.types import percent


def make(judge: ScriptedJudge, sections: Any = SECTIONS, **kw: Any) -> AutoEvaluator:
    return AutoEvaluator(judge, sections=sections, retry_policy=NO_WAIT, **kw)


def test_percent_arithmetic() -> None:
    assert percent(1, 2) == 50.0
    assert percent(2, 3) == 66.67
    assert percent(1, 3) == 33.33
    assert percent(3, 3) == 100.0
    assert percent(0, 4) == 0.0
    assert percent(0, 0) is None


@pytest.mark.parametrize(
    ("text", "passed", "matched"),
    [
        ("Yes", True, "Yes"),
        ("  yes \n", True, "Yes"),
        ("NO", True, "No"),
        ("Yes.", False, None),
        ("Yes, mostly", False, None),
        ("Partially. The label was sent.", False, None),
        ("", False, None),
        (None, False, None),
    ],
)
def test_categorical_check(text: str | None, passed: bool, matched: str | None) -> None:
    check = categorical_check(RESOLVED, text)
    assert (check["passed"], check["matched"]) == (passed, matched)
    assert check["allowed_values"] == ["Yes", "No"]


async def test_categorical_value_passing_the_check_goes_to_the_judge() -> None:
    item = {**ITEM, "summary": {**ITEM["summary"], "Resolved": " yes "}}
    judge = ScriptedJudge(responder=responder(addressed=lambda s, q: s != "Resolved"))
    out = await make(judge, metrics=["adherence"]).evaluate(item)
    resolved = out["adherence"]["sections"]["Resolved"]
    assert resolved["categorical_check"]["passed"] is True
    assert resolved["rubrics"][0]["question"] == CATEGORICAL_QUESTION
    assert resolved["rubrics"][0]["reasoning"].startswith("Deterministic check passed")
    assert resolved["rubrics"][0]["is_addressed"] == "False"  # the judge's verdict stands
    prompt = judge.requests_for("adherence")[0].messages[-1].parts[-1]
    assert f'(section "Resolved"): {CATEGORICAL_QUESTION}' in prompt
    assert "Allowed values: Yes, No" in prompt


async def test_only_prebuilt_sections_make_adherence_na() -> None:
    item = {"transcript": TURNS, "summary": {"Call reason": "An appointment question."}}
    judge = ScriptedJudge(responder=responder())
    out = await make(judge, sections=[REASON], metrics=["adherence"]).evaluate(item)
    assert out["adherence"]["score"] is None
    assert "no custom sections" in out["adherence"]["reason"]
    assert out["adherence"]["sections"]["Call reason"]["reason"].startswith("N/A")
    assert judge.requests == []  # nothing to ask


async def test_only_categorical_sections_make_completeness_na() -> None:
    item = {"transcript": TURNS, "summary": {"Resolved": "Yes"}}
    judge = ScriptedJudge(responder=responder())
    out = await make(judge, sections=[RESOLVED], metrics=["completeness"]).evaluate(item)
    assert out["completeness"]["score"] is None
    assert "free-form" in out["completeness"]["reason"]
    assert judge.requests == []


async def test_empty_content_lists_everywhere_give_no_score() -> None:
    judge = ScriptedJudge(responder=responder(content=lambda s, q: []))
    out = await make(judge, metrics=["completeness"]).evaluate(ITEM)
    comp = out["completeness"]
    assert comp["score"] is None and comp["items"] == 0
    assert comp["reason"] == "the transcript holds no content for any question"
    assert all(r["content_list"] == [] for r in comp["sections"]["Agent actions"]["rubrics"])
    assert len(comp["sections"]["Agent actions"]["rubrics"]) == 5


async def test_covered_without_proof_counts_as_uncovered() -> None:
    def content(section: str, question: str) -> list[dict[str, Any]]:
        return [
            {"transcript_content": "A.", "related_content_from_summary": "", "is_covered": True},
            {"transcript_content": "B.", "related_content_from_summary": "b", "is_covered": False},
            {"transcript_content": "C.", "related_content_from_summary": "c", "is_covered": "true"},
        ]

    judge = ScriptedJudge(responder=responder(content=content))
    out = await make(judge, sections=[ACTIONS], metrics=["completeness"]).evaluate(ITEM)
    items = out["completeness"]["sections"]["Agent actions"]["rubrics"][0]["content_list"]
    assert [(i["related_content_from_summary"], i["is_covered"]) for i in items] == [
        ("", "False"),
        ("", "False"),
        ("c", "True"),
    ]
    assert out["completeness"]["score"] == 33.33


async def test_sections_without_definition_and_missing_sections() -> None:
    item = {
        "transcript": TURNS,
        "summary": {"Agent actions": "Robyn gave the window.", "Extra": "Something else."},
    }
    judge = ScriptedJudge(responder=responder(addressed=lambda s, q: s != "Resolved"))
    out = await make(judge, metrics=["adherence", "completeness"]).evaluate(item)
    adherence = out["adherence"]["sections"]
    assert list(adherence) == ["Agent actions", "Extra", "Call reason", "Resolved"]
    assert adherence["Extra"]["reason"] == "N/A: no section definition has this section's name"
    # a defined categorical section absent from the summary fails the check as empty
    assert adherence["Resolved"]["categorical_check"]["value"] == ""
    assert adherence["Resolved"]["rubrics"][0]["is_addressed"] == "False"
    block = judge.requests_for("completeness")[0].messages[-1].parts[0]
    assert "## Call reason\n\n" in block  # the missing section is shown empty to the judge


async def test_no_section_definitions_at_all() -> None:
    judge = ScriptedJudge(responder=responder())
    out = await AutoEvaluator(judge, retry_policy=NO_WAIT).evaluate(ITEM)
    assert out["adherence"]["score"] is None and out["completeness"]["score"] is None
    assert judge.requests_for("rubric") == []
    assert [r.task for r in judge.requests] == ["accuracy@2"]


async def test_free_text_summary_with_one_definition() -> None:
    definition = SectionDefinition(name="Notes", instruction="Say what the agent did.")
    item = {"transcript": "Agent: Hello.\nCustomer: My order is late.", "summary": "It is late."}
    judge = ScriptedJudge(responder=responder(content=lambda s, q: []))
    out = await make(judge, sections=[definition]).evaluate(item)
    assert list(out["adherence"]["sections"]) == ["summary"]
    assert out["adherence"]["sections"]["summary"]["questions"] == 1
    block = judge.requests_for("accuracy")[0].messages[-1].parts[0]
    assert "[1] Agent: Hello.\n[2] Customer: My order is late." in block


def test_derived_consistency_rule() -> None:
    assert derived_score(4, 0) == 3
    assert derived_score(4, 1) == 2
    assert derived_score(5, 2) == 2
    assert derived_score(4, 2) == 1  # half
    assert derived_score(3, 3) == 1
    with pytest.raises(ValueError):
        derived_score(0, 0)


async def test_sections_from_a_yaml_path(tmp_path: Any) -> None:
    path = tmp_path / "sections.yaml"
    path.write_text(
        "sections:\n"
        "  - name: Resolved\n"
        "    instruction: Was it resolved?\n"
        "    allowed_values: ['Yes', 'No']\n"
    )
    judge = ScriptedJudge(responder=responder())
    ev = AutoEvaluator(judge, sections=str(path), metrics=["adherence"], retry_policy=NO_WAIT)
    assert ev.sections[0].kind == "custom" and ev.sections[0].categorical
    out = await ev.evaluate(ITEM)
    assert out["adherence"]["sections"]["Resolved"]["score"] == 0.0


def test_configuration_errors() -> None:
    from sumjudge import ConfigError, DataError

    judge = ScriptedJudge()
    with pytest.raises(ConfigError, match="unknown metric"):
        AutoEvaluator(judge, metrics=["accuracy", "fluency"])
    with pytest.raises(ConfigError, match="at least one"):
        AutoEvaluator(judge, metrics=[])
    with pytest.raises(ConfigError, match="defined twice"):
        AutoEvaluator(judge, sections=[RESOLVED, RESOLVED])
    with pytest.raises(DataError, match="allowed_values"):
        AutoEvaluator(judge, sections=[{"name": "A", "instruction": "x", "allowed_values": []}])
    with pytest.raises(DataError, match="kind"):
        AutoEvaluator(judge, sections=[{"name": "A", "instruction": "x", "kind": "builtin"}])


async def test_all_sections_empty_is_na_for_accuracy() -> None:
    judge = ScriptedJudge(responder=responder())
    ev = AutoEvaluator(judge, metrics=["accuracy"], retry_policy=NO_WAIT)
    out = await ev.evaluate({"transcript": TURNS, "summary": {"A": "", "B": " "}})
    assert out["accuracy"]["score"] is None
    assert out["accuracy"]["reason"] == "N/A: every section is empty"
    assert judge.requests == []
