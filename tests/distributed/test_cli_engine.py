"""`sumjudge evaluate --engine spark|ray`: the same flags, the engine's own reader and writer."""

from __future__ import annotations

import json
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


def test_missing_column_is_one_line(spark: Any, tmp_path: Path, capsys: Any) -> None:
    source = _input(tmp_path)
    argv = ["evaluate", str(source), "-o", str(tmp_path / "o.parquet"), "--engine", "spark"]
    argv += ["--model", "local-lexical", "--summary-column", "generated"]
    assert main(argv) == 2
    assert "column(s) generated not in the input" in capsys.readouterr().err
