"""AutoEvaluator: accuracy, adherence and completeness of sectioned conversation summaries.

Example:
    >>> evaluator = AutoEvaluator(model="openai/gpt-4o-mini",
    ...     sections=[SectionDefinition(name="Resolved", instruction="Was it resolved?",
    ...                                 allowed_values=("Yes", "No"))])
    >>> out = await evaluator.evaluate({"transcript": [...], "summary": {"Resolved": "Yes"}})
    >>> out["adherence"]["score"]   # a percentage, or None with a "reason"
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable, Sequence
from pathlib import Path
from typing import Any

from ..errors import ConfigError, DataError
from ..evaluators._judging import JudgeOptions, judge_score_metric
from ..judges._protocol import Judge
from ..judges._registry import get_judge
from ..metrics.consistency import CONSISTENCY
from ..runner import JudgeCaller, RetryPolicy, run_items
from ..types import MetricResult
from . import accuracy as acc
from . import adherence as adh
from . import completeness as comp
from ._steps import StepContext, run_accuracy, run_adherence, run_completeness
from .consistency import derive_consistency
from .model import ConversationItem, SectionDefinition, coerce_conversation, coerce_section
from .offline import NEEDS_LLM, load_scorer, offline_points
from .prompts import data_block
from .results import AutoEvalResult, AutoRecord, MetricOutcome, SectionOutcome
from .rubrics import TASK as RUBRIC_TASK
from .rubrics import RubricCache
from .sections import SectionPlan, plan_sections
from .transcript import render_sections, render_transcript

__all__ = ["AUTO_METRICS", "DEFAULT_MODEL", "AutoEvaluator"]

DEFAULT_MODEL = "google/gemini-2.5-flash"
AUTO_METRICS = ("accuracy", "adherence", "completeness")
_ALL_METRICS = (*AUTO_METRICS, "consistency")
_LOCAL = ("local", "local-lexical")


class AutoEvaluator:
    """Judges conversation summaries on accuracy, adherence and completeness.

    Args:
        model: "provider/model", "local" (offline: only what can be checked without an
            LLM), or a Judge object (e.g. `ScriptedJudge` in tests).
        model_credentials: the provider's API key; defaults to its environment variable.
        metrics: any of "accuracy", "adherence", "completeness" and "consistency" (the
            foundation's 1-3 metric; derived from the accuracy decomposition when accuracy
            is also requested, so the summary is decomposed once).
        sections: section definitions, or a YAML/JSON file of them.
        base_url: an OpenAI-compatible server to send requests to.
        retry_policy: back-off, attempts and per-call timeout.
        explanation_language: language for justifications; default: the transcript's.
        rubric_cache: a JSON file to persist rubric questions in, or a shared RubricCache.
        repair: re-ask once when a reply cannot be read.
        max_tokens: reply cap per request (decompositions of long summaries are long).
    """

    def __init__(
        self,
        model: str | Judge = DEFAULT_MODEL,
        model_credentials: str | None = None,
        *,
        metrics: Sequence[str] | None = None,
        sections: Sequence[SectionDefinition | dict[str, Any]] | str | Path | None = None,
        base_url: str | None = None,
        retry_policy: RetryPolicy | None = None,
        explanation_language: str | None = None,
        rubric_cache: RubricCache | str | Path | None = None,
        repair: bool = True,
        max_tokens: int = 4096,
        timeout: float = 120.0,
    ) -> None:
        names = list(dict.fromkeys(metrics if metrics is not None else AUTO_METRICS))
        unknown = [m for m in names if m not in _ALL_METRICS]
        if unknown or not names:
            raise ConfigError(
                f"unknown metric(s) {unknown}; choose from {', '.join(_ALL_METRICS)}"
                if unknown
                else "metrics must name at least one metric"
            )
        self.metrics = names
        self.sections = _load_sections(sections)
        self.language = explanation_language
        self.repair = repair
        self.max_tokens = max_tokens
        self.rubrics = (
            rubric_cache if isinstance(rubric_cache, RubricCache) else RubricCache(rubric_cache)
        )
        self.judge: Judge | None = None
        self._offline: Any = None
        if isinstance(model, str) and model in _LOCAL:
            self._offline = load_scorer(model)
            self.judge_name: str = str(self._offline.name)
            self.caller: JudgeCaller | None = None
        else:
            self.judge = get_judge(
                model, api_key=model_credentials, base_url=base_url, timeout=timeout
            )
            self.judge_name = self.judge.name
            self.caller = JudgeCaller(self.judge, retry_policy)

    @property
    def offline(self) -> bool:
        return self._offline is not None

    @property
    def metric_versions(self) -> dict[str, str]:
        """Version tags of the requested metrics (prompt changes bump them)."""
        if self.offline:
            return {m: f"offline-{getattr(self._offline, 'version', '1')}" for m in self.metrics}
        versions = {
            "accuracy": acc.VERSION,
            "adherence": f"{adh.VERSION}+{RUBRIC_TASK}",
            "completeness": f"{comp.VERSION}+{RUBRIC_TASK}",
            "consistency": f"{CONSISTENCY.version}+accuracy-{acc.VERSION}"
            if "accuracy" in self.metrics
            else CONSISTENCY.version,
        }
        return {m: versions[m] for m in self.metrics}

    async def evaluate(self, item: ConversationItem | dict[str, Any]) -> dict[str, Any]:
        """Judge one conversation's summary; returns the JSON-ready dict."""
        return (await self.evaluate_result(item)).to_dict()

    async def evaluate_result(
        self, item: ConversationItem | dict[str, Any], index: int | str | None = None
    ) -> AutoEvalResult:
        """Judge one conversation's summary; returns the typed result.

        Raises `DataError` (naming the field) if the item is unusable.
        """
        conv = coerce_conversation(item, index if index is not None else _id_of(item))
        plans = plan_sections(conv, self.sections)
        if self.offline:
            return AutoEvalResult(metrics=await self._offline_metrics(conv, plans), id=conv.id)
        assert self.caller is not None
        turns = conv.turns
        ctx = StepContext(
            caller=self.caller,
            rubrics=self.rubrics,
            prefix=data_block(turns, {p.name: p.text for p in plans}),
            turns=turns,
            language=self.language,
            repair=self.repair,
            max_tokens=self.max_tokens,
        )
        jobs: dict[str, Any] = {}
        if "accuracy" in self.metrics:
            jobs["accuracy"] = run_accuracy(ctx, plans)
        if "adherence" in self.metrics:
            jobs["adherence"] = run_adherence(ctx, plans)
        if "completeness" in self.metrics:
            jobs["completeness"] = run_completeness(ctx, plans)
        if "consistency" in self.metrics and "accuracy" not in self.metrics:
            options = JudgeOptions(language=self.language, logprobs=False, repair=self.repair)
            jobs["consistency"] = judge_score_metric(
                CONSISTENCY,
                render_transcript(turns),
                render_sections(conv.sections),
                self.caller,
                options,
            )
        done = dict(zip(jobs, await asyncio.gather(*jobs.values()), strict=True))
        return AutoEvalResult(metrics=self._ordered(done), id=conv.id)

    def _ordered(self, done: dict[str, Any]) -> dict[str, MetricOutcome | MetricResult]:
        if "consistency" in self.metrics and "accuracy" in self.metrics:
            accuracy: MetricOutcome = done["accuracy"]
            done["consistency"] = derive_consistency(
                accuracy.decomposition, version=acc.VERSION, error=accuracy.error
            )
        return {m: done[m] for m in self.metrics}

    async def _offline_metrics(
        self, conv: ConversationItem, plans: Sequence[SectionPlan]
    ) -> dict[str, MetricOutcome | MetricResult]:
        turns = conv.turns
        version = self.metric_versions
        out: dict[str, Any] = {}
        points: tuple[Any, ...] = ()
        if "accuracy" in self.metrics or "consistency" in self.metrics:
            categorical = {
                p.name for p in plans if p.definition is not None and p.definition.categorical
            }
            free = {p.name: p.text for p in plans if p.text.strip() and p.name not in categorical}
            points = await asyncio.to_thread(
                offline_points, self._offline, turns, free, language=self.language
            )
            sections = acc.score_points(points, list(free))
            for name in categorical:
                sections[name] = SectionOutcome(
                    name, reason="N/A offline: checking a categorical value needs an LLM judge"
                )
            order = [p.name for p in plans if p.name in sections]
            out["accuracy"] = MetricOutcome(
                "accuracy",
                version.get("accuracy", "offline"),
                sections={n: sections[n] for n in order},
                decomposition=points,
                mode="offline",
            )
        if "adherence" in self.metrics:
            out["adherence"] = await run_adherence(None, plans)
        if "completeness" in self.metrics:
            out["completeness"] = MetricOutcome(
                "completeness",
                version["completeness"],
                sections={p.name: SectionOutcome(p.name, reason=NEEDS_LLM) for p in plans},
                reason=NEEDS_LLM,
                mode="offline",
            )
        if "consistency" in self.metrics:
            if "accuracy" in self.metrics:
                out["consistency"] = derive_consistency(points, version=version["accuracy"])
            else:
                out["consistency"] = await asyncio.to_thread(self._offline_consistency, conv)
        return {m: out[m] for m in self.metrics}

    def _offline_consistency(self, conv: ConversationItem) -> MetricResult:
        source = "\n".join(t.text for t in conv.turns)
        summary = "\n".join(t for t in conv.sections.values() if t.strip())
        verdict = self._offline.score(source, summary, ["consistency"], language=self.language)
        v = verdict["consistency"]
        return MetricResult(
            name="consistency",
            version=self.metric_versions["consistency"],
            score=v.score,
            explanation=v.explanation,
            score_mode="offline",
            evidence=tuple(v.evidence),
            raw=float(v.raw),
        )

    async def evaluate_batch(
        self,
        items: Iterable[ConversationItem | dict[str, Any] | DataError],
        *,
        concurrency: int = 8,
    ) -> AsyncIterator[AutoRecord]:
        """Judge many conversations, yielding one record per item as it finishes.

        Runs through `sumjudge.runner.run_items`. A bad item (or a `DataError` that a
        loader put in its place) becomes a record with `error`; the others still run.
        """
        meta = {"judge": self.judge_name, "metric_versions": self.metric_versions}

        async def work(index: int, item: Any) -> AutoRecord:
            if isinstance(item, DataError):
                return AutoRecord(index=index, error=item)
            try:
                conv = coerce_conversation(item, index)
            except DataError as exc:
                return AutoRecord(index=index, id=_id_of(item), error=exc)
            result = await self.evaluate_result(conv, index)
            return AutoRecord(index=index, id=conv.id, result=result, meta=meta)

        async for _, record in run_items(items, work, concurrency=concurrency):
            yield record

    async def aclose(self) -> None:
        if self.judge is not None:
            await self.judge.aclose()

    async def __aenter__(self) -> AutoEvaluator:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


def _id_of(item: Any) -> str | None:
    raw = item.get("id") if isinstance(item, dict) else getattr(item, "id", None)
    return None if raw is None else str(raw)


def _load_sections(
    sections: Sequence[SectionDefinition | dict[str, Any]] | str | Path | None,
) -> list[SectionDefinition]:
    if sections is None:
        return []
    if isinstance(sections, (str, Path)):
        from ..datasets.conversations import load_sections

        return load_sections(sections)
    out = [coerce_section(s, i) for i, s in enumerate(sections)]
    seen: set[str] = set()
    for d in out:
        key = d.name.casefold()
        if key in seen:
            raise ConfigError(f"section {d.name!r} is defined twice")
        seen.add(key)
    return out
