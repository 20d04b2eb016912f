"""The HTML report: content, escaping, self-containment, card and provenance sections."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import sumjudge.report.html as html_module
from sumjudge.cli.main import main
from sumjudge.errors import DataError
from sumjudge.evaluators.summarization import BatchRecord, SummaryResult
from sumjudge.meta import meta_evaluate
from sumjudge.report import build_items, render_report, write_report
from sumjudge.rules import rate
from sumjudge.types import MetricResult

DATA = Path(__file__).parent.parent / "data"
AUTO_RESULTS = DATA / "report" / "autoeval_results.jsonl"
AUTO_INPUTS = DATA / "report" / "autoeval_inputs.jsonl"
EVIL = '<script>alert("x")</script><img src=x onerror=alert(1)>'


def summary_record(index: int, scores: dict[str, int | None], **extra: Any) -> BatchRecord:
    metrics = {
        m: MetricResult(
            name=m,
            version="1",
            score=s,
            explanation=f"{m} explanation {index} {EVIL}",
            weighted_score=None if s is None else s - 0.2,
            error=None if s is not None else "the judge's reply could not be parsed",
            evidence=(f'no source passage supports "{EVIL}" (best match: "Rina ships")',)
            if m == "consistency"
            else (),
        )
        for m, s in scores.items()
    }
    rating = rate(
        {m: r.score for m, r in metrics.items()},
        list(metrics),
        failures={m: r.error for m, r in metrics.items() if r.error},
    )
    return BatchRecord(
        index=index,
        id=f"item-{index}",
        result=SummaryResult(metrics=metrics, rating=rating),
        meta={"judge": "openai/test", "metric_versions": {m: "1" for m in scores}, **extra},
    )


def summarization_records() -> list[BatchRecord]:
    return [
        summary_record(0, {"coherence": 3, "consistency": 3, "relevance": 3, "fluency": 3}),
        summary_record(1, {"coherence": 2, "consistency": 2, "relevance": 3, "fluency": 3}),
        summary_record(
            2, {"coherence": 1, "consistency": 3, "relevance": 2, "fluency": 2}, cache_hits=2
        ),
        summary_record(3, {"coherence": 3, "consistency": None, "relevance": 3, "fluency": 3}),
        BatchRecord(index=4, error=DataError("is missing", item=4, field="summary")),
    ]


def inputs() -> list[dict[str, str]]:
    return [
        {"id": f"item-{i}", "input": f"Rina ships on Friday. {EVIL} Doc {i}.",
         "summary": f"Summary {i} {EVIL}"}
        for i in range(5)
    ]  # fmt: skip


def assert_self_contained(html: str) -> None:
    assert "Content-Security-Policy" in html and "default-src &#x27;none&#x27;" in html
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "<link" not in html and "@import" not in html


def test_summarization_report_content() -> None:
    html = render_report(summarization_records(), inputs=inputs())
    assert_self_contained(html)
    tiles = dict(re.findall(r'data-tile="([^"]+)"><div class="n">(\d+)<', html))
    assert tiles == {
        "items": "5",
        "good": "1",
        "incomplete": "1",
        "bad": "1",
        "not rated": "1",
        "invalid rows": "1",
        "items with failed metrics": "1",
    }
    # One inline matplotlib chart per metric; no images fetched.
    assert html.count('<svg role="img" class="chart"') == 4
    for metric in ("coherence", "consistency", "relevance", "fluency"):
        assert f'data-key="m-{metric}"' in html
    assert "could not be judged" in html and "failed" in html
    # Evidence quoting the source is highlighted there.
    assert '<mark class="ev"' in html and ">Rina ships</mark>" in html


def test_all_user_text_is_escaped() -> None:
    html = render_report(summarization_records(), inputs=inputs())
    assert EVIL not in html
    assert "<img src=x" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    # The only script element is ours.
    assert html.count("<script>") == 1


def test_sort_attributes_follow_the_scores() -> None:
    html = render_report(summarization_records())
    bodies = re.findall(r'<tbody class="item" ([^>]*)>', html)
    assert len(bodies) == 5
    assert 'data-m-coherence="3"' in bodies[0] and 'data-rating="2"' in bodies[0]
    assert 'data-m-consistency=""' in bodies[3]  # failed metric: sorts last


def test_autoeval_report_claims_quotes_and_rubrics() -> None:
    html = render_report(AUTO_RESULTS, inputs=AUTO_INPUTS)
    assert_self_contained(html)
    tiles = dict(re.findall(r'data-tile="([^"]+)"><div class="n">([^<]+)<', html))
    assert tiles["mean accuracy"] == "83%" and tiles["mean adherence"] == "75%"
    assert "good" not in tiles
    # Claims with their verdicts, and quotes highlighted in the transcript turns.
    assert "Claims (2 of 3 supported)" in html
    assert re.search(r'<mark class="con" id="q-0-2" [^>]*>I have applied a \$15 credit now</mark>',
                     html)  # fmt: skip
    assert re.search(r'<mark class="sup" id="q-0-1" [^>]*>keeps dropping', html)
    assert 'href="#t-0-5"' in html and 'id="t-0-5"' in html
    assert "turn number(s) [9] do not exist" in html
    # An ellipsis quote is highlighted fragment by fragment (plain-text transcript).
    assert ">refund of 64 euros</mark>" in html and ">within 5 days</mark>" in html
    # Rubric tables per section, N/A and failures.
    assert "adherence by section" in html and "completeness by section" in html
    assert "Does the summary say who is responsible for each next step?" in html
    assert "not addressed" in html and "1/2 covered" in html and "nothing to cover" in html
    assert "prebuilt section" in html
    assert "adherence applies only to custom sections" in html
    assert "the judge&#x27;s reply could not be parsed" in html
    assert "row 2: transcript is missing" in html
    # The transcript's markup is shown as text.
    assert "&lt;script&gt;alert(&#x27;xss&#x27;)&lt;/script&gt;" in html
    assert html.count("<script>") == 1


def test_autoeval_items_tolerate_missing_and_odd_fields() -> None:
    odd: list[dict[str, Any]] = [
        {"index": 0, "accuracy": {"score": 50.0, "decomposition": [{"point": "x"}, "junk"]}},
        {
            "index": 1,
            "adherence": {"score": None, "sections": {"A": {"rubrics": ["q?"]}, "B": "junk"}},
        },
        {
            "index": 2,
            "completeness": {
                "sections": {"A": {"questions": [{"question": "q", "content_list": None}]}}
            },
        },
        {"index": 3},
        {"not": "a record"},
    ]
    items = build_items(odd)
    assert items[0].claims[0].point == "x" and items[0].claims[0].is_accurate is None
    assert items[1].rubric_sections["adherence"][0].rubrics[0].question == "q?"
    assert items[2].rubric_sections["completeness"][0].rubrics[0].content == []
    html = render_report(odd)
    assert "Source and summary texts are not in the results" in html
    # A metric name is untrusted too, in the table and in the matplotlib chart.
    weird = [{"index": 0, "summary": {"relevancy_rating": "bad", "<b>$x_{": {"score": 1}}}]
    html = render_report(weird)
    assert "<b>" not in html and html.count("&lt;b&gt;$x_{") >= 3


def test_provenance_sums_usage_and_cache_hits() -> None:
    html = render_report(AUTO_RESULTS)
    section = html[html.index('id="provenance"') :]
    assert "openai/gpt-4o-mini (2 items)" in section
    assert "accuracy 1, adherence 1, completeness 1" in section
    assert "usage.prompt tokens</dt><dd>3,000" in section
    assert "cache hits</dt><dd>1" in section
    assert "cost usd</dt><dd>0.00103" in section


def judge_card() -> Any:
    rows = [
        {"source_id": f"d{d}", "system": f"s{s}", "human": {"coherence": float((d + s) % 5)}}
        for d in range(5)
        for s in range(4)
    ]
    preds = {"coherence": [float((d + s) % 4) for d in range(5) for s in range(4)]}
    return meta_evaluate(rows, preds, judge="openai/test", metric_versions={"coherence": "1"},
                         data_hash="ab" * 32, n_resamples=20)  # fmt: skip


def test_card_section(tmp_path: Path) -> None:
    card = judge_card()
    card_path = tmp_path / "card.json"
    card_path.write_text(card.to_json(), encoding="utf-8")
    html = render_report(summarization_records(), card=card_path)
    section = html[html.index('id="judge-card"') : html.index('id="provenance"')]
    assert "openai/test" in section and "ab" * 32 in section
    assert "summary_spearman" in section and "pooled_kendall" in section
    assert "20 resamples of source documents" in section
    assert '<svg role="img" class="chart"' in section  # the interval plot
    assert 'id="judge-card"' not in render_report(summarization_records())


def test_without_matplotlib_the_report_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(html_module.charts, "charts_available", lambda: False)
    html = render_report(summarization_records(), card=judge_card())
    assert "<svg" not in html
    assert "sumjudge[report]" in html


def test_inputs_may_be_model_objects() -> None:
    from sumjudge.autoeval import ConversationItem
    from sumjudge.types import SummaryData

    items = [SummaryData(input=f"Source text {i}.", summary=f"Summary text {i}.") for i in range(5)]
    html = render_report(summarization_records(), inputs=[*items[:2], DataError("bad"), *items[3:]])
    assert "Source text 1." in html and "Source text 3." in html
    assert "Source text 2." not in html
    conv = ConversationItem(transcript="Ana: it ships Friday.\nBen: thanks.", summary={"A": "ok"})
    html = render_report(AUTO_RESULTS, inputs=[conv])
    assert 'id="t-0-2"' in html and "it ships Friday." in html


def test_write_report_and_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "results.jsonl"
    results.write_text(
        "".join(json.dumps(r.to_dict()) + "\n" for r in summarization_records()), encoding="utf-8"
    )
    out = write_report(results, tmp_path / "sub" / "r.html", None, inputs=inputs())
    assert out.exists() and "results.jsonl" in out.read_text(encoding="utf-8")

    inputs_path = tmp_path / "in.jsonl"
    inputs_path.write_text("".join(json.dumps(r) + "\n" for r in inputs()), encoding="utf-8")
    card_path = tmp_path / "card.json"
    card_path.write_text(judge_card().to_json(), encoding="utf-8")
    target = tmp_path / "cli.html"
    code = main(["report", str(results), "-o", str(target), "--card", str(card_path),
                 "--inputs", str(inputs_path), "--title", "nightly run"])  # fmt: skip
    assert code == 0
    text = target.read_text(encoding="utf-8")
    assert "<title>nightly run</title>" in text and 'id="judge-card"' in text
    assert "Doc 2." in text

    card_path.write_text('{"not": "a card"}', encoding="utf-8")
    assert main(["report", str(results), "-o", str(target), "--card", str(card_path)]) == 2
    assert "error" in capsys.readouterr().err


def test_a_file_never_judged_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    inputs_path = tmp_path / "in.jsonl"
    inputs_path.write_text("".join(json.dumps(r) + "\n" for r in inputs()), encoding="utf-8")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    target = tmp_path / "r.html"
    for path in (inputs_path, empty):
        assert main(["report", str(path), "-o", str(target)]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1
        assert f"{path} holds no judged record" in err and "sumjudge evaluate -o FILE" in err
        assert not target.exists()
    with pytest.raises(ValueError, match="holds no judged record"):
        write_report(inputs_path, target)
    # A failed or invalid record is a result all the same.
    failed = tmp_path / "failed.jsonl"
    failed.write_text('{"index": 0, "status": "not_run"}\n', encoding="utf-8")
    assert main(["report", str(failed), "-o", str(target)]) == 0
