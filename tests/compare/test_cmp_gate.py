"""`sumjudge gate`: every rule passes and fails where it should, with exit codes 0/1/2."""

from __future__ import annotations

from pathlib import Path

import pytest
from compare_runs import judge_run, uniform

from sumjudge.cli.main import main


@pytest.fixture
def runs(tmp_path: Path) -> dict[str, Path]:
    # 20 items: base all "incomplete" (consistency 2); "good" has 16 good (consistency 3) and
    # 4 incomplete; "worse" has coherence 1 on 15 items (significant) and 1 on 1 (noise).
    base = judge_run(tmp_path / "base.jsonl", uniform(20, relevance=3), tag="b")
    good_scores = uniform(20, relevance=3)
    for row in good_scores[:16]:
        row["consistency"] = 3
    good = judge_run(tmp_path / "good.jsonl", good_scores, tag="g")
    worse_scores = uniform(20, relevance=3)
    for row in worse_scores[:15]:
        row["coherence"] = 1
    worse = judge_run(tmp_path / "worse.jsonl", worse_scores, tag="w")
    noisy_scores = uniform(20, relevance=3)
    noisy_scores[3]["coherence"] = 1
    noisy = judge_run(tmp_path / "noisy.jsonl", noisy_scores, tag="n")
    return {"base": base, "good": good, "worse": worse, "noisy": noisy}


def gate(*args: str) -> int:
    try:
        return main(["gate", *args, "--pyproject", "/nonexistent/pyproject.toml"])
    except SystemExit as exc:  # a flag argparse refused
        assert isinstance(exc.code, int)
        return exc.code


def test_rate_rules(runs: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    good = str(runs["good"])
    assert gate(good, "--min-good-rate", "0.8") == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("PASS good rate: 0.800 [") and ">= 0.8" in line
    assert gate(good, "--min-good-rate", "0.81") == 1
    assert "FAIL good rate" in capsys.readouterr().out
    # The interval's low end of 16/20 is about 0.58.
    assert gate(good, "--min-good-rate", "0.6", "--on-bound") == 1
    assert gate(good, "--min-good-rate", "0.55", "--on-bound") == 0
    assert gate(good, "--max-bad-rate", "0") == 0
    worse = str(runs["worse"])  # coherence 1 makes the 15 items bad
    assert gate(worse, "--max-bad-rate", "0.75") == 0
    assert gate(worse, "--max-bad-rate", "0.75", "--on-bound") == 1
    assert gate(worse, "--max-bad-rate", "0.5") == 1


def test_mean_rules(runs: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    good = str(runs["good"])
    assert gate(good, "--min-mean", "consistency=2.8") == 0
    assert gate(good, "--min-mean", "consistency=2.81") == 1
    assert gate(good, "--min-mean", "consistency=2.5", "--on-bound") == 0  # low end ~2.6
    assert gate(good, "--min-mean", "consistency=2.79", "--on-bound") == 1
    capsys.readouterr()
    assert gate(good, "--min-mean", "relevance=3", "--min-mean", "fluency=2.5") == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("PASS mean relevance") and out[1].startswith("FAIL mean fluency")


def test_no_regression_fails_on_significant_falls_only(runs: dict[str, Path]) -> None:
    base = str(runs["base"])
    assert gate(str(runs["good"]), "--baseline", base, "--no-regression") == 0
    assert gate(str(runs["noisy"]), "--baseline", base, "--no-regression") == 0
    assert gate(str(runs["worse"]), "--baseline", base, "--no-regression") == 1


def test_no_regression_on_the_good_rate(
    runs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    # From 16 good to none: the good rate fell significantly (sign test p < 0.001).
    assert gate(str(runs["base"]), "--baseline", str(runs["good"]), "--no-regression") == 1
    out = capsys.readouterr().out
    assert "FAIL no regression good rate" in out and "FAIL no regression consistency" in out


def test_max_drop(runs: dict[str, Path]) -> None:
    base = str(runs["base"])
    noisy = str(runs["noisy"])  # coherence mean falls by 0.05
    assert gate(noisy, "--baseline", base, "--max-drop", "coherence=0.1") == 0
    assert gate(noisy, "--baseline", base, "--max-drop", "coherence=0.01") == 1
    assert gate(noisy, "--baseline", base, "--max-drop", "coherence=0.1", "--on-bound") == 1
    assert gate(str(runs["worse"]), "--baseline", base, "--max-drop", "coherence=0.5") == 1


def test_configuration_errors_exit_2(runs: dict[str, Path], tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    good = str(runs["good"])
    assert gate(good) == 2  # no rule
    assert gate(good, "--no-regression") == 2  # no baseline
    assert "need --baseline" in capsys.readouterr().err
    assert gate(good, "--min-mean", "accuracy=50") == 2
    assert gate(good, "--min-good-rate", "1.5") == 2
    assert gate(good, "--min-mean", "coherence") == 2
    empty = judge_run(tmp_path / "empty.jsonl", [None, "fail"])
    assert gate(str(empty), "--min-good-rate", "0.5") == 2
    bad_yaml = tmp_path / "gate.yaml"
    bad_yaml.write_text("min_good_rate: lots\n")
    assert main(["gate", good, "--config", str(bad_yaml)]) == 2
    assert "min_good_rate must be a number" in capsys.readouterr().err


def test_rules_from_pyproject_and_yaml(runs: dict[str, Path], tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        "[tool.sumjudge.gate]\nmin_good_rate = 0.8\non_bound = false\n"
        f"baseline = '{runs['base']}'\nno_regression = true\n"
        "[tool.sumjudge.gate.min_mean]\nconsistency = 2.5\n"
    )
    good = str(runs["good"])
    assert main(["gate", good, "--pyproject", str(pyproject)]) == 0
    out = capsys.readouterr().out
    assert "PASS good rate" in out and "PASS mean consistency" in out
    assert "PASS no regression coherence" in out
    # A flag overrides the file.
    assert main(["gate", good, "--pyproject", str(pyproject), "--min-good-rate", "0.9"]) == 1
    assert main(["gate", str(runs["worse"]), "--pyproject", str(pyproject)]) == 1
    config = tmp_path / "gate.yaml"
    config.write_text("gate:\n  max_bad_rate: 0.1\n  max-drop: {coherence: 0.2}\n")
    args = ["gate", str(runs["worse"]), "--config", str(config), "--baseline", str(runs["base"])]
    assert main(args) == 1
    markdown = tmp_path / "gate.md"
    assert main([*args, "--markdown", str(markdown)]) == 1
    table = markdown.read_text()
    assert "## sumjudge gate: FAILED" in table and "| bad rate | **FAIL** |" in table
    pyproject.write_text("[tool.sumjudge.gate]\nmin_good_rate = 0.5\ncolour = 'red'\n")
    assert main(["gate", good, "--pyproject", str(pyproject)]) == 2
    assert "unknown gate setting 'colour'" in capsys.readouterr().err
