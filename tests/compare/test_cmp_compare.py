"""`compare_results` and `sumjudge compare` on result files made by the real evaluator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from compare_runs import METRICS, judge_run, uniform

from sumjudge import compare_results
from sumjudge.cli.main import main


def test_identical_files_give_no_difference(tmp_path: Path) -> None:
    scores = [{m: 1 + (i + j) % 3 for j, m in enumerate(METRICS)} for i in range(30)]
    base = judge_run(tmp_path / "base.jsonl", scores)
    result = compare_results(base, base)
    assert result.matched == 30
    for m in result.metrics.values():
        assert (m.mean_diff, m.ci_low, m.ci_high) == (0.0, 0.0, 0.0)
        assert m.p_value == 1.0 and m.p_adjusted == 1.0
        assert (m.wins, m.ties, m.losses) == (0, 30, 0)
        assert m.verdict == "no significant difference"
        assert m.compared == "score"
    assert result.ratings is not None
    t = result.ratings.transitions
    assert sum(t[r][r] for r in t) == 30
    assert all(t[a][b] == 0 for a in t for b in t if a != b)
    assert result.regressions == []


def test_consistency_better_on_30_of_40_is_improved_alone(tmp_path: Path) -> None:
    base = judge_run(tmp_path / "base.jsonl", uniform(40), tag="b")
    cand_scores = uniform(40)
    for row in cand_scores[:30]:
        row["consistency"] = 3
    cand = judge_run(tmp_path / "cand.jsonl", cand_scores, tag="c")
    result = compare_results(base, cand)
    c = result.metrics["consistency"]
    assert c.verdict == "improved"
    assert c.mean_diff == pytest.approx(0.75)
    assert (c.wins, c.ties, c.losses) == (30, 10, 0)
    assert 0.5 < c.ci_low <= 0.75 <= c.ci_high < 0.95
    assert c.p_adjusted < 0.05 and c.method == "wilcoxon-pratt-normal"
    for name in ("coherence", "relevance", "fluency"):
        assert result.metrics[name].verdict == "no significant difference"
        assert result.metrics[name].p_value == 1.0
    # Holm: the smallest p is multiplied by the number of metrics compared.
    assert c.p_adjusted == pytest.approx(min(1.0, 4 * c.p_value))


def test_a_regression_lists_both_explanations_worst_first(tmp_path: Path) -> None:
    base = judge_run(tmp_path / "base.jsonl", uniform(6, consistency=3), tag="b")
    cand_scores = uniform(6, consistency=3)
    cand_scores[2]["consistency"] = 1  # falls by 2, and the rating falls to bad
    cand_scores[4]["coherence"] = 1  # falls by 1
    cand = judge_run(tmp_path / "cand.jsonl", cand_scores, tag="c")
    result = compare_results(base, cand)
    ids = [r.id for r in result.regressions]
    assert ids == ["item-2", "item-4"]
    worst = result.regressions[0]
    assert (worst.base_rating, worst.candidate_rating) == ("incomplete", "bad")
    entry = worst.metrics["consistency"]
    assert (entry["base"], entry["candidate"]) == (3, 1)
    assert entry["base_explanation"] == "consistency of b2 is 3"
    assert entry["candidate_explanation"] == "consistency of c2 is 1"
    data = result.to_dict()
    assert data["regressions"][0]["id"] == "item-2"
    assert "severity" not in data["regressions"][0]


def test_unmatched_and_failed_items_are_reported_not_dropped(tmp_path: Path) -> None:
    base = judge_run(
        tmp_path / "base.jsonl",
        [*uniform(4), None, "fail"],
        ids=["a", "b", "c", "d", "e", "f"],
        tag="b",
    )
    cand = judge_run(
        tmp_path / "cand.jsonl",
        [*uniform(2), "fail", *uniform(3)],
        ids=["a", "b", "c", "e", "f", "z"],
        tag="c",
    )
    result = compare_results(base, cand)
    assert result.unmatched == {"base": ["d"], "candidate": ["z"]}
    assert result.matched == 5
    assert result.excluded == {"base failed": 1, "base invalid": 1, "candidate failed": 1}
    assert {m.n for m in result.metrics.values()} == {2}
    data = result.to_dict()
    for key in ("matched", "unmatched", "excluded", "metrics", "ratings", "regressions"):
        assert key in data
    fields = {"n", "base_mean", "candidate_mean", "mean_diff", "ci_low", "ci_high", "p_value",
              "p_adjusted", "wins", "ties", "losses", "compared", "verdict"}  # fmt: skip
    assert fields <= set(data["metrics"]["consistency"])
    assert set(data["ratings"]["base"]) >= {"good_rate", "good_rate_ci", "bad_rate", "bad_rate_ci"}
    assert "unmatched: 1 base, 1 candidate" in result.to_markdown()


def test_without_ids_items_pair_by_row_and_source(tmp_path: Path) -> None:
    base = judge_run(tmp_path / "b.jsonl", uniform(3), ids=[None] * 3, tag="b")
    cand = judge_run(tmp_path / "c.jsonl", uniform(4), ids=[None] * 4, tag="c")
    result = compare_results(base, cand)
    assert result.matched == 3
    assert result.unmatched == {"base": [], "candidate": ["#3"]}


def test_items_sharing_a_source_are_resampled_together(tmp_path: Path) -> None:
    sources = [f"Document {i // 4} tells its story." for i in range(40)]
    base = judge_run(tmp_path / "b.jsonl", uniform(40), sources=sources, tag="b")
    cand_scores = uniform(40)
    for i, row in enumerate(cand_scores):
        row["coherence"] = 3 if (i // 4) % 2 else 1  # the effect depends on the document
    cand = judge_run(tmp_path / "c.jsonl", cand_scores, sources=sources, tag="c")
    inputs = tmp_path / "inputs.jsonl"
    inputs.write_text(
        "".join(json.dumps({"id": f"item-{i}", "input": s}) + "\n" for i, s in enumerate(sources))
    )
    grouped = compare_results(base, cand, base_inputs=inputs)
    plain = compare_results(base, cand)
    assert grouped.metrics["coherence"].resampled == "sources"
    assert plain.metrics["coherence"].resampled == "items"
    g, p = grouped.metrics["coherence"], plain.metrics["coherence"]
    assert (g.ci_high - g.ci_low) > 1.5 * (p.ci_high - p.ci_low)


def test_dataframes_and_record_lists_are_accepted(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    base = judge_run(tmp_path / "b.jsonl", uniform(5), tag="b")
    records = [json.loads(line) for line in base.read_text().splitlines()]
    flat = pd.DataFrame(
        [
            {"id": r["id"], "status": r["status"],
             "relevancy_rating": r["summary"]["relevancy_rating"],
             **{f"{m}_score": r["summary"][m]["score"] for m in METRICS}}
            for r in records
        ]
    )  # fmt: skip
    result = compare_results(records, flat)
    assert result.matched == 5
    assert all(m.mean_diff == 0 for m in result.metrics.values())


def test_an_unknown_metric_is_an_error(tmp_path: Path) -> None:
    base = judge_run(tmp_path / "b.jsonl", uniform(3))
    with pytest.raises(ValueError, match="accuracy"):
        compare_results(base, base, metrics=["accuracy"])


def test_autoeval_results_compare_their_percentages(tmp_path: Path) -> None:
    out = tmp_path / "auto.jsonl"
    assert main(["autoeval", "--example", "--model", "local-lexical", "-o", str(out),
                 "--no-progress"]) == 0  # fmt: skip
    result = compare_results(out, out)
    assert "accuracy" in result.metrics
    assert result.metrics["accuracy"].mean_diff == 0
    assert result.ratings is None


def test_cli_writes_json_markdown_and_html(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = judge_run(tmp_path / "b.jsonl", uniform(8, consistency=3), tag="b")
    scores = uniform(8, consistency=3)
    scores[1]["consistency"] = 1
    cand = judge_run(tmp_path / "c.jsonl", scores, tag="c")
    inputs = tmp_path / "cand_inputs.jsonl"
    inputs.write_text(json.dumps({"id": "item-1", "summary": "<b>c1</b> invents a figure"}) + "\n")
    args = ["compare", str(base), str(cand), "-o", str(tmp_path / "cmp.json"),
            "--markdown", str(tmp_path / "cmp.md"), "--report", str(tmp_path / "cmp.html"),
            "--candidate-inputs", str(inputs), "--metrics", "consistency,coherence"]  # fmt: skip
    assert main(args) == 0
    data = json.loads((tmp_path / "cmp.json").read_text())
    assert list(data["metrics"]) == ["consistency", "coherence"]
    assert data["regressions"][0]["id"] == "item-1"
    assert "| consistency (score) | 8 |" in (tmp_path / "cmp.md").read_text()
    html = (tmp_path / "cmp.html").read_text()
    assert "&lt;b&gt;c1&lt;/b&gt; invents a figure" in html and "<b>c1</b>" not in html
    assert "consistency of c1 is 1" in html and 'id="regressions"' in html
    assert "1 regression(s)" in capsys.readouterr().err


def test_cli_input_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"index": 0}\nnot json\n')
    assert main(["compare", str(bad), str(bad)]) == 2
    assert "line 2 is not valid JSON" in capsys.readouterr().err
    assert main(["compare", str(tmp_path / "missing.jsonl"), str(bad)]) == 2
    inputs = tmp_path / "inputs.jsonl"
    inputs.write_text('{"id": "a", "input": "Some text.", "summary": "Text."}\n')
    assert main(["compare", str(inputs), str(inputs)]) == 2
    assert "no metric is scored on both sides" in capsys.readouterr().err
    base = judge_run(tmp_path / "b.jsonl", uniform(2))
    assert main(["compare", str(base), str(base), "-o", str(base)]) == 2  # never overwrites
    assert json.loads(base.read_text().splitlines()[0])["status"] == "ok"


def test_weighted_scores_are_compared_where_both_sides_have_them(tmp_path: Path) -> None:
    base = judge_run(tmp_path / "b.jsonl", uniform(12), tag="b")
    cand = judge_run(tmp_path / "c.jsonl", uniform(12), tag="c")
    records = [json.loads(line) for line in base.read_text().splitlines()]
    others = [json.loads(line) for line in cand.read_text().splitlines()]
    for i, (b, c) in enumerate(zip(records, others, strict=True)):
        b["summary"]["coherence"]["weighted_score"] = 2.0
        c["summary"]["coherence"]["weighted_score"] = 2.0 + (0.4 if i < 10 else 0.0)
        b["summary"]["fluency"]["weighted_score"] = 2.0  # one side only: the integer is used
    result = compare_results(records, others)
    assert result.metrics["coherence"].compared == "weighted_score"
    assert result.metrics["coherence"].mean_diff == pytest.approx(4 / 12)
    assert result.metrics["coherence"].wins == 10
    assert result.metrics["fluency"].compared == "score"


def test_no_matched_item_is_an_error_naming_sample_ids(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = judge_run(tmp_path / "base.jsonl", uniform(5), ids=[f"a{i}" for i in range(5)])
    cand = judge_run(tmp_path / "cand.jsonl", uniform(4), ids=[f"z{i}" for i in range(4)])
    assert main(["compare", str(base), str(cand)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "no item of" in err and "base: a0, a1, a2 ... (5 in all)" in err
    assert "candidate: z0, z1, z2 ... (4 in all)" in err
    with pytest.raises(ValueError, match="no item of"):
        compare_results(base, cand)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    with pytest.raises(ValueError, match="holds no result record"):
        compare_results(empty, cand)
