from __future__ import annotations

from pathlib import Path

import pytest
from review_data import result, write_jsonl  # type: ignore[import-not-found]

from sumjudge.errors import DataError
from sumjudge.offline.calibration import load_params
from sumjudge.review import load_items
from sumjudge.types.profile import CalibrationProfile, MetricProfile


def cuts(metric: str, table: str = "models") -> tuple[float, float]:
    params = load_params()
    model = params[table]["lexical"][metric] if table == "models" else params[table]["lexical"]
    return float(model["cuts"][0]), float(model["cuts"][1])


def test_raw_margin_from_the_offline_models_cut_points(tmp_path: Path) -> None:
    lo, hi = cuts("coherence")
    near, far = result(0), result(1)
    near["summary"]["coherence"].update(score=2, raw=lo + 0.001)
    far["summary"]["coherence"].update(score=2, raw=(lo + hi) / 2)
    items = load_items(write_jsonl(tmp_path / "r.jsonl", [far, near]))
    margins = {i.key: i.signals.raw_margins["coherence"] for i in items}
    assert margins["call-0"] == pytest.approx(0.001, abs=1e-9)
    assert margins["call-1"] == pytest.approx((hi - lo) / 2)


def test_consistency_uses_the_dialogue_model_when_only_it_gives_the_score(
    tmp_path: Path,
) -> None:
    news, dialogue = cuts("consistency"), cuts("consistency", "dialogue_consistency")
    raw = dialogue[1] + 0.002  # a 3 on the dialogue model
    assert raw < news[0]  # ... and a 1 on the news model: the score tells them apart
    record = result(0)
    record["summary"]["consistency"].update(score=3, raw=raw)
    (item,) = load_items(write_jsonl(tmp_path / "r.jsonl", [record]))
    assert item.signals.raw_margins["consistency"] == pytest.approx(0.002, abs=1e-9)


def test_no_margin_for_other_judges_or_without_raw(tmp_path: Path) -> None:
    llm, plain = result(0), result(1)
    llm["meta"]["judge"] = "openai/gpt-4o-mini"
    for m in ("coherence", "consistency", "relevance", "fluency"):
        del plain["summary"][m]["raw"]
    items = load_items(write_jsonl(tmp_path / "r.jsonl", [llm, plain]))
    assert [i.signals.raw_margins for i in items] == [{}, {}]


def test_invalid_rows_are_left_out_and_ids_default_to_the_index(tmp_path: Path) -> None:
    rows = [result(0), {"index": 1, "error": {"field": "summary", "message": "empty"}}, result(2)]
    del rows[2]["id"]
    items = load_items(write_jsonl(tmp_path / "r.jsonl", rows))
    assert [i.key for i in items] == ["call-0", "#2"]


def _refitted(lo: float, hi: float) -> CalibrationProfile:
    model = {"cuts": [lo, hi], "weights": {}}
    metric = MetricProfile(label_kind="likert", n_labels=50, variant="raw", offline_model=model)
    return CalibrationProfile(judge="local-lexical", metrics={"coherence": metric}).sealed()


def test_a_calibrated_offline_record_is_ordered_by_its_profiles_cut_points(
    tmp_path: Path,
) -> None:
    profile = _refitted(0.30, 0.70)
    record = result(0)
    record["meta"]["calibration"] = profile.id
    record["summary"]["coherence"].update(score=2, raw=0.31)
    path = write_jsonl(tmp_path / "r.jsonl", [record])
    # Without the profile the shipped cut points would rank it wrongly: no distance at all.
    (bare,) = load_items(path)
    assert bare.calibrated and bare.signals.raw_margins == {}
    (item,) = load_items(path, profile=profile)
    assert item.signals.raw_margins["coherence"] == pytest.approx(0.01, abs=1e-9)
    # Metrics the profile did not refit keep the shipped cut points.
    lo, hi = cuts("fluency")
    assert item.signals.raw_margins["fluency"] == pytest.approx(
        min(abs(record["summary"]["fluency"]["raw"] - c) for c in (lo, hi))
    )


def test_a_profile_other_than_the_results_one_is_refused(tmp_path: Path) -> None:
    record = result(0)
    record["meta"]["calibration"] = "cal-000000000000"
    path = write_jsonl(tmp_path / "r.jsonl", [record])
    with pytest.raises(DataError, match=r"line 1: judged with calibration 'cal-000000000000'"):
        load_items(path, profile=_refitted(0.3, 0.7))
