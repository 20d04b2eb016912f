"""`sumjudge gate`: every rule passes and fails where it should, with exit codes 0/1/2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

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
    nothing = tmp_path / "nothing.jsonl"
    nothing.write_text("")
    assert gate(str(nothing), "--min-good-rate", "0.5") == 2
    assert "holds no result record" in capsys.readouterr().err
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


def test_items_not_judged_count_against_the_rates_and_fail_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # One good item and nine that were not judged: 8 failed, 1 invalid, plus 1 not run.
    rows: list[Any] = [uniform(1, relevance=3, consistency=3)[0], None] + ["fail"] * 8
    run = judge_run(tmp_path / "run.jsonl", rows)
    with run.open("a") as fh:
        fh.write(json.dumps({"index": 10, "id": "item-10", "status": "not_run"}) + "\n")
    assert gate(str(run), "--min-good-rate", "0.8") == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("FAIL good rate: 0.091 [")
    assert "(n=11, 10 not judged counted as not good)" in out[0]
    assert out[1].startswith("FAIL failed rate: 0.909 [") and "<= 0 " in out[1]
    assert "n=11: 8 failed, 1 invalid, 1 not run" in out[1]
    # Allowing the failures leaves the rates over every item: 1 of 11 is good, 10 "bad".
    assert gate(str(run), "--max-failed-rate", "0.95", "--min-good-rate", "0.09") == 0
    assert gate(str(run), "--max-failed-rate", "0.95", "--max-bad-rate", "0.5") == 1
    assert "FAIL bad rate: 0.909" in capsys.readouterr().out
    # The failed rate alone is a rule; it is judged by its point value, even on the bound.
    assert gate(str(run), "--max-failed-rate", "0.9") == 1
    assert gate(str(run), "--max-failed-rate", "0.91", "--on-bound") == 0
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text("[tool.sumjudge.gate]\nmax_failed_rate = 0.95\nmin_good_rate = 0.05\n")
    assert main(["gate", str(run), "--pyproject", str(pyproject)]) == 0
    # Every item failed: the run fails the gate (exit 1), it is not a configuration error.
    failed = judge_run(tmp_path / "failed.jsonl", [None, "fail"])
    assert gate(str(failed), "--min-mean", "coherence=2") == 1
    assert "FAIL mean coherence: - >= 2.0 (no item judged)" in capsys.readouterr().out


def test_a_rule_that_cannot_fail_at_this_size_says_so_and_fails_when_strict(
    tmp_path: Path, runs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    # 5 of 6 good -> none good, every metric down: no test can be significant on 6 items.
    base_rows = uniform(6, relevance=3, consistency=3, coherence=3, fluency=3)
    base_rows[5]["consistency"] = 2
    base = judge_run(tmp_path / "base6.jsonl", base_rows, tag="b")
    cand = judge_run(tmp_path / "cand6.jsonl", uniform(6, coherence=1, consistency=1), tag="c")
    args = [str(cand), "--baseline", str(base), "--no-regression"]
    assert gate(*args) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    coherence = next(line for line in lines if "no regression coherence" in line)
    assert coherence.startswith("PASS") and "WARNING: cannot fail at n=6" in coherence
    assert "smallest attainable Holm p is 0.125 >= alpha 0.05" in coherence
    assert "--max-drop coherence=D" in coherence
    good = next(line for line in lines if "no regression good rate" in line)
    assert "-0.833" in good and "with 5 base item(s) rated good" in good
    assert "cannot fail on this data" in captured.err and "--strict" in captured.err
    assert gate(*args, "--strict") == 1
    assert "FAIL no regression coherence" in capsys.readouterr().out
    assert gate(*args, "--max-drop", "coherence=0.5") == 1
    assert "FAIL drop coherence: -2.000" in capsys.readouterr().out
    # 20 items can show a significant fall: no warning there.
    assert gate(str(runs["worse"]), "--baseline", str(runs["base"]), "--no-regression") == 1
    assert "cannot fail" not in capsys.readouterr().out


def test_max_drop_warns_when_its_interval_is_wider_than_the_margin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = judge_run(tmp_path / "b.jsonl", uniform(6), tag="b")
    rows = uniform(6)
    rows[0]["coherence"], rows[1]["coherence"] = 3, 1  # mean unchanged, interval ~1 wide
    cand = judge_run(tmp_path / "c.jsonl", rows, tag="c")
    args = [str(cand), "--baseline", str(base), "--max-drop", "coherence=0.2"]
    assert gate(*args) == 0
    line = capsys.readouterr().out.splitlines()[0]
    assert line.startswith("PASS drop coherence: 0.000")
    assert "wider than the allowed drop 0.2" in line
    assert gate(*args, "--strict") == 1
    assert gate(*args, "--on-bound") == 1  # judged by the low end, which is below -0.2
    assert "WARNING" not in capsys.readouterr().out.split("FAIL drop coherence")[-1].splitlines()[0]
