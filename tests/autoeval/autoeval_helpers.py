"""Shared data and scripted-judge responders for the autoevaluation tests."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from sumjudge import JudgeRequest, RetryPolicy
from sumjudge.autoeval import SectionDefinition

NO_WAIT = RetryPolicy(initial_delay=0.0, max_delay=0.0, max_retry_after=0.0, jitter=False)

# The specification's completeness example, as a conversation.
TURNS: list[dict[str, Any]] = [
    {
        "role": "agent",
        "name": "Robyn",
        "timestamp": "00:00:02",
        "text": "Thanks for calling ABC, this is Robyn.",
    },
    {
        "role": "customer",
        "name": "Sam",
        "timestamp": "00:00:06",
        "text": "Hi, I have an ABC appointment on June 2nd for my Google Pixel "
        "and need the arrival window.",
    },
    {
        "role": "agent",
        "name": "Robyn",
        "timestamp": "00:00:15",
        "text": "The arrival window is from 01:30 PM to 2:45 PM. "
        "We also send it to you by text message.",
    },
    {
        "role": "customer",
        "name": "Sam",
        "timestamp": "00:00:24",
        "text": "Great. Is my number 123-456-7890 on file?",
    },
    {
        "role": "agent",
        "name": "Robyn",
        "timestamp": "00:00:29",
        "text": "Yes, I confirmed the phone number is 123-456-7890.",
    },
]
SUMMARY = {
    "Agent actions": (
        "The agent, Robyn, provided the customer with the arrival window for the ABC "
        "appointment, which is from 01:30 PM to 2:45 PM. The agent also clarified that the "
        "arrival window information is sent via text message, and confirmed the phone number "
        "is 123-456-7890."
    ),
    "Call reason": "The customer called about an appointment.",
    "Resolved": "Partially. The customer still needs to wait for the text message.",
}
ACTIONS = SectionDefinition(
    name="Agent actions",
    kind="custom",
    instruction=(
        "Describe the specific actions the agent took to assist the customer with their issue "
        "or request. Identify any dates explicitly mentioned by the agent or the customer. "
        "Identify the brand and any relevant specifications mentioned in the conversation. "
        "Describe any updates the agent made, such as price, address, or order updates. "
        "Extract the customer's order number and include it in the summary."
    ),
)
REASON = SectionDefinition(
    name="Call reason", kind="prebuilt", instruction="Describe why the customer called."
)
RESOLVED = SectionDefinition(
    name="Resolved",
    kind="custom",
    instruction="Was the issue resolved? Answer Yes or No.",
    allowed_values=("Yes", "No"),
)
SECTIONS = [ACTIONS, REASON, RESOLVED]
ITEM = {"id": "abc-1", "transcript": TURNS, "summary": SUMMARY}

DIRECTIVES = {
    "Agent actions": [
        "Describe the specific actions the agent took to assist the customer with their issue "
        "or request",
        "Identify any dates explicitly mentioned by the agent or the customer",
        "Identify the brand and any relevant specifications mentioned in the conversation",
        "Describe any updates the agent made, such as price, address, or order updates",
        "Extract the customer's order number and include it in the summary",
    ],
    "Call reason": ["Describe why the customer called"],
}

_QUESTION = re.compile(r'^(Q\d+) \(section "(.+?)"\): (.*)$', re.MULTILINE)


def questions_in(request: JudgeRequest) -> list[tuple[str, str, str]]:
    """(id, section, question) for every question in an adherence/completeness request."""
    return _QUESTION.findall(request.messages[-1].parts[-1])


def section_of(request: JudgeRequest) -> str:
    match = re.search(r"Name: (.*)", request.messages[-1].parts[0])
    assert match
    return match.group(1).strip()


def responder(
    *,
    points: list[dict[str, Any]] | None = None,
    addressed: Callable[[str, str], bool] | None = None,
    content: Callable[[str, str], list[dict[str, Any]]] | None = None,
    directives: dict[str, list[str]] | None = None,
) -> Callable[[JudgeRequest], Any]:
    """A ScriptedJudge responder that answers every task of the autoevaluation."""
    table = directives or DIRECTIVES

    def answer(request: JudgeRequest) -> Any:
        task = request.task
        if task.startswith("rubric"):
            name = section_of(request)
            return {"analysis": "Split.", "directives": table.get(name, [f"Do {name}"])}
        if task.startswith("accuracy"):
            return {"decomposition": points if points is not None else []}
        if task.startswith("adherence"):
            return {
                "rubrics": [
                    {
                        "id": qid,
                        "reasoning": f"Checked {section}.",
                        "is_addressed": addressed(section, q) if addressed else True,
                    }
                    for qid, section, q in questions_in(request)
                ]
            }
        if task.startswith("completeness"):
            return {
                "rubrics": [
                    {"id": qid, "content_list": content(section, q) if content else []}
                    for qid, section, q in questions_in(request)
                ]
            }
        if task.startswith("consistency"):
            return {"explanation": "Fine.", "score": 3}
        raise AssertionError(f"unexpected task {task}")

    return answer


def spec_content(section: str, question: str) -> list[dict[str, Any]]:
    """The specification's completeness example, question by question."""
    if "specific actions" in question:
        return [
            {
                "transcript_content": "The agent provided the customer with the arrival "
                "window for the ABC appointment.",
                "related_content_from_summary": "The agent, Robyn, provided the customer with "
                "the arrival window for the ABC appointment, which is from 01:30 PM to 2:45 PM.",
                "is_covered": "True",
            },
            {
                "transcript_content": "The agent clarified that the arrival window "
                "information is sent via text message.",
                "related_content_from_summary": "The agent also clarified that the arrival "
                "window information is sent via text message",
                "is_covered": "True",
            },
            {
                "transcript_content": "The agent confirmed the phone number is 123-456-7890.",
                "related_content_from_summary": "and confirmed the phone number is 123-456-7890.",
                "is_covered": "True",
            },
        ]
    if "dates explicitly" in question:
        return [
            {
                "transcript_content": "The ABC appointment is on June 2nd.",
                "related_content_from_summary": "",
                "is_covered": "False",
            }
        ]
    if "brand" in question:
        return [
            {
                "transcript_content": "The appointment is for a Google Pixel.",
                "related_content_from_summary": "",
                "is_covered": False,
            }
        ]
    return []
