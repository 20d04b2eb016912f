"""Every N/A and every failure in the report says why, in the table and in the item view."""

from __future__ import annotations

import re
from typing import Any

from sumjudge.report import build_items, render_report
from sumjudge.report.detail import render_detail, score_cell

NEEDS_LLM = "N/A: needs an LLM judge (offline mode judges only what it can check without one)"
CATEGORICAL = "N/A offline: checking a categorical value needs an LLM judge"


def auto_record() -> dict[str, Any]:
    return {
        "index": 0,
        "id": "cc-1",
        "accuracy": {
            "score": 50.0,
            "decomposition": [{"point": "p", "is_accurate": True, "section": "Situation"}],
            "sections": {
                "Situation": {"score": 100.0, "accurate": 1, "points": 1},
                "Customer sentiment": {"score": None, "reason": CATEGORICAL},
                "Resolved": {"score": None, "error": "the judge timed out"},
            },
        },
        "adherence": {
            "score": 100.0,
            "sections": {"Action": {"score": None, "reason": "N/A: this section is prebuilt"}},
        },
        "completeness": {"score": None, "reason": NEEDS_LLM, "mode": "offline"},
        "fluency": {"score": None, "error": "the judge's reply could not be parsed"},
        "coherence": {"score": None},
    }


def row_html(html: str) -> str:
    row = re.search(r'<tr class="row">(.*?)</tr>', html, re.S)
    assert row is not None
    return row.group(1)


def test_the_table_shows_each_na_and_failure_reason_as_text() -> None:
    row = row_html(render_report([auto_record()]))
    reason = "needs an LLM judge (offline mode judges only what it can check without one)"
    assert f'<span class="why" title="{reason}">{reason}</span>' in row
    assert "the judge&#x27;s reply could not be parsed</span>" in row
    assert "no reason given in the results</span>" in row  # an N/A without a reason says so
    assert row.count('class="why"') == 3


def test_the_item_view_shows_section_reasons_too() -> None:
    (item,) = build_items([auto_record()])
    detail = render_detail(item)
    # Accuracy has no section tables: its unscored sections are listed under the metric.
    assert '<strong>Customer sentiment</strong> <span class="badge na">N/A</span> ' in detail
    assert "offline: checking a categorical value needs an LLM judge" in detail
    assert "N/A offline" not in detail  # no doubled "N/A" after the badge
    assert '<span class="badge failed">failed</span> the judge timed out' in detail
    assert "N/A (this section is prebuilt)" in detail
    assert "needs an LLM judge (offline mode" in detail
    assert "no reason given in the results" in detail


def test_score_cell_keeps_the_whole_reason_in_the_tooltip() -> None:
    (item,) = build_items([auto_record()])
    cell = score_cell(item.metrics["completeness"])
    assert cell.startswith('<span class="badge na" title="needs an LLM judge (offline')
    assert score_cell(item.metrics["accuracy"]) == '<span class="score s2">50%</span>'
