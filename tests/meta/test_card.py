"""Tests for sumjudge.meta.card: judge cards, label detection, JSON round-trip, table."""

from __future__ import annotations

import hashlib
import json
import math
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sumjudge.meta import stats
from sumjudge.meta.card import (
    JudgeCard,
    format_table,
    hash_file,
    label_kind,
    meta_evaluate,
)

WHEN = datetime(2025, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
SYSTEMS = ["s1", "s2", "s3", "s4"]


def make_rows() -> tuple[list[dict[str, Any]], dict[str, list[float | None]]]:
    """Likert rows (dataset "lik", 8 docs x 4 systems) and binary rows ("bin", 10 docs x 3)."""
    rng = np.random.default_rng(5)
    rows: list[dict[str, Any]] = []
    score: list[float | None] = []
    for d in range(8):
        for s in SYSTEMS:
            h = float(rng.integers(1, 6))
            rows.append(
                {"dataset": "lik", "source_id": f"doc{d}", "system": s,
                 "human": {"coherence": h, "consistency": None}}
            )  # fmt: skip
            score.append(float(np.clip(round(h + rng.normal(0, 1)), 1, 5)))
    for d in range(10):
        for s in SYSTEMS[:3]:
            y = float(rng.integers(0, 2))
            rows.append(
                {"dataset": "bin", "source_id": f"dia{d}", "system": s,
                 "human": {"coherence": None, "consistency": y}}
            )  # fmt: skip
            score.append(
                float(rng.choice([1, 2, 3], p=[0.5, 0.3, 0.2] if y == 0 else [0.1, 0.3, 0.6]))
            )
    return rows, {"coherence": score[:32] + [None] * 30, "consistency": [None] * 32 + score[32:]}


def card_for(**kwargs: Any) -> JudgeCard:
    rows, preds = make_rows()
    weighted = {m: [None if v is None else v + 0.1 * (i % 3) for i, v in enumerate(p)]
                for m, p in preds.items()}  # fmt: skip
    defaults: dict[str, Any] = {
        "weighted_predictions": weighted,
        "judge": "scripted/test",
        "metric_versions": {"coherence": "1", "consistency": "2"},
        "data_hash": "ab" * 32,
        "n_resamples": 200,
        "created_at": WHEN,
        "sumjudge_version": "0.1.0",
    }
    return meta_evaluate(rows, preds, **(defaults | kwargs))


def test_label_kind_detection() -> None:
    assert label_kind(np.array([0.0, 1.0, math.nan, 1.0])) == "binary"
    assert label_kind(np.array([1.0, 2.0, 5.0])) == "likert"
    assert label_kind(np.array([0.0, 0.5, 1.0])) == "likert"


def test_card_structure_per_dataset_and_kind() -> None:
    card = card_for()
    assert set(card.datasets) == {"lik", "bin"}
    lik = card.datasets["lik"]
    assert lik.n_rows == 32 and set(lik.metrics) == {"coherence"}  # consistency all null here
    coh = lik.metrics["coherence"]
    assert coh.label_kind == "likert" and coh.n_labelled == 32
    assert set(coh.variants) == {"score", "weighted_score"}
    assert list(coh.variants["score"]) == [
        "summary_spearman", "summary_kendall", "pooled_spearman", "pooled_kendall",
        "system_spearman", "system_kendall",
    ]  # fmt: skip
    con = card.datasets["bin"].metrics["consistency"]
    assert con.label_kind == "binary"
    assert list(con.variants["score"]) == [
        "roc_auc", "balanced_accuracy_best", "balanced_accuracy_fixed"
    ]  # fmt: skip


def test_card_figures_equal_direct_statistics() -> None:
    rows, preds = make_rows()
    card = card_for()
    p = stats.as_float_array(preds["coherence"][:32])
    h = [r["human"]["coherence"] for r in rows[:32]]
    docs = [r["source_id"] for r in rows[:32]]
    figs = card.datasets["lik"].metrics["coherence"].variants["score"]
    summary = stats.summary_level(p, h, docs, "kendall")
    f = figs["summary_kendall"]
    assert f.value == pytest.approx(summary.value)
    assert (f.n_groups_used, f.n_groups_skipped, f.n_items) == (
        summary.n_groups_used, summary.n_groups_skipped, summary.n_items
    )  # fmt: skip
    assert figs["pooled_spearman"].value == pytest.approx(stats.spearman(p, h))
    sys_fig = figs["system_spearman"]
    assert sys_fig.value == pytest.approx(
        stats.system_level(p, h, [r["system"] for r in rows[:32]]).value
    )
    assert sys_fig.n_groups_used == 4
    for fig in figs.values():
        assert fig.ci_low is not None and fig.ci_high is not None and fig.value is not None
        assert fig.ci_low <= fig.ci_high

    bp = preds["consistency"][32:]
    by = [r["human"]["consistency"] for r in rows[32:]]
    bfigs = card.datasets["bin"].metrics["consistency"].variants["score"]
    assert bfigs["roc_auc"].value == pytest.approx(stats.roc_auc(bp, by))
    thr, ba = stats.best_threshold_balanced_accuracy(bp, by)
    assert bfigs["balanced_accuracy_best"].threshold == thr
    assert bfigs["balanced_accuracy_best"].value == pytest.approx(ba)
    # Default fixed threshold: midpoint of the observed 1-3 scores, so only a 3 predicts 1.
    fixed = bfigs["balanced_accuracy_fixed"]
    assert fixed.threshold == 2.0
    assert fixed.value == pytest.approx(stats.balanced_accuracy_at(bp, by, 2.5))
    assert fixed.n_items == 30 and fixed.n_groups_used == 10


def test_fixed_threshold_parameter_and_score_range() -> None:
    explicit = card_for(fixed_threshold=1.5).datasets["bin"].metrics["consistency"]
    assert explicit.variants["score"]["balanced_accuracy_fixed"].threshold == 1.5
    ranged = card_for(score_range=(1, 5)).datasets["bin"].metrics["consistency"]
    assert ranged.variants["weighted_score"]["balanced_accuracy_fixed"].threshold == 3.0


def test_missing_predictions_are_counted() -> None:
    rows, preds = make_rows()
    preds["coherence"][0] = None
    preds["coherence"][1] = None
    card = meta_evaluate(rows, preds, judge="j", metric_versions={}, data_hash="", n_resamples=20)
    fig = card.datasets["lik"].metrics["coherence"].variants["score"]["pooled_kendall"]
    assert (fig.n_items, fig.n_missing) == (30, 2)
    assert "weighted_score" not in card.datasets["lik"].metrics["coherence"].variants


def test_card_is_deterministic_and_round_trips_through_json() -> None:
    card = card_for()
    assert card_for() == card
    text = card.to_json()
    data = json.loads(text)
    assert data["judge"] == "scripted/test" and data["n_rows"] == 62
    assert data["created_at"].startswith("2025-01-02T03:04:05")
    assert JudgeCard.from_json(text) == card


def test_undefined_figures_serialise_as_null() -> None:
    rows = [
        {"source_id": "d", "system": s, "human": {"fluency": float(i + 1)}}
        for i, s in enumerate(SYSTEMS[:2])
    ]
    card = meta_evaluate(
        rows, {"fluency": [3.0, 3.0]}, judge="j", metric_versions={}, data_hash="",
        n_resamples=10, created_at=WHEN,
    )  # fmt: skip
    figs = card.datasets["all"].metrics["fluency"].variants["score"]
    assert figs["summary_spearman"].value == 0.0  # constant judge within the document
    assert figs["pooled_spearman"].value is None
    assert "system_spearman" not in figs  # fewer than 3 systems
    assert JudgeCard.from_json(card.to_json()) == card
    assert "NaN" not in card.to_json()


def test_input_errors() -> None:
    rows, preds = make_rows()
    kw: dict[str, Any] = {"judge": "j", "metric_versions": {}, "data_hash": "", "n_resamples": 5}
    with pytest.raises(ValueError, match="62 rows"):
        meta_evaluate(rows, {"coherence": [1.0]}, **kw)
    with pytest.raises(ValueError, match="accuracy"):
        meta_evaluate(rows, {"accuracy": [1.0] * 62}, **kw)
    bad = [dict(r) for r in rows]
    del bad[3]["source_id"]
    with pytest.raises(ValueError, match="row 3"):
        meta_evaluate(bad, preds, **kw)


def test_hash_file(tmp_path: Path) -> None:
    path = tmp_path / "data.jsonl"
    path.write_bytes(b'{"id": "x"}\n' * 1000)
    assert hash_file(path) == hashlib.sha256(path.read_bytes()).hexdigest()


def test_format_table() -> None:
    card = card_for()
    table = format_table(card)
    lines = table.splitlines()
    assert "score" in lines[1] and "weighted_score" in lines[1]
    body = lines[3:]
    assert len(body) == 6 + 3  # likert figures + binary figures
    coh = next(line for line in body if "summary_spearman" in line)
    fig = card.datasets["lik"].metrics["coherence"].variants["score"]["summary_spearman"]
    assert f"{fig.value:.3f} [{fig.ci_low:.3f}, {fig.ci_high:.3f}]" in coh
    assert coh.startswith("lik") and "coherence" in coh
