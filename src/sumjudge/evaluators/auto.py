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
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from typing_extensions import Unpack

from ..cost import CostEstimate
from ..errors import ConfigError, ParseError, ProviderError
from ..metrics import accuracy, adherence, completeness, rubric
from ..metrics._conversation import ConversationContext
from ..metrics.consistency import (
    CONSISTENCY,
    conversation_plan,
    derive_consistency,
    derived_version,
)
from ..plan import MetricPlan
from ..protocol import Judge, JudgeRequest
from ..runner import describe_error
from ..text import split_sentences
from ..types import (
    AutoEvalResult,
    ConversationItem,
    MetricOutcome,
    MetricResult,
    SectionDefinition,
    coerce_conversation,
    coerce_section,
    plan_sections,
)
from .base import Evaluator
from .execute import ItemRun, Stages
from .options import EngineOptions, choose_metrics
from .records import Record
from .rubric_cache import RubricCache

__all__ = ["AUTO_METRICS", "DEFAULT_MODEL", "AutoEvaluator", "AutoRecord"]

DEFAULT_MODEL = "google/gemini-2.5-flash"
AUTO_METRICS = ("accuracy", "adherence", "completeness")
_ALL_METRICS = (*AUTO_METRICS, "consistency")
_PLANNERS: dict[str, Callable[[ConversationContext], MetricPlan[Any]]] = {
    "accuracy": accuracy.plan,
    "adherence": adherence.plan,
    "completeness": completeness.plan,
    "consistency": conversation_plan,
}
"""The metric modules' plans: adding a metric is its module plus one line here."""
_ASKS_RUBRIC: dict[str, Callable[[SectionDefinition], bool]] = {
    "adherence": adherence.asks_rubric,
    "completeness": completeness.asks_rubric,
}
"""The metrics that ask rubric questions, and of which sections' definitions."""

AutoRecord = Record
"""A batch record of the autoevaluator (the one `Record` type of every evaluator)."""

Directives = dict[str, "tuple[str, ...] | str"]


class AutoEvaluator(Evaluator[ConversationItem, AutoEvalResult]):
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
        timeout: the provider adapter's own timeout per request, in seconds.
        cache: the judge-response cache: a `ResponseCache`, a path, True for the default
            location (`$SUMJUDGE_CACHE_DIR` or the user cache dir), or None/False for none.
            Rubric-generation requests go through it too, so a warm re-run makes no calls.
        prices: price/context-window overrides (a `ModelTable`, a mapping or a JSON file).
        price: the judge's price, overriding the table.
        context_window: the judge's context window in tokens, overriding the table; a
            conversation whose requests do not fit fails with the sizes (never truncated).
        long_source: "fail" (default: a transcript beyond the window fails with the sizes)
            or "chunked": accuracy, adherence and consistency are judged on the turns most
            relevant to the summary, completeness on notes of every part of the transcript
            (`evaluators/longsource.py`).
    """

    def __init__(
        self,
        model: str | Judge = DEFAULT_MODEL,
        model_credentials: str | None = None,
        *,
        metrics: Sequence[str] | None = None,
        sections: Sequence[SectionDefinition | dict[str, Any]] | str | Path | None = None,
        explanation_language: str | None = None,
        rubric_cache: RubricCache | str | Path | None = None,
        repair: bool = True,
        max_tokens: int = 4096,
        **engine: Unpack[EngineOptions],
    ) -> None:
        self.metrics = choose_metrics(metrics, _ALL_METRICS, "metrics", AUTO_METRICS)
        self.sections = _load_sections(sections)
        self.language = explanation_language
        self.max_tokens = max_tokens
        self.rubrics = (
            rubric_cache if isinstance(rubric_cache, RubricCache) else RubricCache(rubric_cache)
        )
        # Directives known or guessed during one dry run (one request per definition).
        self._estimated: dict[str, tuple[str, ...]] = {}
        self._guessed: set[str] = set()
        super().__init__(model, model_credentials, repair=repair, **engine)

    @property
    def metric_versions(self) -> dict[str, str]:
        """Version tags of the requested metrics (prompt changes bump them)."""
        if self.capabilities.version:
            return {m: self.capabilities.version for m in self.metrics}
        versions = {
            "accuracy": accuracy.VERSION,
            "adherence": f"{adherence.VERSION}+{rubric.TASK}",
            "completeness": f"{completeness.VERSION}+{rubric.TASK}",
            "consistency": derived_version(accuracy.VERSION)
            if "accuracy" in self.metrics
            else CONSISTENCY.version,
        }
        return {m: versions[m] for m in self.metrics}

    def coerce(self, raw: Any, index: int | str | None) -> ConversationItem:
        """Validate one conversation, naming the item and the field when it is unusable."""
        return coerce_conversation(raw, index)

    def source_text(self, item: ConversationItem) -> str:
        """The transcript's text."""
        return "\n".join(t.text for t in item.turns)

    # -- rubric questions: the stage before the plan ------------------------------------------
    def _rubric_definitions(self, conv: ConversationItem) -> list[SectionDefinition]:
        """The distinct definitions whose rubric questions judging `conv` needs."""
        if self.capabilities.declines(rubric.TASK):
            return []
        asks = [_ASKS_RUBRIC[m] for m in self.metrics if m in _ASKS_RUBRIC]
        out: dict[str, SectionDefinition] = {}
        for p in plan_sections(conv, self.sections):
            d = p.definition
            if d is not None and any(asks_for(d) for asks_for in asks):
                out.setdefault(d.name, d)
        return list(out.values())

    async def prepare(self, item: ConversationItem, run: ItemRun) -> Directives:
        """Rubric directives per definition name, or why they could not be generated."""

        async def one(d: SectionDefinition) -> tuple[str, ...] | str:
            try:
                return await self.rubrics.directives(d, run.ask)
            except ProviderError as exc:
                return describe_error(exc)
            except ParseError as exc:
                return str(exc)

        wanted = self._rubric_definitions(item)
        found = await asyncio.gather(*(one(d) for d in wanted))
        return {d.name: v for d, v in zip(wanted, found, strict=True)}

    def prepare_estimate(self, item: ConversationItem, estimate: CostEstimate) -> Directives:
        """Directives for a dry run: from the rubric cache, the response cache, or a guess.

        A generation request not yet in the rubric cache is counted once per definition
        (free when the response cache holds it). A guess stands in one directive per
        sentence of the definition, roughly what generation returns (the estimate says so).
        """
        out: Directives = {}
        for d in self._rubric_definitions(item):
            key = rubric.cache_key(d)
            if key in self._estimated:
                out[d.name] = self._estimated[key]
                continue
            known = self.rubrics.cached(d)
            if known is None:
                request = rubric.rubric_request(d)
                hit = self.caller.peek(request)
                estimate.add_requests([request], [hit is not None])
                try:
                    known = rubric.read_directives(hit) if hit is not None else None
                except ParseError:
                    known = None
                if known is None:
                    sentences = [s.text for s in split_sentences(d.instruction)]
                    # "A; b; and c" asks for three things, as generation would find.
                    parts = [c.strip().rstrip(".") for t in sentences for c in t.split(";")]
                    known = tuple(p for p in parts if p) or (d.instruction,)
                    self._guessed.add(d.name)
            self._estimated[key] = out[d.name] = known
        return out

    def estimate_cost(self, items: Any) -> CostEstimate:
        """A dry run: requests, tokens and cost; rubric generation counted once per definition."""
        self._estimated.clear()
        self._guessed.clear()
        estimate = super().estimate_cost(items)
        if self._guessed:
            estimate.notes.append(
                "rubric questions not generated yet for "
                + ", ".join(sorted(self._guessed))
                + ": adherence/completeness requests sized with one question per sentence "
                "of the definition"
            )
        return estimate

    # -- the plan and its assembly ------------------------------------------------------------
    def context(
        self,
        item: ConversationItem,
        directives: Directives | None,
        transcript: str | None = None,
    ) -> ConversationContext:
        """What the metric plans of `item` need (`transcript`: shown instead of the turns)."""
        plans = tuple(plan_sections(item, self.sections))
        shown = tuple(
            t for d in self.sections for t in (d.name, d.instruction, *(d.allowed_values or ()))
        )
        return ConversationContext(
            item=item,
            sections=plans,
            shown_definitions=shown,
            language=self.language,
            max_tokens=self.max_tokens,
            capabilities=self.capabilities,
            directives=directives or {},
            transcript=transcript,
        )

    def metric_plans(self, ctx: ConversationContext) -> list[MetricPlan[Any]]:
        """The judged metrics' plans for one context (derived consistency has none)."""
        return [_PLANNERS[m](ctx) for m in self.metrics if not self.is_derived(m)]

    def plan(self, item: ConversationItem, prepared: Any) -> Stages:
        """One plan per requested metric (consistency is derived when accuracy is asked)."""
        return [self.metric_plans(self.context(item, prepared))]

    def is_derived(self, metric: str) -> bool:
        """Whether `metric` is read off another metric's result (consistency from accuracy)."""
        return metric == "consistency" and "accuracy" in self.metrics

    def assemble(self, item: ConversationItem, results: dict[str, Any]) -> AutoEvalResult:
        """The metrics in requested order; consistency derived from accuracy when both."""
        if "consistency" in self.metrics and "accuracy" in self.metrics:
            acc: MetricOutcome = results["accuracy"]
            results["consistency"] = derive_consistency(
                acc.decomposition, version=acc.version, error=acc.error
            )
        return AutoEvalResult(metrics={m: results[m] for m in self.metrics}, id=item.id)

    def unfit(self, item: ConversationItem, reason: str) -> AutoEvalResult:
        """Every metric failed with the context-window reason."""
        versions = self.metric_versions
        failed: dict[str, MetricOutcome | MetricResult] = {
            m: MetricResult(name=m, version=versions[m], error=reason)
            if m == "consistency"
            else MetricOutcome(m, versions[m], error=reason)
            for m in self.metrics
        }
        return AutoEvalResult(metrics=failed, id=item.id)

    async def judge_long(
        self, item: ConversationItem, prepared: Any, window: int, run: ItemRun
    ) -> tuple[AutoEvalResult, dict[str, Any]]:
        """Judge a transcript beyond the window by parts (see `evaluators/longsource.py`)."""
        from .longconversation import judge_conversation_long

        return await judge_conversation_long(self, item, prepared, window, run)

    def long_requests(
        self, item: ConversationItem, prepared: Any, window: int
    ) -> list[JudgeRequest]:
        """The first-try requests `judge_long` would send (for a dry run)."""
        from .longconversation import conversation_long_requests

        return conversation_long_requests(self, item, prepared, window)


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
