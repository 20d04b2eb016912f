"""The done criteria on the bundled contact-centre set, with a scripted judge.

The judge's replies are scripted to what a correct judge would say about each flaw; the
tests check that they come out with the specification's shapes and our scores, and that
our own checks (quote verification, the categorical check) behave on real data.
"""

from __future__ import annotations

from typing import Any

from autoeval_helpers import NO_WAIT, responder

from sumjudge import JudgeRequest, ScriptedJudge, load_contact_center_dataset
from sumjudge.autoeval import AutoEvaluator

DATA = load_contact_center_dataset()
ITEMS = {i.id: i for i in DATA.load()}
DIRECTIVES = {
    "Situation": ["Describe the reason the customer contacted the contact centre"],
    "Action": ["Describe the specific actions the agent took to assist the customer"],
    "Key details": [
        "Identify any dates explicitly mentioned by the agent or the customer",
        "Identify the brand and any relevant product names or specifications",
        "Extract the customer's order number if any",
    ],
    "Resolution": ["State whether the issue was resolved", "State the next steps"],
}


def evaluator(judge: ScriptedJudge, **kw: Any) -> AutoEvaluator:
    return AutoEvaluator(judge, sections=DATA.sections(), retry_policy=NO_WAIT, **kw)


async def test_wrong_dollar_amount_is_an_inaccurate_point() -> None:
    points = [
        {
            "section": "Action",
            "point": "The agent restarted the Aeris HX2 router remotely.",
            "turns": [9],
            "quote": "I'm going to restart it remotely",
            "accuracy": "This is accurate. Devon restarts the router remotely.",
            "is_accurate": True,
        },
        {
            "section": "Action",
            "point": "The agent applied a $30 outage credit to the account.",
            "turns": [15],
            "quote": "The $10 credit from the text is our standard outage credit",
            "accuracy": "This is inaccurate. The credit applied was $10, not $30.",
            "is_accurate": False,
        },
        {
            "section": "Customer sentiment",
            "point": "The customer's sentiment was neutral.",
            "turns": [16],
            "quote": "Fine, I guess.",
            "accuracy": "This is accurate. She accepts it without enthusiasm.",
            "is_accurate": True,
        },
    ]
    judge = ScriptedJudge(responder=responder(points=points, directives=DIRECTIVES))
    ev = evaluator(judge, metrics=["accuracy", "consistency"])
    out = await ev.evaluate(ITEMS["cc-telecom-outage-credit"])
    wrong = out["accuracy"]["decomposition"][1]
    assert wrong["is_accurate"] is False
    assert wrong["quote_verified"] is True and wrong["turns"] == [15]
    assert out["accuracy"]["score"] == 66.67
    assert out["accuracy"]["sections"]["Action"] == {"score": 50.0, "points": 2, "accurate": 1}
    assert out["accuracy"]["sections"]["Customer sentiment"]["score"] == 100.0
    assert out["consistency"]["score"] == 2
    assert "$30 outage credit" in out["consistency"]["explanation"]
    assert [r.task for r in judge.requests] == ["accuracy@2"]


def _mouse_content(section: str, question: str) -> list[dict[str, Any]]:
    if section == "Key details" and "brand" in question:
        return [
            {
                "transcript_content": "The product is a Korvel Phantom G7 wireless gaming mouse.",
                "related_content_from_summary": "",
                "is_covered": "False",
            }
        ]
    if section == "Key details" and "order number" in question:
        return [
            {
                "transcript_content": "The order number is NGE-4471902.",
                "related_content_from_summary": "Order number: NGE-4471902.",
                "is_covered": "True",
            }
        ]
    return []


async def test_product_name_uncovered_and_categorical_prose() -> None:
    def addressed(section: str, question: str) -> bool:
        return not (section == "Key details" and "brand" in question)

    judge = ScriptedJudge(
        responder=responder(content=_mouse_content, addressed=addressed, directives=DIRECTIVES)
    )
    out = await evaluator(judge).evaluate(ITEMS["cc-retail-mouse-return"])
    resolved = out["adherence"]["sections"]["Resolved"]
    assert resolved["categorical_check"]["passed"] is False
    assert resolved["rubrics"][0]["is_addressed"] == "False"
    assert resolved["score"] == 0.0
    sentiment = out["adherence"]["sections"]["Customer sentiment"]
    assert sentiment["categorical_check"]["matched"] == "Positive"
    assert sentiment["score"] == 100.0
    assert out["adherence"]["sections"]["Situation"]["score"] is None  # prebuilt
    key = out["adherence"]["sections"]["Key details"]
    assert (key["questions"], key["addressed"], key["score"]) == (3, 2, 66.67)
    # adherence: Key details 2/3 + Resolution 2/2 + sentiment 1/1 + Resolved 0/1 = 5/7
    assert out["adherence"]["score"] == 71.43
    comp = out["completeness"]["sections"]["Key details"]
    brand = comp["rubrics"][1]
    assert brand["content_list"][0]["related_content_from_summary"] == ""
    assert brand["content_list"][0]["is_covered"] == "False"
    assert (comp["items"], comp["covered"], comp["score"]) == (2, 1, 50.0)
    assert out["completeness"]["sections"]["Resolved"]["score"] is None  # categorical
    adherence_requests = judge.requests_for("adherence")
    assert len(adherence_requests) == 1
    assert 'section "Resolved"' not in adherence_requests[0].messages[-1].parts[-1]


async def test_missed_date_is_an_uncovered_item() -> None:
    def content(section: str, question: str) -> list[dict[str, Any]]:
        if section == "Key details" and "dates" in question:
            return [
                {
                    "transcript_content": "The installation is on Monday, June 2nd, 8 am to noon.",
                    "related_content_from_summary": "",
                    "is_covered": "False",
                },
                {
                    "transcript_content": "The replacement deadline is June 30th.",
                    "related_content_from_summary": "Dates: replacement deadline June 30th.",
                    "is_covered": "True",
                },
            ]
        return []

    judge = ScriptedJudge(responder=responder(content=content, directives=DIRECTIVES))
    out = await evaluator(judge, metrics=["completeness"]).evaluate(
        ITEMS["cc-utility-smart-meter-appointment"]
    )
    key = out["completeness"]["sections"]["Key details"]
    dates = key["rubrics"][0]
    assert dates["question"] == (
        "Does the summary follow 'Identify any dates explicitly mentioned by the agent or the "
        "customer'?"
    )
    assert dates["content_list"][0] == {
        "transcript_content": "The installation is on Monday, June 2nd, 8 am to noon.",
        "related_content_from_summary": "",
        "is_covered": "False",
    }
    assert key["rubrics"][1]["content_list"] == []  # kept, not scored
    assert (key["items"], key["covered"], key["score"]) == (2, 1, 50.0)
    assert out["completeness"]["score"] == 50.0
    # timestamps are null in this conversation: turns render without them
    request: JudgeRequest = judge.requests_for("completeness")[0]
    assert "[9] agent (Aisha): That should comfortably cover it." in request.messages[-1].parts[0]
