"""The terminal table flags uncertain ratings and shows sample spread and panel ranges."""

from __future__ import annotations

from typing import Any

from sumjudge.cli._table import ResultTable


def record(body: dict[str, Any], ident: str) -> dict[str, Any]:
    return {"index": 0, "id": ident, "status": "ok", "summary": body}


def metric(score: int, **extra: Any) -> dict[str, Any]:
    return {"score": score, "explanation": "x", **extra}


def test_uncertain_rows_are_marked_and_counted_once() -> None:
    table = ResultTable("summary", ["coherence", "fluency"], width=120)
    table.add(
        record(
            {
                "relevancy_rating": "good",
                "global_explanation": "All metrics met the expected values.",
                "coherence": metric(3, spread=0.4, samples=[3, 3, 2]),
                "fluency": metric(
                    2, panel=[{"judge": "a", "score": 1}, {"judge": "b", "score": 3}]
                ),
                "rating_confidence": 0.16,
                "uncertain": True,
            },
            "r1",
        )
    )
    table.add(
        record(
            {
                "relevancy_rating": "good",
                "global_explanation": "All good.",
                "coherence": metric(3),
                "fluency": metric(3),
                "rating_confidence": 0.9,
                "uncertain": False,
            },
            "r2",
        )
    )
    lines = table.render()
    row1 = next(line for line in lines if line.startswith("r1"))
    row2 = next(line for line in lines if line.startswith("r2"))
    assert "good?" in row1 and "uncertain (p=0.16)" in row1
    assert "3±0.4" in row1 and "2[1-3]" in row1
    assert "good?" not in row2 and "uncertain" not in row2
    assert lines[-1] == "2 item(s): 2 good (1 uncertain, marked ?)"


def test_the_html_report_flags_uncertain_items_and_shows_spread_and_panel() -> None:
    from sumjudge.report import build_items, render_report

    rec = record(
        {
            "relevancy_rating": "good",
            "score": 1.0,
            "global_explanation": "All metrics met the expected values.",
            "coherence": metric(3, spread=0.47, samples=[3, 3, 2]),
            "fluency": metric(
                2, panel=[{"judge": "openai/m1", "score": 1}, {"judge": "openai/m2", "score": 3}]
            ),
            "rating_confidence": 0.16,
            "uncertain": True,
        },
        "r1",
    )
    item = build_items([rec])[0]
    assert item.uncertain and item.rating_confidence == 0.16
    assert set(item.metrics) == {"coherence", "fluency"}  # the additions are not metrics
    html = render_report([rec])
    assert "uncertain (p=0.16)" in html
    assert "±0.47" in html and "[1-3]" in html
    assert "panel: openai/m1: 1, openai/m2: 3" in html
