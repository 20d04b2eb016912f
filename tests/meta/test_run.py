"""meta-eval end to end: rows -> SummarizationEvaluator over real HTTP -> judge card."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import sumjudge.meta.run as run_module
from sumjudge.cli.main import main
from sumjudge.errors import ConfigError, DataError
from sumjudge.evaluators.summarization import BatchRecord, SummaryResult
from sumjudge.meta import JudgeCard, format_table, hash_file
from sumjudge.meta.run import meta_eval, run_meta_eval, select_rows
from sumjudge.rules import rate
from sumjudge.testing.openai_server import FakeOpenAIServer
from sumjudge.types import MetricResult

SLICE = Path(__file__).parent.parent / "data" / "summeval_slice.jsonl"
METRICS = ["coherence", "consistency", "relevance", "fluency"]


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as srv:
        yield srv


def slice_rows() -> list[dict[str, Any]]:
    return [json.loads(line) for line in SLICE.read_text(encoding="utf-8").splitlines()]


def binary_rows() -> list[dict[str, Any]]:
    """Invented consistency-labelled rows (binary), two per source document."""
    rows = []
    for d in range(4):
        source = f"Ana: the delivery for order {d}00 arrives on Tuesday.\nBen: great, thanks."
        for label, summary in ((1, "The delivery arrives on Tuesday."), (0, "It came Friday.")):
            rows.append(
                {
                    "id": f"bin-{d}-{label}",
                    "dataset": "invented-binary",
                    "source": source,
                    "summary": f"{summary} (order {d}00)",
                    "system": f"sys{label}",
                    "source_id": f"doc{d}",
                    "human": {"coherence": None, "consistency": float(label)},
                }
            )
    return rows


def test_slice_fixture_is_summeval_only() -> None:
    rows = slice_rows()
    assert 0 < len(rows) <= 12
    assert {r["dataset"] for r in rows} == {"summeval"}


def test_select_rows_filters_datasets_and_keeps_whole_documents() -> None:
    rows = [*slice_rows(), *binary_rows()]
    assert {r["dataset"] for r in select_rows(rows, datasets=["summeval"])} == {"summeval"}
    # 4 rows per document in the slice: a limit of 6 keeps one whole document, not 1.5.
    limited = select_rows(rows, datasets=["summeval"], limit=6)
    assert len(limited) == 4 and len({r["source_id"] for r in limited}) == 1
    assert len(select_rows(rows, limit=2)) == 2  # a first document larger than the limit
    assert select_rows(rows, limit=0) == []


async def test_end_to_end_through_local_http_server(server: FakeOpenAIServer) -> None:
    before = len(server.requests)
    result = await run_meta_eval(
        SLICE, model="openai/test", base_url=server.base_url, n_resamples=50, seed=3
    )
    card = result.card
    rows = slice_rows()
    assert len(server.requests) - before == len(rows) * len(METRICS)
    assert card.judge == "openai/test"
    assert card.data_hash == hash_file(SLICE)
    assert card.n_rows == len(rows) and card.n_resamples == 50 and card.seed == 3
    assert set(card.metric_versions) == set(METRICS)
    figures = card.datasets["summeval"]
    assert list(figures.metrics) == METRICS
    coherence = figures.metrics["coherence"]
    assert coherence.label_kind == "likert" and coherence.n_labelled == len(rows)
    # The fake server returns logprobs, so the weighted score is reported beside the score.
    assert set(coherence.variants) == {"score", "weighted_score"}
    spearman = coherence.variants["score"]["summary_spearman"]
    assert spearman.n_groups_used is not None and spearman.n_groups_used >= 1
    assert spearman.value is not None and -1 <= spearman.value <= 1
    assert card.variant_notes["weighted_score"].startswith("logprob-weighted")
    # Per-row results carry the judge's output and the human labels.
    dicts = result.result_dicts()
    assert [d["id"] for d in dicts] == [r["id"] for r in rows]
    assert dicts[0]["human"] == rows[0]["human"]
    assert dicts[0]["summary"]["coherence"]["score"] in (1, 2, 3)

    # Deterministic: the same data, judge replies and seed give the same figures.
    again = await meta_eval(
        SLICE, model="openai/test", base_url=server.base_url, n_resamples=50, seed=3
    )
    assert again.datasets == card.datasets


async def test_rows_are_judged_only_on_labelled_metrics(server: FakeOpenAIServer) -> None:
    rows = [*slice_rows()[:4], *binary_rows()]
    before = len(server.requests)
    result = await run_meta_eval(
        rows, model="openai/test", base_url=server.base_url, n_resamples=20, logprobs=False
    )
    # 4 SummEval rows x 4 metrics + 8 binary rows x consistency only.
    assert len(server.requests) - before == 4 * 4 + 8
    binary = result.card.datasets["invented-binary"].metrics
    assert list(binary) == ["consistency"]
    assert binary["consistency"].label_kind == "binary"
    assert set(binary["consistency"].variants["score"]) >= {"roc_auc", "balanced_accuracy_best"}
    assert binary["consistency"].variants["score"]["balanced_accuracy_fixed"].threshold == 2
    assert "weighted_score" not in binary["consistency"].variants  # logprobs were off
    assert set(result.records[5].result.metrics) == {"consistency"}  # type: ignore[union-attr]
    assert len(result.card.data_hash) == 64


async def test_metric_subset_and_limit(server: FakeOpenAIServer) -> None:
    card = await meta_eval(
        SLICE,
        model="openai/test",
        base_url=server.base_url,
        metrics=["fluency"],
        limit=8,
        n_resamples=10,
    )
    assert list(card.datasets["summeval"].metrics) == ["fluency"]
    assert card.n_rows == 8
    assert card.data_selection == {"limit": 8, "metrics": ["fluency"]}
    assert set(card.metric_versions) == {"fluency"}


class _RawJudgeEvaluator:
    """Stands in for the offline judge: integer scores plus a continuous `raw` score."""

    def __init__(self, model: Any, *args: Any, enabled_metrics: Sequence[str], **kw: Any) -> None:
        self.enabled_metrics = list(enabled_metrics)
        self.judge_name = "local"
        self.metric_versions = {m: "offline-1" for m in self.enabled_metrics}

    async def evaluate_batch(self, items: Any, *, concurrency: int = 8) -> AsyncIterator[Any]:
        for i, item in enumerate(items):
            raw = 1.0 + (len(item.summary) % 200) / 100
            metrics = {
                m: MetricResult(name=m, version="offline-1", score=round(raw), raw=raw,
                                score_mode="offline")
                for m in self.enabled_metrics
            }  # fmt: skip
            rating = rate({m: r.score for m, r in metrics.items()}, self.enabled_metrics)
            result = SummaryResult(metrics=metrics, rating=rating)
            yield BatchRecord(index=i, id=item.id, result=result, meta={"judge": "local"})

    async def aclose(self) -> None:
        return None


async def test_offline_judge_raw_score_is_a_labelled_variant(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(run_module, "SummarizationEvaluator", _RawJudgeEvaluator)
    card = await meta_eval(SLICE, model="local", n_resamples=10)
    variants = card.datasets["summeval"].metrics["coherence"].variants
    assert set(variants) == {"score", "raw"}
    assert "continuous" in card.variant_notes["raw"]
    table = format_table(card)
    header = table.splitlines()[1]
    assert "raw" in header.split() and "weighted_score" in header.split()
    assert "raw: offline judge's continuous score" in table


async def test_errors_name_the_problem(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no rows"):
        await meta_eval(SLICE, model="openai/test", base_url="http://127.0.0.1:9/v1",
                        datasets=["faceval"])  # fmt: skip
    rows = slice_rows()
    del rows[2]["source_id"]
    with pytest.raises(DataError, match="source_id"):
        await meta_eval(rows, model="openai/test", base_url="http://127.0.0.1:9/v1")
    unlabelled = [{**r, "human": {}} for r in slice_rows()]
    with pytest.raises(ConfigError, match="human label"):
        await meta_eval(unlabelled, model="openai/test", base_url="http://127.0.0.1:9/v1")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"source_id": "a"}\nnot json\n', encoding="utf-8")
    with pytest.raises(DataError, match="line 2"):
        await meta_eval(bad, model="openai/test", base_url="http://127.0.0.1:9/v1")


def test_cli_writes_table_card_results_and_report(
    server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    card_path, out, report = tmp_path / "card.json", tmp_path / "res.jsonl", tmp_path / "r.html"
    code = main(
        [
            "meta-eval", str(SLICE), "--model", "openai/test", "--base-url", server.base_url,
            "--dataset", "summeval", "--limit", "8", "--n-resamples", "20", "--seed", "1",
            "--card", str(card_path), "-o", str(out), "--report", str(report), "--no-progress",
        ]
    )  # fmt: skip
    assert code == 0
    printed = capsys.readouterr().out
    assert "summary_spearman" in printed and "judge openai/test" in printed
    card = JudgeCard.from_json(card_path.read_text(encoding="utf-8"))
    assert card.n_rows == 8 and card.seed == 1 and card.n_resamples == 20
    assert len(out.read_text(encoding="utf-8").splitlines()) == 8
    html = report.read_text(encoding="utf-8")
    assert 'id="judge-card"' in html and "summary_spearman" in html


@pytest.mark.parametrize("path", ["sdk", "direct"])
def test_cli_http_client_flag_chooses_the_openai_path(
    path: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SUMJUDGE_HTTP_CLIENT", "")  # the flag sets it; restored afterwards
    with FakeOpenAIServer() as srv:
        code = main(
            [
                "meta-eval", str(SLICE), "--model", "openai/test", "--base-url", srv.base_url,
                "--dataset", "summeval", "--limit", "2", "--n-resamples", "0", "--no-progress",
                "--http-client", path,
            ]
        )  # fmt: skip
        agent = srv.requests[0]["headers"].get("user-agent", "")
    assert code == 0, capsys.readouterr().err
    assert agent.startswith("sumjudge/") == (path == "direct")
