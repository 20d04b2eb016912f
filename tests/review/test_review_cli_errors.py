"""`sumjudge review` refuses bad input with one line naming the file (and line), exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from review_data import input_row, result, write_jsonl  # type: ignore[import-not-found]

from sumjudge.align import Label, LabelLog
from sumjudge.cli.main import main
from sumjudge.review import default_labels_path


def one_error_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    code = main(argv)
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert err.startswith("sumjudge"), err
    return err


def test_results_that_are_not_jsonl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "results.jsonl"
    bad.write_text(json.dumps(result(0)) + "\nid,input,summary\n", encoding="utf-8")
    err = one_error_line(capsys, ["review", str(bad)])
    assert f"{bad}: line 2 is not valid JSON" in err


def test_an_input_file_given_as_results(
    run_files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, inputs = run_files
    err = one_error_line(capsys, ["review", str(inputs)])
    assert f"{inputs}: no judged record" in err and "--inputs" in err


def test_inputs_of_another_run(
    run_files: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results, _ = run_files
    other = write_jsonl(tmp_path / "other.jsonl", [{**input_row(0), "id": "x"}])
    err = one_error_line(capsys, ["review", str(results), "--inputs", str(other)])
    assert f"{other}: none of its 1 ids" in err


def test_repeated_ids(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = write_jsonl(tmp_path / "r.jsonl", [result(0), result(1), result(0)])
    err = one_error_line(capsys, ["review", str(results)])
    assert "line 3: id 'call-0' is also on line 1" in err


def test_label_file_that_is_not_a_label_log(
    run_files: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results, _ = run_files
    labels = tmp_path / "labels.jsonl"
    LabelLog(labels).append(Label(id="call-0", reviewer="ann", rating="good"))
    with labels.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({"id": "call-1", "human": {"coherence": 4.5}}) + "\n")
    before = labels.read_bytes()
    err = one_error_line(capsys, ["review", str(results), "--labels", str(labels)])
    assert f"{labels}: line 2 is not a review label" in err
    first = before[: before.index(b"\n") + 1]
    labels.write_bytes(first + b"[1, 2]\n{}\n")
    err = one_error_line(capsys, ["review", str(results), "--labels", str(labels)])
    assert f"{labels}: line 2 is not a review label" in err
    labels.write_bytes(first + b'{"schema": "sumjudge.label/1", "id": "a", "scores": {"x": 7}}\n')
    err = one_error_line(capsys, ["review", str(results), "--labels", str(labels)])
    assert f"{labels}: line 2" in err and "1-3" in err


@pytest.mark.parametrize("which", ["results", "inputs"])
def test_labels_never_overwrite_an_input(
    which: str, run_files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    results, inputs = run_files
    target = results if which == "results" else inputs
    before = target.read_bytes()
    argv = ["review", str(results), "--inputs", str(inputs), "--labels", str(target)]
    err = one_error_line(capsys, argv)
    assert "would destroy the input" in err
    assert target.read_bytes() == before


def test_default_labels_path() -> None:
    assert default_labels_path("runs/results.jsonl") == Path("runs/results.labels.jsonl")
    assert default_labels_path("out.txt") == Path("out.txt.labels.jsonl")


def test_bad_flag_values(run_files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    results, _ = run_files
    for argv, words in [
        (["--port", "70000"], "at most 65535"),
        (["--order", "best"], "invalid choice"),
        (["--reviewer", "  "], "printable name"),
    ]:
        with pytest.raises(SystemExit) as exit_info:
            main(["review", str(results), *argv])
        assert exit_info.value.code == 2
        assert words in capsys.readouterr().err
