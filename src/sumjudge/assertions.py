"""`assert_summary`: judge one summary inside any test, synchronously, and fail with why.

Example:
    >>> from sumjudge import assert_summary
    >>> assert_summary(source, summary, min_rating="good", metrics=["consistency"])

Judging runs on one background event loop per session (a thread), so the call works the
same in plain and in async tests, and each judge's connections stay on the loop that made
them. The judge is chosen like the CLI's default (the first API key present, else the
offline judge `local`) unless `model=` or the pytest plugin's `--sumjudge-model` says
otherwise; replies are cached in the CLI's default cache, so a re-run costs nothing.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Coroutine, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .evaluators import SummarizationEvaluator
from .evaluators.records import Record
from .types import SummaryData, SummaryResult

__all__ = ["JudgedSummary", "SummarySession", "assert_summary", "current_session", "default_model"]

T = TypeVar("T")
_RANK = {"bad": 0, "incomplete": 1, "good": 2}
# The same order as the CLI's default judge choice (`cli/_common.py`, `_KEYED_DEFAULTS`);
# a test checks that the two agree (this package may not import the CLI).
KEYED_DEFAULTS = (
    ("GOOGLE_API_KEY", "google/gemini-2.5-flash"),
    ("OPENAI_API_KEY", "openai/gpt-4o-mini"),
    ("ANTHROPIC_API_KEY", "anthropic/claude-haiku-4-5"),
)


def default_model() -> str:
    """The judge the CLI would pick: the first API key present, else the offline `local`."""
    for env_var, model in KEYED_DEFAULTS:
        if os.environ.get(env_var):
            return model
    return "local"


@dataclass(frozen=True)
class JudgedSummary:
    """One summary judged in the session, kept for its summary table.

    `passed` is None for a summary judged without conditions (the `sumjudge_judge` fixture).
    """

    test: str
    model: str
    source: str
    summary: str
    result: SummaryResult
    passed: bool | None
    failures: tuple[str, ...] = ()


class _Loop:
    """A private event loop on a daemon thread; `run` waits for a coroutine on it."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        __tracebackhide__ = True  # pytest: a failing test shows the user's line
        future: Future[T] = asyncio.run_coroutine_threadsafe(coro, self.loop)
        return future.result()

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)
        self.loop.close()


@dataclass
class SummarySession:
    """The evaluators and judged summaries of one test session (or one process).

    Attributes:
        model: the judge to use when `assert_summary` is given none (None: the default).
        cache: the response cache setting given to the evaluators (True: the default one).
        judged: every summary judged so far, in order.
    """

    model: str | None = None
    cache: Any = True
    judged: list[JudgedSummary] = field(default_factory=list)
    _loop: _Loop | None = None
    _evaluators: dict[tuple[str, tuple[str, ...] | None], SummarizationEvaluator] = field(
        default_factory=dict
    )
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def evaluator(
        self, model: str | None = None, metrics: Sequence[str] | None = None
    ) -> SummarizationEvaluator:
        """The session's evaluator for `model` and `metrics` (made once, then reused)."""
        __tracebackhide__ = True
        name = model or self.model or default_model()
        key = (name, None if metrics is None else tuple(metrics))
        with self._lock:
            if key not in self._evaluators:
                self._evaluators[key] = SummarizationEvaluator(
                    model=name, enabled_metrics=metrics, cache=self.cache
                )
            return self._evaluators[key]

    def judge(
        self,
        source: str,
        summary: str,
        *,
        model: str | None = None,
        metrics: Sequence[str] | None = None,
    ) -> SummaryResult:
        """Judge one summary on the session's loop and return the typed result."""
        __tracebackhide__ = True
        evaluator = self.evaluator(model, metrics)
        with self._lock:
            if self._loop is None:
                self._loop = _Loop()
            loop = self._loop
        data = SummaryData(input=source, summary=summary)
        return loop.run(evaluator.evaluate_result(data))

    def record(self, source: str, summary: str, result: SummaryResult, *, model: str | None,
               passed: bool | None, failures: Sequence[str] = ()) -> None:  # fmt: skip
        """Keep one judged summary for the session's table and report."""
        test = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0] or "assert_summary"
        name = model or self.model or default_model()
        self.judged.append(
            JudgedSummary(test, name, source, summary, result, passed, tuple(failures))
        )

    def records(self) -> list[dict[str, Any]]:
        """The judged summaries as result records (the JSONL shape of `evaluate`)."""
        return [
            Record(
                index=i,
                id=j.test,
                result=j.result,
                meta={"judge": j.model, "test": j.test, "passed": j.passed},
            ).to_dict()
            for i, j in enumerate(self.judged)
        ]

    def close(self) -> None:
        """Close every evaluator and stop the loop."""
        loop, self._loop = self._loop, None
        if loop is None:
            return
        for evaluator in self._evaluators.values():
            loop.run(evaluator.aclose())
        self._evaluators.clear()
        loop.stop()


_SESSION = SummarySession()


def current_session() -> SummarySession:
    """The process's session (the pytest plugin configures and reports it)."""
    return _SESSION


def _threshold_for(evaluator: SummarizationEvaluator, metric: str) -> int:
    return evaluator.rule_book.threshold(metric).good_at_least


def assert_summary(
    source: str,
    summary: str,
    *,
    min_rating: str = "good",
    metrics: Sequence[str] | None = None,
    min_scores: Mapping[str, float] | None = None,
    model: str | None = None,
) -> SummaryResult:
    """Judge `summary` against `source`; raise `AssertionError` with the reasons if it falls short.

    Args:
        source: the text that was summarized.
        summary: the summary under test.
        min_rating: the lowest acceptable rating: "good", "incomplete" or "bad" (any).
        metrics: the metrics to judge (default: all four); the rating uses only these.
        min_scores: per metric, the lowest acceptable score (1-3), besides the rating.
        model: the judge (default: the session's, else the CLI's default choice).

    Returns:
        The result, when every condition holds.

    Raises:
        AssertionError: the rating or a score is below what was asked; the message shows
            each metric's score, its threshold and the judge's explanation.
        ValueError: an unknown `min_rating`, or `min_scores` for a metric not judged.
    """
    # pytest leaves this frame (and those of the helpers it calls) out of a failure's
    # traceback: the user sees their own call and the message, not our source.
    __tracebackhide__ = True
    if min_rating not in _RANK:
        raise ValueError(f"min_rating must be good, incomplete or bad (got {min_rating!r})")
    session = current_session()
    evaluator = session.evaluator(model, metrics)
    unknown = [m for m in (min_scores or {}) if m not in evaluator.enabled_metrics]
    if unknown:
        raise ValueError(f"min_scores names metric(s) not judged: {', '.join(unknown)}")
    result = session.judge(source, summary, model=model, metrics=metrics)
    rating = result.rating.relevancy_rating
    failures: list[str] = []
    if _RANK.get(str(rating), -1) < _RANK[min_rating]:
        failures.append(f"rating {rating!r} is below {min_rating!r}")
    lines: list[str] = []
    for name, m in result.metrics.items():
        wanted = (min_scores or {}).get(name)
        threshold = wanted if wanted is not None else _threshold_for(evaluator, name)
        if m.error is not None:
            failures.append(f"{name} could not be judged: {m.error}")
            lines.append(f"  {name}: failed (needs >= {threshold}): {m.error}")
            continue
        if wanted is not None and (m.score is None or m.score < wanted):
            failures.append(f"{name} scored {m.score} (needs >= {wanted})")
        mark = "ok " if m.score is not None and m.score >= threshold else "LOW"
        lines.append(f"  {mark} {name}: {m.score} (needs >= {threshold}): {m.explanation}")
    session.record(source, summary, result, model=model, passed=not failures, failures=failures)
    judge_name = model or session.model or default_model()
    if failures:
        raise AssertionError(
            f"summary judged {rating} by {judge_name}: "
            + "; ".join(failures)
            + "\n"
            + "\n".join(lines)
        )
    return result
