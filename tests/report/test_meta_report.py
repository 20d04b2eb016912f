"""The meta-evaluation report: whole, distinct ids and human columns in the judge's order."""

from __future__ import annotations

import re
from typing import Any

from sumjudge.report import render_report

LONG = "summeval-cnn-test-404f859482d47c127868964a9a39d1a7645dd2e9"


def meta_record(index: int, rid: str) -> dict[str, Any]:
    scores = {"coherence": 2, "consistency": 3, "relevance": 1, "fluency": 3}
    body: dict[str, Any] = {"relevancy_rating": "bad", "score": 0.0}
    body.update({m: {"score": s, "explanation": m} for m, s in scores.items()})
    return {
        "index": index,
        "id": rid,
        "summary": body,
        # The dev data's key order, which differs from the judge's metric order.
        "human": {"coherence": 4.0, "consistency": 5.0, "fluency": 3.0, "relevance": 1.5},
        "dataset": "summeval",
    }


def header_keys(html: str) -> list[str]:
    return re.findall(r'<th data-key="([^"]+)"', html)


def test_human_columns_follow_the_judge_columns_order() -> None:
    html = render_report([meta_record(0, "a"), meta_record(1, "b")])
    keys = header_keys(html)
    judge = [k[2:] for k in keys if k.startswith("m-")]
    human = [k[2:] for k in keys if k.startswith("h-")]
    assert judge == ["coherence", "consistency", "relevance", "fluency"]
    assert human == judge
    # Each human cell sits under its own header.
    row = re.search(r'<tr class="row">(.*?)</tr>', html, re.S)
    assert row is not None
    cells = re.findall(r'<td class="num">([^<]*)</td>', row.group(1))
    assert cells[-4:] == ["4.00", "5.00", "1.50", "3.00"]


def test_a_human_label_the_judge_lacks_comes_last() -> None:
    record = meta_record(0, "a")
    record["human"] = {"overall": 2.0, **record["human"]}
    human = [k[2:] for k in header_keys(render_report([record])) if k.startswith("h-")]
    assert human == ["coherence", "consistency", "relevance", "fluency", "overall"]


def test_long_ids_are_shortened_to_distinct_labels_and_shown_whole_on_demand() -> None:
    ids = [f"{LONG}-M{n}" for n in (0, 1, 10, 11)]
    html = render_report([meta_record(k, rid) for k, rid in enumerate(ids)])
    shown = re.findall(r'<td class="id" title="([^"]*)">([^<]*)</td>', html)
    assert [title for title, _ in shown] == ids
    labels = [label for _, label in shown]
    assert len(set(labels)) == len(ids)
    for rid, label in zip(ids, labels, strict=True):
        assert rid.endswith(label.split("…")[-1])
        assert f'<code class="id-full">{rid}</code>' in html  # whole in the item view
    assert "text-overflow:ellipsis; white-space:nowrap; }" not in html.split(".id {")[1][:120]
