"""The flag rule of benchmarks/meetings_calls.py, on made-up scores (nothing is scored)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "meetings_calls_bench", ROOT / "benchmarks" / "meetings_calls.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench = _bench()


def _row(label: str, source_id: str = "s1") -> dict[str, Any]:
    return {
        "id": f"{source_id}/{label}",
        "source_id": source_id,
        "domain": "call",
        "format": "roles",
        "language": "en",
        "label": label,
        "planted": "" if label == "faithful" else "x",
    }


def _scored(co: int = 3, con: int = 3, rel: int = 3, flu: int = 3) -> dict[str, Any]:
    scores = dict(zip(bench.METRICS, (co, con, rel, flu), strict=True))
    return {"scores": scores, "evidence": {"consistency": [], "fluency": []}, "rating": None}


def test_flagged_is_the_responsible_metric_below_its_good_threshold() -> None:
    rows = [_row("faithful"), _row("owner_swap"), _row("new_name"), _row("grammar")]
    scored = [_scored(), _scored(con=2), _scored(con=3, rel=2), _scored(flu=2)]
    out = {r["label"]: r for r in bench.judge(rows, scored)}
    assert out["faithful"]["rating"] == "good"
    assert out["owner_swap"]["flagged"] and out["owner_swap"]["metric"] == "consistency"
    # another metric falling does not flag the error
    assert not out["new_name"]["flagged"] and out["new_name"]["rating"] == "incomplete"
    # fluency 2 ("minor language issues") is still good by the rule book: not a flag
    assert not out["grammar"]["flagged"] and out["grammar"]["rating"] == "good"
    out = bench.judge(rows[3:] + rows[:1], [_scored(flu=1), _scored()])
    assert out[0]["flagged"] and out[0]["rating"] == "bad"


def test_goals_and_twin_clean_shares() -> None:
    rows, scored = [], []
    for k, twin_con in enumerate((1, 3, 3, 3)):
        sid = f"s{k}"
        rows += [_row("faithful", sid), _row("contradiction", sid)]
        scored += [_scored(con=twin_con), _scored(con=1 if k < 2 else 3)]
    fig = bench.figures(bench.judge(rows, scored))
    c = fig["all"]["contradiction"]
    assert c["flagged"] == 0.5  # s0 (inherited from its faithful twin) and s1
    assert c["n_twin_clean"] == 3 and abs(c["flagged_twin_clean"] - 1 / 3) < 1e-9
    goals = fig["goals"]
    assert goals["faithful never bad"]["met"] is False  # s0's faithful summary is bad
    assert goals["faithful >= 85% good"]["value"] == 0.75
    assert goals["contradiction >= 70% flagged"]["met"] is False
