"""The report renders what the evaluators really write (not only hand-made fixtures).

AutoEvaluator runs over the bundled contact-centre conversations against the local fake
OpenAI server, with a responder that answers like a careful judge: real quotes from the
transcript, one contradicted point per summary, answers to every rubric question.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sumjudge import RetryPolicy
from sumjudge.autoeval import AutoEvaluator
from sumjudge.datasets.conversations import load_contact_center_dataset
from sumjudge.report import render_report, write_report
from sumjudge.testing.openai_server import FakeOpenAIServer, Reply

NO_WAIT = RetryPolicy(initial_delay=0.0, max_delay=0.0, max_retry_after=0.0, jitter=False)
_TURN = re.compile(r"^\[(\d+)\] (?:[^(:\n]*\([^)\n]*\)|[^:\n]+): (.+)$", re.MULTILINE)
_QUESTION = re.compile(r"^(Q\d+) \(section \"(.+?)\"\): (.*)$", re.MULTILINE)
_SECTIONS = re.compile(r"Sections to decompose, by name: (.*)\.\n")


def careful_judge(body: dict[str, Any]) -> Reply:
    name = body["response_format"]["json_schema"]["name"]
    text = "\n".join(str(m.get("content", "")) for m in body["messages"])
    questions = _QUESTION.findall(text)
    if name == "section_rubric":
        section = re.search(r"Name: (.*)", text)
        directive = section.group(1).strip() if section else "the section"
        return Reply.json({"analysis": "One thing.", "directives": [f"Describe {directive}"]})
    if name == "accuracy_decomposition":
        turns = _TURN.findall(text)
        found = _SECTIONS.search(text)
        sections = re.findall(r'"([^"]+)"', found.group(1)) if found else ["summary"]
        points = []
        for k, (number, turn_text) in enumerate(turns[1:4]):
            quote = " ".join(turn_text.split()[:5])
            accurate = k != 1
            points.append(
                {
                    "section": sections[k % len(sections)],
                    "point": f"Point {k + 1} about turn {number}.",
                    "turns": [int(number)],
                    "quote": quote,
                    "accuracy": "This is accurate." if accurate else "This is inaccurate.",
                    "is_accurate": accurate,
                }
            )
        return Reply.json({"decomposition": points})
    if name == "adherence_rubrics":
        rubrics = [
            {"id": q, "reasoning": f"Checked {q}.", "is_addressed": i % 2 == 0}
            for i, (q, _, _) in enumerate(questions)
        ]
        return Reply.json({"rubrics": rubrics})
    if name == "completeness_rubrics":
        item = {
            "transcript_content": "The agent confirmed the next step.",
            "related_content_from_summary": "",
            "is_covered": False,
        }
        return Reply.json({"rubrics": [{"id": q, "content_list": [item]} for q, _, _ in questions]})
    raise AssertionError(f"unexpected request {name}")


async def test_autoevaluator_output_renders(tmp_path: Path) -> None:
    dataset = load_contact_center_dataset()
    items = dataset.load()
    with FakeOpenAIServer() as srv:
        srv.responder = careful_judge
        evaluator = AutoEvaluator(
            "openai/fake-model",
            model_credentials="sk-test",
            base_url=srv.base_url,
            sections=dataset.sections(),
            retry_policy=NO_WAIT,
        )
        try:
            records = [r async for r in evaluator.evaluate_batch(items)]
        finally:
            await evaluator.aclose()
    records.sort(key=lambda r: r.index)
    assert all(r.error is None for r in records)

    html = render_report(records, inputs=items)
    n = len(items)
    assert html.count('<tbody class="item"') == n
    # Every conversation shows its numbered transcript, with the cited quotes marked:
    # supported points in green, the contradicted one in red.
    assert html.count('<div class="turn" id="t-0-') == len(items[0].turns)
    assert len(re.findall(r'<mark class="sup" id="q-\d+-1"', html)) == n
    assert len(re.findall(r'<mark class="con" id="q-\d+-2"', html)) == n
    assert "adherence by section" in html and "completeness by section" in html
    assert "0/1 covered" in html and "not addressed" in html
    assert html.count('<svg role="img" class="chart"') == 3
    assert 'data-tile="mean accuracy"' in html
    prov = html[html.index('id="provenance"') :]
    assert "openai/fake-model" in prov and "usage.prompt tokens" in prov

    write_report(records, tmp_path / "auto.html", inputs=items)
    assert (tmp_path / "auto.html").stat().st_size > 10_000
