"""The pytest plugin of sumjudge (entry point `pytest11`: active wherever it is installed).

Options (and the same as ini keys `sumjudge_model`, `sumjudge_report`):

* `--sumjudge-model MODEL`: the judge of `assert_summary` and the `sumjudge_judge` fixture
  (default: the CLI's choice, an API key present, else the offline `local`);
* `--sumjudge-report PATH`: write every judged summary as results JSONL, or as the HTML
  report when PATH ends in `.html`.

The session ends with one table of every summary judged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .assertions import SummarySession, current_session, default_model

__all__ = ["SessionJudge"]


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add the `--sumjudge-*` options and ini keys."""
    group = parser.getgroup("sumjudge", "judging summaries with sumjudge")
    group.addoption("--sumjudge-model", default=None, help="judge for assert_summary")
    group.addoption(
        "--sumjudge-report",
        default=None,
        help="write judged summaries as JSONL (or HTML when the path ends in .html)",
    )
    parser.addini("sumjudge_model", "judge for assert_summary", default="")
    parser.addini("sumjudge_report", "where to write the judged summaries", default="")


def _option(config: pytest.Config, name: str) -> str | None:
    value = config.getoption(f"--sumjudge-{name}") or config.getini(f"sumjudge_{name}")
    return str(value) if value else None


def pytest_configure(config: pytest.Config) -> None:
    """Set the session's judge from the options."""
    session = current_session()
    session.model = _option(config, "model")
    session.judged.clear()


class SessionJudge:
    """The session's evaluator behind a synchronous face (the `sumjudge_judge` fixture).

    Attributes:
        session: the session it judges in.
    """

    def __init__(self, session: SummarySession) -> None:
        self.session = session

    @property
    def model(self) -> str:
        """The judge's name."""
        return self.session.model or default_model()

    @property
    def evaluator(self) -> Any:
        """The `SummarizationEvaluator` (all four metrics) the session uses."""
        return self.session.evaluator()

    def evaluate(self, source: str, summary: str, **kw: Any) -> Any:
        """Judge one summary; returns the `SummaryResult` (`metrics=` and `model=` allowed).

        The summary joins the session's table and report, without a pass or fail.
        """
        __tracebackhide__ = True
        result = self.session.judge(source, summary, **kw)
        self.session.record(source, summary, result, model=kw.get("model"), passed=None)
        return result


@pytest.fixture(scope="session")
def sumjudge_judge() -> SessionJudge:
    """The session's judge (see `SessionJudge`)."""
    return SessionJudge(current_session())


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """One table of every summary judged in the session."""
    judged = current_session().judged
    if not judged:
        return
    names: list[str] = []
    for j in judged:
        names.extend(n for n in j.result.metrics if n not in names)
    terminalreporter.section("sumjudge: judged summaries")
    width = min(60, max(len(j.test) for j in judged))
    head = f"{'test':<{width}}  {'rating':<10}  " + "  ".join(f"{n[:11]:>11}" for n in names)
    terminalreporter.write_line(head + "  result")
    for j in judged:
        scores = []
        for n in names:
            m = j.result.metrics.get(n)
            scores.append(f"{'-' if m is None or m.score is None else m.score:>11}")
        test = j.test if len(j.test) <= width else "…" + j.test[-(width - 1) :]
        terminalreporter.write_line(
            f"{test:<{width}}  {j.result.rating.relevancy_rating:<10}  "
            + "  ".join(scores)
            + f"  {'-' if j.passed is None else 'pass' if j.passed else 'FAIL'}"
        )
    path = _option(config, "report")
    if path:
        terminalreporter.write_line(f"sumjudge: {len(judged)} judged summaries written to {path}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Write the judged summaries, if asked (before the terminal summary names the file)."""
    path = _option(session.config, "report")
    judged = current_session()
    if path and judged.judged:
        _write(judged, Path(path))


def pytest_unconfigure(config: pytest.Config) -> None:
    """Close the session's evaluators and their loop."""
    current_session().close()


def _write(session: SummarySession, path: Path) -> None:
    import json

    records = session.records()
    if path.suffix.lower() in (".html", ".htm"):
        from .report import write_report

        inputs = [{"id": j.test, "input": j.source, "summary": j.summary} for j in session.judged]
        write_report(records, path, inputs=inputs, title="sumjudge: judged summaries")
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    path.write_text(text, encoding="utf-8")
