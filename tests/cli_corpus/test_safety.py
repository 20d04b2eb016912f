"""Nothing lost, never a traceback: the CLI's answers to a user's mistakes and to Ctrl-C.

Every case checks the exit code, that stderr is one line naming the file or flag (no
traceback) and that the input files are byte for byte what they were.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import sumjudge.cli._batch as batch_module
from sumjudge.cli._safety import (
    atomic_write_text,
    check_outputs,
    resume_command,
)
from sumjudge.cli.main import main
from sumjudge.errors import ConfigError

SLICE = Path(__file__).parent.parent / "data" / "summeval_slice.jsonl"
RESULTS = Path(__file__).parent.parent / "data" / "report" / "autoeval_results.jsonl"
LOCAL = ["--model", "local-lexical", "--no-progress", "--no-cache"]


def write_rows(path: Path, n: int, sentences: int = 2) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            source = " ".join(
                f"Meeting {i}, point {j}. Rina says the release ships on Friday {j}. "
                "Budi will test it carefully."
                for j in range(sentences)
            )
            row = {"id": f"m{i}", "input": source, "summary": f"Ships Friday {i}."}
            fh.write(json.dumps(row) + "\n")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    """Exit code and stderr lines of `sumjudge argv` run in-process."""
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse
        code = exc.code if isinstance(exc.code, int) else 2
    err = capsys.readouterr().err
    return code, [line for line in err.splitlines() if line.strip()]


def one_line(lines: list[str], *needles: str) -> str:
    assert len(lines) == 1, lines
    line = lines[0]
    assert "Traceback" not in line
    for needle in needles:
        assert needle in line, (needle, line)
    return line


@pytest.fixture
def src(tmp_path: Path) -> Iterator[Path]:
    """A small input whose bytes must not change."""
    path = tmp_path / "in.jsonl"
    write_rows(path, 3)
    before = digest(path)
    yield path
    assert digest(path) == before, "the input was modified"


@pytest.fixture
def meta_src(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "human.jsonl"
    path.write_bytes(SLICE.read_bytes())
    before = digest(path)
    yield path
    assert digest(path) == before, "the input was modified"


@pytest.fixture
def results(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "results.jsonl"
    path.write_bytes(RESULTS.read_bytes())
    before = digest(path)
    yield path
    assert digest(path) == before, "the input was modified"


# --- an output that is an input -----------------------------------------------------------


def test_evaluate_output_is_the_input(src: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(["evaluate", str(src), *LOCAL, "-o", str(src)], capsys)
    assert code == 2
    one_line(err, "sumjudge: error:", "-o/--output", f"is the input FILE {src}")


def test_evaluate_output_is_a_symlink_to_the_input(
    src: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    link = tmp_path / "link.jsonl"
    link.symlink_to(src)
    code, err = run(["evaluate", str(src), *LOCAL, "-o", str(link)], capsys)
    assert code == 2
    one_line(err, str(link), str(src), "symlink")
    assert link.is_symlink()


def test_evaluate_output_is_a_hard_link_to_the_input(
    src: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hard = tmp_path / "hard.jsonl"
    os.link(src, hard)
    code, err = run(["evaluate", str(src), *LOCAL, "-o", str(hard)], capsys)
    assert code == 2
    one_line(err, str(hard), str(src), "hard link")


def test_output_resolving_to_the_input_through_dotdot(
    src: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "sub").mkdir()
    sneaky = tmp_path / "sub" / ".." / "in.jsonl"
    code, err = run(["evaluate", str(src), *LOCAL, "-o", str(sneaky)], capsys)
    assert code == 2
    one_line(err, "is the input FILE")


@pytest.mark.parametrize("flag", ["--report", "--summary-json"])
def test_evaluate_side_outputs_equal_to_the_input(
    flag: str, src: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.jsonl"
    code, err = run(["evaluate", str(src), *LOCAL, "-o", str(out), flag, str(src)], capsys)
    assert code == 2
    one_line(err, flag, str(src), "is the input FILE")
    assert not out.exists(), "nothing may be written when the command is refused"


def test_evaluate_report_whose_derived_output_is_the_input(
    src: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # --report in.html without -o sends the results to in.jsonl: the input itself.
    code, err = run(["evaluate", str(src), *LOCAL, "--report", str(tmp_path / "in.html")], capsys)
    assert code == 2
    one_line(err, "derived from --report", "is the input FILE")


def test_evaluate_output_is_the_input_file_of_a_pair(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, summary = tmp_path / "source.txt", tmp_path / "summary.txt"
    text.write_text("Rina says the release ships on Friday. Budi will test it.\n")
    summary.write_text("Ships Friday.\n")
    before = digest(summary)
    argv = ["evaluate", "--input-file", str(text), "--summary-file", str(summary), *LOCAL]
    code, err = run([*argv, "-o", str(summary)], capsys)
    assert code == 2
    one_line(err, "-o/--output", "--summary-file", str(summary))
    assert digest(summary) == before


def test_two_outputs_on_one_file(
    src: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.jsonl"
    code, err = run(
        ["evaluate", str(src), *LOCAL, "-o", str(out), "--summary-json", str(out)], capsys
    )
    assert code == 2
    one_line(err, "--summary-json", "-o/--output", "same file")


@pytest.mark.parametrize("flag", ["-o", "--card", "--report"])
def test_meta_eval_outputs_equal_to_the_input(
    flag: str, meta_src: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = run(["meta-eval", str(meta_src), "--model", "local", flag, str(meta_src)], capsys)
    assert code == 2
    one_line(err, str(meta_src), "is the input FILE")


def test_meta_eval_card_is_a_symlink_to_the_input(
    meta_src: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    link = tmp_path / "card.json"
    link.symlink_to(meta_src)
    code, err = run(["meta-eval", str(meta_src), "--model", "local", "--card", str(link)], capsys)
    assert code == 2
    one_line(err, "--card", "symlink")


def test_report_output_is_the_results(results: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(["report", str(results), "-o", str(results)], capsys)
    assert code == 2
    one_line(err, "-o/--output", f"is the input RESULTS {results}")


def test_report_output_is_a_hard_link_to_the_inputs(
    results: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inputs = tmp_path / "inputs.jsonl"
    inputs.write_bytes((RESULTS.parent / "autoeval_inputs.jsonl").read_bytes())
    before = digest(inputs)
    hard = tmp_path / "report.html"
    os.link(inputs, hard)
    code, err = run(["report", str(results), "--inputs", str(inputs), "-o", str(hard)], capsys)
    assert code == 2
    one_line(err, "--inputs", "hard link")
    assert digest(inputs) == before


# --- files that are missing, folders, unreadable ------------------------------------------


@pytest.mark.parametrize("command", ["evaluate", "report", "meta-eval"])
def test_output_folder_missing(
    command: str, src: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "nowhere" / "out.x"
    argv = {
        "evaluate": ["evaluate", str(src), *LOCAL, "-o", str(out)],
        "report": ["report", str(src), "-o", str(out)],
        "meta-eval": ["meta-eval", str(src), "--model", "local", "--card", str(out)],
    }[command]
    code, err = run(argv, capsys)
    assert code == 2
    one_line(err, str(out), f"the folder {out.parent} does not exist", "mkdir -p")
    assert not out.parent.exists()


def test_output_is_a_folder(src: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(["evaluate", str(src), *LOCAL, "-o", str(tmp_path)], capsys)
    assert code == 2
    one_line(err, f"-o/--output {tmp_path} is a folder")


@pytest.mark.parametrize("command", ["evaluate", "autoeval", "meta-eval", "report"])
def test_input_is_a_folder(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = run([command, str(tmp_path)], capsys)
    assert code == 2
    one_line(err, "sumjudge: error:", str(tmp_path), "is a folder")


@pytest.mark.parametrize("command", ["evaluate", "autoeval", "meta-eval", "report"])
def test_input_missing(command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.jsonl"
    code, err = run([command, str(missing)], capsys)
    assert code == 2
    one_line(err, "sumjudge: error:", str(missing), "no such file")


def test_report_card_missing(
    results: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    card = tmp_path / "card.json"
    code, err = run(
        ["report", str(results), "--card", str(card), "-o", str(tmp_path / "r.html")], capsys
    )
    assert code == 2
    one_line(err, f"--card {card}: no such file")
    assert not (tmp_path / "r.html").exists()


def test_input_permission_denied(
    src: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src.chmod(0)
    try:
        if os.access(src, os.R_OK):
            pytest.skip("running as root: permissions are not enforced")
        code, err = run(["evaluate", str(src), *LOCAL, "-o", str(tmp_path / "o.jsonl")], capsys)
    finally:
        src.chmod(0o644)
    assert code == 2
    one_line(err, str(src), "permission denied")


def test_input_permission_denied_simulated(
    src: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same refusal where root ignores permissions: the open itself is refused."""
    real_open = Path.open

    def guarded(self: Path, *args: Any, **kwargs: Any) -> Any:
        if self == src:
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", guarded)
    code, err = run(["evaluate", str(src), *LOCAL, "-o", str(tmp_path / "o.jsonl")], capsys)
    monkeypatch.undo()
    assert code == 2
    one_line(err, f"FILE {src}: permission denied", "chmod")
    assert not (tmp_path / "o.jsonl").exists()


def test_input_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "latin1.jsonl"
    bad.write_bytes(
        '{"input": "Caf\xe9 opens on Friday.", "summary": "Caf\xe9."}\n'.encode("latin-1")
    )
    before = digest(bad)
    code, err = run(["evaluate", str(bad), *LOCAL], capsys)
    assert code == 3  # that row failed, named, with the way out; the file is not refused whole
    first = err[0]  # `run` gives stderr as lines
    assert not any("Traceback" in line for line in err)
    assert "row 0" in first and "not valid UTF-8" in first
    assert "--encoding" in first
    assert digest(bad) == before


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_disk_full_is_one_line(src: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(["evaluate", str(src), *LOCAL, "-o", "/dev/full"], capsys)
    assert code == 2
    one_line(err, "sumjudge: error: /dev/full", "No space left", "--resume")
    assert Path("/dev/full").is_char_device()


def test_device_output_is_written_in_place(src: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(["evaluate", str(src), *LOCAL, "-o", os.devnull], capsys)
    assert code == 0, err
    assert Path(os.devnull).is_char_device()
    assert not Path(os.devnull + ".partial").exists()


def test_usage_error_from_a_subcommand_is_exit_2(
    src: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = run(["evaluate", "--input-file", str(src), *LOCAL], capsys)
    assert code == 2
    one_line(err, "--input-file and --summary-file go together")


# --- flag values --------------------------------------------------------------------------

BAD_FLAGS = [
    ("evaluate", "--concurrency", "0", "must be at least 1"),
    ("evaluate", "--concurrency", "-3", "must be at least 1"),
    ("evaluate", "--concurrency", "many", "must be a whole number"),
    ("evaluate", "--max-attempts", "0", "must be at least 1"),
    ("evaluate", "--timeout", "-1", "must be greater than 0"),
    ("evaluate", "--timeout", "0", "must be greater than 0"),
    ("evaluate", "--timeout", "nan", "must be a finite number"),
    ("evaluate", "--rpm", "0", "must be greater than 0"),
    ("evaluate", "--tpm", "-5", "must be greater than 0"),
    ("evaluate", "--max-cost", "-0.01", "must be 0 or more"),
    ("evaluate", "--context-window", "0", "must be at least 1"),
    ("autoeval", "--concurrency", "0", "must be at least 1"),
    ("autoeval", "--max-attempts", "0", "must be at least 1"),
    ("meta-eval", "--concurrency", "0", "must be at least 1"),
    ("meta-eval", "--n-resamples", "-1", "must be at least 0"),
    ("meta-eval", "--limit", "0", "must be at least 1"),
    ("meta-eval", "--alpha", "0", "must be between 0 and 1"),
    ("meta-eval", "--alpha", "1", "must be between 0 and 1"),
    ("meta-eval", "--alpha", "1.5", "must be between 0 and 1"),
]


@pytest.mark.parametrize(("command", "flag", "value", "message"), BAD_FLAGS)
def test_invalid_flag_value(
    command: str,
    flag: str,
    value: str,
    message: str,
    src: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "out.jsonl"
    code, err = run(
        [command, str(src), "--model", "local-lexical", "-o", str(out), f"{flag}={value}"], capsys
    )
    assert code == 2
    line = one_line(err, f"sumjudge {command}: error: argument {flag}", f": {message}", "--help")
    assert "usage:" not in line
    assert not out.exists()


# --- bugs ---------------------------------------------------------------------------------


def _broken_write_report(*args: object, **kwargs: object) -> None:
    raise ZeroDivisionError("division by zero in the renderer")


def test_internal_bug_is_one_line_without_debug(
    results: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("sumjudge.report.write_report", _broken_write_report)
    code, err = run(["report", str(results), "-o", str(tmp_path / "r.html")], capsys)
    assert code == 1
    one_line(err, "internal error (a bug)", "ZeroDivisionError", "division by zero", "--debug")


def test_internal_bug_propagates_with_debug(
    results: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sumjudge.report.write_report", _broken_write_report)
    with pytest.raises(ZeroDivisionError):
        main(["--debug", "report", str(results), "-o", str(tmp_path / "r.html")])


def test_crash_mid_run_keeps_the_good_file_and_resume_completes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_rows(src, 8)
    src_hash = digest(src)
    out.write_text('{"index": 0, "status": "ok", "old": true}\n')
    good = digest(out)
    real_write = batch_module.RecordSink.write

    def flaky(self: batch_module.RecordSink, data: dict[str, object]) -> None:
        if self.written == 3:
            raise RuntimeError("simulated crash")
        real_write(self, data)

    monkeypatch.setattr(batch_module.RecordSink, "write", flaky)
    code, err = run(["evaluate", str(src), *LOCAL, "--concurrency", "1", "-o", str(out)], capsys)
    assert code == 1
    one_line(err, "internal error (a bug)", "RuntimeError")
    assert digest(out) == good, "a failed run replaced the good file"
    partial = tmp_path / "out.jsonl.partial"
    assert len(partial.read_text().splitlines()) == 3

    monkeypatch.setattr(batch_module.RecordSink, "write", real_write)
    code, err = run(["evaluate", str(src), *LOCAL, "-o", str(out), "--resume"], capsys)
    assert code == 0, err
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["index"] for r in records) == list(range(8))
    assert not any(r.get("old") for r in records), "the newer run's record of an index wins"
    assert not partial.exists()
    assert digest(src) == src_hash


def test_completed_run_replaces_the_file_and_keeps_its_mode(
    src: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text("old results\n")
    out.chmod(0o640)
    stale = tmp_path / "out.jsonl.partial"
    stale.write_text('{"index": 99, "status": "ok"}\n')
    code, err = run(["evaluate", str(src), *LOCAL, "-o", str(out)], capsys)
    assert code == 0, err
    assert sorted(json.loads(line)["index"] for line in out.read_text().splitlines()) == [0, 1, 2]
    assert not stale.exists()
    assert out.stat().st_mode & 0o777 == 0o640


def test_symlinked_output_is_written_through(
    src: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    real, link = tmp_path / "real.jsonl", tmp_path / "link.jsonl"
    real.write_text("old\n")
    link.symlink_to(real)
    code, err = run(["evaluate", str(src), *LOCAL, "-o", str(link)], capsys)
    assert code == 0, err
    assert link.is_symlink()
    assert len(real.read_text().splitlines()) == 3


def test_interrupt_before_any_result(
    src: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupt(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("sumjudge.cli.evaluate.count_rows", interrupt)
    code, err = run(["evaluate", str(src), *LOCAL], capsys)
    assert code == 130
    one_line(err, "interrupted before any result was written", "--resume")


# --- helpers ------------------------------------------------------------------------------


def test_atomic_write_removes_its_temp_file_on_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "card.json"
    target.write_text("good\n")

    def fail(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError):
        atomic_write_text(target, "new\n")
    assert target.read_text() == "good\n"
    assert [p.name for p in tmp_path.iterdir()] == ["card.json"]


def test_atomic_write_names_a_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        atomic_write_text(tmp_path / "no" / "x.json", "{}")


def test_check_outputs_skips_unset_paths(tmp_path: Path) -> None:
    check_outputs([("FILE", None)], [("-o", None), ("--card", str(tmp_path / "c.json"))])


def test_resume_command_adds_resume_once() -> None:
    assert resume_command(["evaluate", "a b.jsonl", "-o", "o.jsonl"]) == (
        "sumjudge evaluate 'a b.jsonl' -o o.jsonl --resume"
    )
    assert resume_command(["evaluate", "x", "--resume"]).count("--resume") == 1


# --- Ctrl-C in a real process -------------------------------------------------------------


def _cli(argv: list[str], tmp: Path) -> tuple[list[str], dict[str, str]]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env["SUMJUDGE_CACHE_DIR"] = str(tmp / "cache")
    src_dir = str(Path(__file__).resolve().parents[2] / "src")
    env["PYTHONPATH"] = os.pathsep.join([src_dir, env.get("PYTHONPATH", "")])
    return [sys.executable, "-m", "sumjudge.cli.main", *argv], env


def _interrupt_after(argv: list[str], tmp: Path, watch: Path, lines: int) -> subprocess.Popen[str]:
    cmd, env = _cli(argv, tmp)
    proc = subprocess.Popen(
        cmd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        # A job started in the background inherits SIGINT ignored; give it the default.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if watch.exists() and len(watch.read_bytes().splitlines()) >= lines:
            break
        time.sleep(0.01)
    assert proc.poll() is None, "the run ended before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    proc.wait(30)
    return proc


def _indices(path: Path) -> list[int]:
    return [json.loads(line)["index"] for line in path.read_text().splitlines()]


def test_ctrl_c_keeps_the_good_file_and_resume_completes_it(tmp_path: Path) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    partial = tmp_path / "out.jsonl.partial"
    write_rows(src, 200, sentences=15)
    src_hash = digest(src)
    out.write_text('{"index": 0, "status": "ok", "old": true}\n')
    good = digest(out)
    argv = ["evaluate", str(src), *LOCAL, "--concurrency", "1", "-o", str(out)]
    proc = _interrupt_after(argv, tmp_path, partial, 10)
    err = proc.stderr.read() if proc.stderr else ""
    assert proc.returncode == 130, err
    line = one_line([x for x in err.splitlines() if x.strip()], "sumjudge: interrupted:")
    assert digest(out) == good, "the interrupted run touched the good file"
    done = _indices(partial)
    assert 10 <= len(done) < 200 and len(set(done)) == len(done)
    assert f"{len(done)} item(s) written to {partial} ({out} is untouched)" in line
    resume = line.split("resume with: ", 1)[1]
    assert shlex.split(resume) == ["sumjudge", *argv, "--resume"]

    cmd, env = _cli(shlex.split(resume)[1:], tmp_path)
    resumed = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{len(done)} item(s) already done" in resumed.stderr
    assert sorted(_indices(out)) == list(range(200))
    assert not partial.exists()
    assert digest(src) == src_hash


def test_ctrl_c_on_a_new_output_reports_the_count(tmp_path: Path) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_rows(src, 200, sentences=15)
    src_hash = digest(src)
    argv = ["evaluate", str(src), *LOCAL, "--concurrency", "1", "-o", str(out)]
    proc = _interrupt_after(argv, tmp_path, out, 5)
    err = proc.stderr.read() if proc.stderr else ""
    assert proc.returncode == 130, err
    written = len(_indices(out))
    one_line(
        [x for x in err.splitlines() if x.strip()],
        f"interrupted: {written} item(s) written to {out}; resume with: sumjudge evaluate",
        "--resume",
    )
    assert "Traceback" not in err
    assert digest(src) == src_hash


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["evaluate", "{src}", "--model", ""], "--model"),
        (["evaluate", "{src}", "--model", " "], "--model"),
        (["evaluate", "{src}", "--metrics", ""], "--metrics"),
        (["autoeval", "{src}", "--metrics", " , "], "--metrics"),
        (["meta-eval", "{src}", "--model", ""], "--model"),
        (["meta-eval", "{src}", "--metrics", ""], "--metrics"),
        (["compare", "{src}", "{src}", "--metrics", ""], "--metrics"),
    ],
)
def test_an_empty_model_or_metric_list_is_refused(
    argv: list[str], flag: str, src: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = run([a.format(src=src) for a in argv], capsys)
    assert code == 2  # not the defaults, silently
    one_line(err, f"argument {flag}: must")
