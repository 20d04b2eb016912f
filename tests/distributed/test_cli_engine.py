"""`sumjudge evaluate --engine spark|ray`: the same flags, the engine's own reader and writer."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from sumjudge.cli.main import main

from .conftest import rows

pd = pytest.importorskip("pandas")


def _input(tmp_path: Path) -> Path:
    path = tmp_path / "big.parquet"
    pd.DataFrame(rows(12)).to_parquet(path)
    return path


@pytest.mark.parametrize("engine", ["spark", "ray"])
def test_engine_run_writes_every_row_and_sums_the_workers(
    engine: str, request: pytest.FixtureRequest, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    request.getfixturevalue("spark" if engine == "spark" else "ray_local")
    source, out, summary = _input(tmp_path), tmp_path / "out.parquet", tmp_path / "s.json"
    argv = ["evaluate", str(source), "-o", str(out), "--engine", engine]
    argv += ["--model", "local-lexical", "--summary-json", str(summary), "--no-cache"]
    assert main(argv) == 3  # the two bad rows are rows with status "invalid": exit 3
    err = capsys.readouterr().err
    assert "12 item(s): 10 ok, 0 failed, 2 invalid, 0 not_run" in err
    written = pd.read_parquet(out)
    assert sorted(written["id"]) == sorted(r["id"] for r in rows(12))
    assert set(written.loc[written["status"] == "invalid", "id"]) == {"bad-null", "bad-empty"}
    assert json.loads(summary.read_text())["invalid"] == 2


def _batches_since(phases: Path, started: float) -> list[int]:
    """The rows of every batch judged by the actors created after `started`, sorted."""
    figures = [json.loads(p.read_text("utf-8")) for p in phases.glob("phases-*.json")]
    return sorted(n for f in figures if f["created"] >= started for _, _, n in f["spans"])


def test_a_ray_run_judges_the_file_in_batches_of_batch_rows(
    ray_local: Any, ray_phases: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sumjudge.ray.batch_rows", lambda model: 5)
    source, out = _input(tmp_path), tmp_path / "out.parquet"
    argv = ["evaluate", str(source), "-o", str(out), "--engine", "ray"]
    started = time.time()
    assert main([*argv, "--model", "local-lexical", "--no-cache"]) == 3  # 2 invalid rows
    # 12 rows (the Parquet footer says so), at most 5 a batch: ceil(12 / 5) = 3 batches,
    # of equal size, cut as the file is read. (The file read as 4 blocks of 3 rows,
    # bundled up to 5, was once judged as batches of 5, 1, 5 and 1.)
    assert _batches_since(ray_phases, started) == [4, 4, 4]
    written = pd.read_parquet(out)
    assert list(written["id"]) == [r["id"] for r in rows(12)]  # the input's order


def test_local_only_flags_are_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    source = _input(tmp_path)
    base = ["evaluate", str(source), "--engine", "spark", "--model", "local-lexical"]
    assert main([*base, "-o", str(tmp_path / "o.parquet"), "--resume"]) == 2
    assert "--resume is for local runs" in capsys.readouterr().err
    assert main(base) == 2
    assert "needs -o/--output" in capsys.readouterr().err
    assert main([*base, "-o", str(tmp_path / "o.txt")]) == 2
    assert "name a .parquet, .jsonl or .csv" in capsys.readouterr().err
    assert main(["evaluate", str(source), "--spark-master", "local[2]"]) == 2
    assert "goes with --engine" in capsys.readouterr().err


@pytest.mark.parametrize("engine", ["spark", "ray"])
def test_an_input_without_rows_is_one_line(
    engine: str, request: pytest.FixtureRequest, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    request.getfixturevalue("spark" if engine == "spark" else "ray_local")
    source = tmp_path / "empty.parquet"
    pd.DataFrame(
        {"input": pd.Series([], dtype=str), "summary": pd.Series([], dtype=str)}
    ).to_parquet(source)
    out = tmp_path / "o.parquet"
    argv = ["evaluate", str(source), "-o", str(out), "--engine", engine, "--model", "local-lexical"]
    assert main([*argv, "--no-cache"]) == 2
    assert f"{source} has no rows" in capsys.readouterr().err
    assert not out.exists()


def test_missing_column_is_one_line(spark: Any, tmp_path: Path, capsys: Any) -> None:
    source = _input(tmp_path)
    argv = ["evaluate", str(source), "-o", str(tmp_path / "o.parquet"), "--engine", "spark"]
    argv += ["--model", "local-lexical", "--summary-column", "generated"]
    assert main(argv) == 2
    assert "column(s) generated not in the input" in capsys.readouterr().err


def _conversations(tmp_path: Path) -> tuple[Path, Path]:
    from sumjudge.datasets.conversations import load_contact_center_dataset

    data = load_contact_center_dataset()
    rows_path, sections = tmp_path / "calls.jsonl", tmp_path / "sections.json"
    with rows_path.open("w", encoding="utf-8") as f:
        for item in data.load():
            turns = [t.model_dump() for t in item.turns]
            f.write(json.dumps({"id": item.id, "transcript": turns, "summary": item.summary}))
            f.write("\n")
    sections.write_text(json.dumps([d.model_dump() for d in data.sections()]), "utf-8")
    return rows_path, sections


@pytest.mark.parametrize("engine", ["spark", "ray"])
def test_autoeval_on_an_engine_gives_the_local_run_s_scores(
    engine: str, request: pytest.FixtureRequest, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    request.getfixturevalue("spark" if engine == "spark" else "ray_local")
    calls, sections = _conversations(tmp_path)
    common = [str(calls), "--sections", str(sections), "--model", "local-lexical", "--no-cache"]
    assert main(["autoeval", *common, "-o", str(tmp_path / "local.jsonl")]) == 0
    out = tmp_path / "out.parquet"
    assert main(["autoeval", *common, "-o", str(out), "--engine", engine]) == 0
    assert "4 item(s): 4 ok" in capsys.readouterr().err
    local = {
        r["id"]: r
        for r in map(json.loads, (tmp_path / "local.jsonl").read_text("utf-8").splitlines())
    }
    written = pd.read_parquet(out)
    assert sorted(written["id"]) == sorted(local)
    for _, row in written.iterrows():
        for metric in ("accuracy", "adherence", "completeness"):
            assert row[f"{metric}_score"] == local[row["id"]][metric]["score"] or (
                pd.isna(row[f"{metric}_score"]) and local[row["id"]][metric]["score"] is None
            )


def test_autoeval_on_an_engine_refuses_a_shared_rubric_file(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    calls, sections = _conversations(tmp_path)
    argv = ["autoeval", str(calls), "--sections", str(sections), "--engine", "spark"]
    argv += ["-o", str(tmp_path / "o.parquet"), "--rubric-cache", str(tmp_path / "r.json")]
    assert main(argv) == 2
    assert "--rubric-cache is for local runs" in capsys.readouterr().err


def _rule_profile(tmp_path: Path, judge: str) -> tuple[Path, str]:
    from sumjudge.types.profile import CalibrationProfile

    # A rule book stricter than the shipped one: good needs coherence 3, not 2.
    rules = {
        "coherence": {"good_at_least": 3},
        "consistency": {"good_at_least": 3},
        "relevance": {"good_at_least": 3},
        "fluency": {"good_at_least": 2},
    }
    profile = CalibrationProfile(judge=judge, rule_book=rules).sealed()
    path = tmp_path / "profile.json"
    path.write_text(profile.to_json(), "utf-8")
    return path, profile.id


def test_calibration_on_ray_gives_the_local_run_s_verdicts(
    ray_local: Any, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    source = _input(tmp_path)
    profile, pid = _rule_profile(tmp_path, "local-lexical")
    common = [str(source), "--model", "local-lexical", "--no-cache", "--calibration", str(profile)]
    main(["evaluate", *common, "-o", str(tmp_path / "local.jsonl")])
    local = {
        r["id"]: r
        for r in map(json.loads, (tmp_path / "local.jsonl").read_text("utf-8").splitlines())
        if r.get("status") == "ok"
    }
    out = tmp_path / "out.parquet"
    assert main(["evaluate", *common, "-o", str(out), "--engine", "ray"]) == 3  # 2 invalid
    written = pd.read_parquet(out)
    ok = written[written["status"] == "ok"]
    assert sorted(ok["id"]) == sorted(local) and len(local) == 10
    for _, row in ok.iterrows():
        record = json.loads(row["result_json"])
        assert record["meta"]["calibration"] == pid
        assert (
            record["summary"]["relevancy_rating"] == local[row["id"]]["summary"]["relevancy_rating"]
        )
    # the stricter rule book decided some verdicts: coherence 2 is not good under it
    assert any(
        r["summary"]["coherence"]["score"] == 2 and r["summary"]["relevancy_rating"] != "good"
        for r in local.values()
    )


def test_a_profile_for_another_judge_is_refused_before_the_engine_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    source = _input(tmp_path)
    profile, _ = _rule_profile(tmp_path, "openai/gpt-4o-mini")
    argv = ["evaluate", str(source), "-o", str(tmp_path / "o.parquet"), "--engine", "spark"]
    argv += ["--model", "local-lexical", "--calibration", str(profile)]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "fitted for the judge 'openai/gpt-4o-mini'" in err[0]
