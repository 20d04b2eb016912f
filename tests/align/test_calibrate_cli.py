"""`sumjudge calibrate` end to end with the offline judge on dev-set rows, and its errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sumjudge.cli.main import main

DEV = Path(__file__).resolve().parents[1] / "data" / "summeval_slice.jsonl"


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """SummEval rows (human labels) and the lexical offline judge's results on them."""
    tmp = tmp_path_factory.mktemp("cal")
    out = tmp / "results.jsonl"
    code = main(
        [
            "meta-eval",
            str(DEV),
            "--model",
            "local-lexical",
            "-o",
            str(out),
            "--no-progress",
            "--n-resamples",
            "0",
        ]
    )
    assert code == 0
    return DEV, out


def test_calibrate_then_evaluate_with_the_profile(
    judged: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    labels, results = judged
    profile = tmp_path / "profile.json"
    report = tmp_path / "report.json"
    code = main(
        [
            "calibrate",
            str(labels),
            "--results",
            str(results),
            "-o",
            str(profile),
            "--report-json",
            str(report),
            "--n-resamples",
            "100",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "cross-validation by source" in out and "verdict" in out
    data = json.loads(profile.read_text(encoding="utf-8"))
    assert data["judge"] == "local-lexical" and data["judge_version"] == "offline-7"
    assert data["metrics"]["coherence"]["offline_model"]["features"]
    figures = json.loads(report.read_text(encoding="utf-8"))["metrics"]["coherence"]
    assert {"spearman", "kendall", "summary_spearman"} <= set(figures)

    results_out = tmp_path / "calibrated.jsonl"
    code = main(
        [
            "evaluate",
            str(labels),
            "--input-column",
            "source",
            "--model",
            "local-lexical",
            "--calibration",
            str(profile),
            "-o",
            str(results_out),
            "--no-progress",
        ]
    )
    assert code == 0, capsys.readouterr().err
    first = json.loads(results_out.read_text(encoding="utf-8").splitlines()[0])
    assert first["meta"]["calibration"] == data["id"]
    assert "+cal-" in first["meta"]["metric_versions"]["coherence"]

    # the gate accepts a calibrated run and refuses an uncalibrated one
    assert (
        main(
            [
                "gate",
                str(results_out),
                "--calibration",
                str(profile),
                "--min-good-rate",
                "0",
                "--pyproject",
                "/nonexistent",
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert (
        main(
            [
                "gate",
                str(results),
                "--calibration",
                str(profile),
                "--min-good-rate",
                "0",
                "--pyproject",
                "/nonexistent",
            ]
        )
        == 2
    )
    assert "was not judged with calibration profile" in capsys.readouterr().err


def test_a_profile_for_another_judge_is_a_one_line_error(
    judged: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    labels, results = judged
    profile = tmp_path / "profile.json"
    assert (
        main(
            [
                "calibrate",
                str(labels),
                "--results",
                str(results),
                "-o",
                str(profile),
                "--n-resamples",
                "0",
            ]
        )
        == 0
    )
    capsys.readouterr()
    code = main(
        [
            "evaluate",
            str(labels),
            "--input-column",
            "source",
            "--model",
            "local",
            "--calibration",
            str(profile),
            "-o",
            str(tmp_path / "x.jsonl"),
        ]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert "fitted for the judge 'local-lexical'" in err or "fitted for local-lexical" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"id": "a", "summary": "s"}\n', "neither a review label"),
        ("not json\n", "line 1 is not valid JSON"),
    ],
)
def test_bad_labels_exit_2_naming_the_line(
    judged: tuple[Path, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    content: str,
    message: str,
) -> None:
    _, results = judged
    labels = tmp_path / "labels.jsonl"
    labels.write_text(content + '{"id": "b"}\n', encoding="utf-8")
    code = main(
        ["calibrate", str(labels), "--results", str(results), "-o", str(tmp_path / "p.json")]
    )
    err = capsys.readouterr().err
    assert code == 2 and message in err and str(labels) in err


def test_review_labels_without_texts_ask_for_inputs(
    judged: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, results = judged
    ids = [json.loads(x)["id"] for x in results.read_text(encoding="utf-8").splitlines()][:8]
    labels = tmp_path / "labels.jsonl"
    labels.write_text(
        "".join(
            json.dumps(
                {"schema": "sumjudge.label/1", "id": i, "reviewer": "ann", "scores": {"fluency": 2}}
            )
            + "\n"
            for i in ids
        ),
        encoding="utf-8",
    )
    code = main(
        ["calibrate", str(labels), "--results", str(results), "-o", str(tmp_path / "p.json")]
    )
    err = capsys.readouterr().err
    assert code == 2 and "--inputs" in err
    code = main(
        [
            "calibrate",
            str(labels),
            "--results",
            str(results),
            "--inputs",
            str(DEV),
            "-o",
            str(tmp_path / "p.json"),
            "--n-resamples",
            "0",
        ]
    )
    assert code == 0, capsys.readouterr().err
