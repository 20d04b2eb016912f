"""The pytest plugin in a temporary project, judged by the offline judge."""

from __future__ import annotations

import json
import os
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

import sumjudge
from sumjudge import assert_summary
from sumjudge.assertions import KEYED_DEFAULTS, default_model
from sumjudge.cli import _common

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

pytest_plugins = ["pytester"]

SOURCE = (
    "The city council approved a budget of 4 million dollars for the new library on "
    "Monday. Construction will start in March and the library is expected to open in 2027. "
    "The mayor said the library will have a children section and a cafe."
)
FAITHFUL = (
    "The council approved a 4 million dollar budget for a new library, which should open in 2027."
)
INVENTED = (
    "The council approved a 9 million dollar budget for a new library, which should open in 2031."
)

TESTS = f"""
from sumjudge import assert_summary

SOURCE = {SOURCE!r}

def test_faithful():
    assert_summary(SOURCE, {FAITHFUL!r}, metrics=["consistency"])

def test_invented():
    assert_summary(SOURCE, {INVENTED!r}, metrics=["consistency"])

def test_fixture(sumjudge_judge):
    result = sumjudge_judge.evaluate(SOURCE, {FAITHFUL!r}, metrics=["fluency"])
    assert sumjudge_judge.model == "local-lexical"
    assert result.metrics["fluency"].score >= 2
"""


def _declared_entry_point() -> str:
    """The `pytest11` entry point the project's pyproject.toml declares."""
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    declared = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["entry-points"]
    return str(declared["pytest11"]["sumjudge"])


def _run(pytester: pytest.Pytester, mp: pytest.MonkeyPatch, *args: str) -> pytest.RunResult:
    pytester.makepyfile(test_summaries=TESTS)
    # The subprocess imports this checkout's sumjudge whatever the working directory.
    paths = [str(Path(sumjudge.__file__).resolve().parents[1])]
    installed = [ep for ep in entry_points(group="pytest11") if ep.name == "sumjudge"]
    if not installed:
        # Not pip-installed with the entry point (a PYTHONPATH checkout): the declared entry
        # point goes into a distribution's metadata on the path, so pytest autoloads the
        # plugin exactly as it does once sumjudge is installed.
        dist = pytester.path / "_dist" / "sumjudge_plugin_probe-0.dist-info"
        dist.mkdir(parents=True)
        (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: sumjudge-plugin-probe\n"
                                       "Version: 0\n")  # fmt: skip
        (dist / "entry_points.txt").write_text(
            f"[pytest11]\nsumjudge = {_declared_entry_point()}\n"
        )
        paths.append(str(dist.parent))
    mp.setenv("PYTHONPATH", os.pathsep.join([*paths, os.environ.get("PYTHONPATH", "")]))
    mp.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", raising=False)
    return pytester.runpytest_subprocess(*args)


def test_the_entry_point_names_the_plugin() -> None:
    assert _declared_entry_point() == "sumjudge.pytest_plugin"


def test_plugin_passes_faithful_and_fails_invented(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = pytester.path / "judged.jsonl"
    result = _run(
        pytester, monkeypatch, "--sumjudge-model", "local-lexical", f"--sumjudge-report={report}"
    )
    result.assert_outcomes(passed=2, failed=1)
    out = result.stdout.str()
    # The failure shows the score, its threshold and the judge's explanation.
    assert "summary judged bad by local-lexical" in out
    assert 'LOW consistency: 1 (needs >= 3): Consistency 1/3. The summary gives "9 million"' in out
    # The session ends with one table of every judged summary.
    assert "sumjudge: judged summaries" in out
    table = [line for line in out.splitlines() if line.startswith("test_summaries.py::")]
    assert [line.split()[-1] for line in table] == ["pass", "FAIL", "-"]
    records = [json.loads(line) for line in report.read_text().splitlines()]
    assert [r["meta"]["passed"] for r in records] == [True, False, None]
    assert records[1]["summary"]["consistency"]["score"] == 1


def test_a_failure_shows_the_users_line_and_the_scores_not_our_source(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = _run(pytester, monkeypatch, "--sumjudge-model", "local-lexical", "-k", "invented")
    result.assert_outcomes(failed=1, deselected=2)
    out = result.stdout.lines
    start = next(i for i, line in enumerate(out) if "_ test_invented _" in line)
    end = next(i for i, line in enumerate(out) if i > start and line.startswith(("=", "_")))
    failure = out[start + 1 : end]
    text = "\n".join(failure)
    # The user's call, the verdict and the metric's score: a short block, none of ours.
    assert "assert_summary(SOURCE," in text
    assert "summary judged bad by local-lexical" in text
    assert "LOW consistency: 1 (needs >= 3)" in text
    assert "assertions.py" not in text and "failures.append" not in text
    assert len(failure) <= 12, text


def test_ini_keys_and_html_report(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makeini("[pytest]\nsumjudge_model = local-lexical\nsumjudge_report = judged.html\n")
    result = _run(pytester, monkeypatch, "-k", "faithful")
    result.assert_outcomes(passed=1, deselected=2)
    html = (pytester.path / "judged.html").read_text()
    assert "<!DOCTYPE html>" in html and "test_faithful" in html


def test_assert_summary_in_process_options() -> None:
    result = assert_summary(SOURCE, FAITHFUL, metrics=["consistency"], model="local-lexical")
    assert result.metrics["consistency"].score == 3
    with pytest.raises(AssertionError, match=r"consistency scored 2 \(needs >= 4\)|needs >= 4"):
        assert_summary(
            SOURCE, FAITHFUL, min_rating="bad", min_scores={"consistency": 4},
            model="local-lexical", metrics=["consistency"],
        )  # fmt: skip
    with pytest.raises(ValueError, match="min_rating"):
        assert_summary(SOURCE, FAITHFUL, min_rating="great", model="local-lexical")
    with pytest.raises(ValueError, match="not judged"):
        assert_summary(
            SOURCE, FAITHFUL, metrics=["fluency"], min_scores={"consistency": 2},
            model="local-lexical",
        )  # fmt: skip


def test_default_judge_matches_the_cli(monkeypatch: pytest.MonkeyPatch) -> None:
    assert KEYED_DEFAULTS == _common._KEYED_DEFAULTS
    for var, _ in KEYED_DEFAULTS:
        monkeypatch.delenv(var, raising=False)
    assert default_model() == "local"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-key")
    assert default_model() == "openai/gpt-4o-mini"
    assert "sk-test" not in repr(os.environ.get("NOTHING"))
