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
import re
from collections.abc import AsyncIterator, Callable, Container, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..cache import ResponseCache
from ..cost import CostEstimate, ModelTable, Price
from ..errors import ConfigError, DataError, ParseError
from ..evaluators._batch import error_failure, item_failure, item_id, open_cache, run_batch
from ..evaluators._judging import JudgeOptions, judge_score_metric
from ..judges._registry import get_judge
from ..longdoc import check_context
from ..metrics.consistency import CONSISTENCY
from ..protocol import Judge, JudgeRequest
from ..runner import JudgeCaller, RetryPolicy, RunSummary, current_ledger
from ..types import MetricResult
from . import accuracy as acc
from . import adherence as adh
from . import completeness as comp
from ._questions import Question
from ._steps import StepContext, run_accuracy, run_adherence, run_completeness
from .consistency import derive_consistency
from .model import ConversationItem, SectionDefinition, coerce_conversation, coerce_section
from .offline import NEEDS_LLM, load_scorer, offline_points
from .prompts import data_block
from .results import AutoEvalResult, AutoRecord, MetricOutcome, SectionOutcome
from .rubrics import CATEGORICAL_QUESTION, RubricCache, read_directives, rubric_request
from .rubrics import TASK as RUBRIC_TASK
from .rubrics import cache_key as rubric_key
from .rubrics import questions as rubric_questions
from .sections import SectionPlan, plan_sections
from .transcript import render_sections, render_transcript

__all__ = ["AUTO_METRICS", "DEFAULT_MODEL", "AutoEvaluator"]

DEFAULT_MODEL = "google/gemini-2.5-flash"
AUTO_METRICS = ("accuracy", "adherence", "completeness")
_ALL_METRICS = (*AUTO_METRICS, "consistency")
_LOCAL = ("local", "local-lexical")
_SENTENCE = re.compile(r"(?<=[.!?;])\s+")


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
        timeout: the provider adapter's own timeout per request, in seconds.
        cache: the judge-response cache: a `ResponseCache`, a path, True for the default
            location (`$SUMJUDGE_CACHE_DIR` or the user cache dir), or None/False for none.
            Rubric-generation requests go through it too, so a warm re-run makes no calls.
        prices: price/context-window overrides (a `ModelTable`, a mapping or a JSON file).
        price: the judge's price, overriding the table.
        context_window: the judge's context window in tokens, overriding the table; a
            conversation whose requests do not fit fails with the sizes (never truncated).
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
        cache: ResponseCache | str | Path | bool | None = None,
        prices: ModelTable | Mapping[str, Any] | str | Path | None = None,
        price: Price | None = None,
        context_window: int | None = None,
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
        self.models = prices if isinstance(prices, ModelTable) else ModelTable(prices)
        self.price = price or self.models.price(self.judge_name)
        self.context_window = context_window or self.models.context_window(self.judge_name)
        self.cache: ResponseCache | None
        self.cache, self._owns_cache = open_cache(cache)
        if self.judge is not None:
            self.caller = JudgeCaller(self.judge, retry_policy, cache=self.cache, price=self.price)
        self.last_summary: RunSummary | None = None

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
            prefix=self._prefix(conv, plans),
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

    def _prefix(self, conv: ConversationItem, plans: Sequence[SectionPlan]) -> str:
        return data_block(conv.turns, {p.name: p.text for p in plans})

    def _context_check(self, conv: ConversationItem) -> dict[str, Any] | None:
        """The item-level failure when the conversation does not fit the judge's window."""
        if self.offline or self.context_window is None:
            return None
        plans = plan_sections(conv, self.sections)
        names = [p.name for p in plans] or ["summary"]
        # The decomposition request: the shared prefix (transcript + summary) with the
        # longest reply allowance; the other metrics' requests are the same prefix plus
        # their questions.
        probe = acc.accuracy_request(
            self._prefix(conv, plans), names, language=self.language, max_tokens=self.max_tokens
        )
        fit = check_context([probe], self.context_window, render_transcript(conv.turns))
        if fit.fits:
            return None
        return {**item_failure("context", fit.message(self.judge_name)), "context": fit.to_dict()}

    def _directives_for_estimate(
        self, definition: SectionDefinition
    ) -> tuple[tuple[str, ...], str]:
        """(directives, where from): "rubrics" (the rubric cache: no request), "responses"
        (the response cache: a free request), or "guess": a stand-in, one directive per
        sentence of the definition, roughly what generation returns (estimate only).
        """
        known = self.rubrics.cached(definition)
        if known is not None:
            return known, "rubrics"
        if self.cache is not None and self.caller is not None:
            hit = self.cache.get(self.cache.key(self.caller.identity, rubric_request(definition)))
            if hit is not None:
                try:
                    return read_directives(hit), "responses"
                except ParseError:
                    pass
        parts = [s.strip().rstrip(".") for s in _SENTENCE.split(definition.instruction)]
        return tuple(p for p in parts if p) or (definition.instruction,), "guess"

    def plan_requests(
        self,
        conv: ConversationItem,
        directives: Callable[[SectionDefinition], tuple[str, ...]],
    ) -> list[JudgeRequest]:
        """The first-try requests judging `conv` sends (rubric generation not included).

        `directives` gives each definition's rubric directives (generation happens once
        per definition for the whole run, so it is planned separately).
        """
        plans = plan_sections(conv, self.sections)
        prefix = self._prefix(conv, plans)
        language, max_tokens = self.language, self.max_tokens
        out: list[JudgeRequest] = []
        if "accuracy" in self.metrics:
            names = [p.name for p in plans if p.text.strip()]
            if names:
                out.append(
                    acc.accuracy_request(prefix, names, language=language, max_tokens=max_tokens)
                )
        if "adherence" in self.metrics:
            asked: list[Question] = []
            defs: list[SectionDefinition] = []
            for p in plans:
                d = p.definition
                if d is None or d.kind == "prebuilt":
                    continue
                if d.categorical:
                    if not adh.categorical_check(d, p.text)["passed"]:
                        continue  # decided deterministically, no question sent
                    texts = [CATEGORICAL_QUESTION]
                else:
                    texts = rubric_questions(directives(d), "adherence")
                defs.append(d)
                asked += [
                    Question(f"Q{len(asked) + i + 1}", p.name, t) for i, t in enumerate(texts)
                ]
            if asked:
                out.append(
                    adh.adherence_request(
                        prefix, defs, asked, language=language, max_tokens=max_tokens
                    )
                )
        if "completeness" in self.metrics:
            asked = []
            defs = []
            for p in plans:
                d = p.definition
                if d is None or d.categorical:
                    continue
                texts = rubric_questions(directives(d), "completeness")
                defs.append(d)
                asked += [
                    Question(f"Q{len(asked) + i + 1}", p.name, t) for i, t in enumerate(texts)
                ]
            if asked:
                out.append(
                    comp.completeness_request(
                        prefix, defs, asked, language=language, max_tokens=max_tokens
                    )
                )
        if "consistency" in self.metrics and "accuracy" not in self.metrics:
            out.append(
                CONSISTENCY.build_request(
                    render_transcript(conv.turns),
                    render_sections(conv.sections),
                    language=language,
                    logprobs=False,
                    max_tokens=JudgeOptions().max_tokens,
                )
            )
        return out

    def _rubric_definitions(self, conv: ConversationItem) -> list[SectionDefinition]:
        """The definitions whose rubric questions judging `conv` needs."""
        out: list[SectionDefinition] = []
        for p in plan_sections(conv, self.sections):
            d = p.definition
            if d is None or d.categorical:
                continue
            if "completeness" in self.metrics or (
                "adherence" in self.metrics and d.kind != "prebuilt"
            ):
                out.append(d)
        return out

    def estimate_cost(
        self, items: Iterable[ConversationItem | dict[str, Any] | DataError]
    ) -> CostEstimate:
        """A dry run: the requests, tokens and cost a batch would need; no judge is called.

        Requests already in the response cache are counted as free. Rubric generation is
        counted once per distinct definition not yet cached. Where a definition's rubric
        questions are not known yet, the adherence and completeness requests are sized
        with one question per sentence of the definition (the estimate says so).
        """
        estimate = CostEstimate(price=self.price)
        known: dict[str, tuple[str, ...]] = {}
        guessed: set[str] = set()

        def directives(d: SectionDefinition) -> tuple[str, ...]:
            return known[rubric_key(d)]

        for index, raw in enumerate(items):
            if isinstance(raw, DataError):
                estimate.invalid_items += 1
                continue
            try:
                conv = coerce_conversation(raw, index)
            except DataError:
                estimate.invalid_items += 1
                continue
            if self.offline or self.caller is None:
                estimate.items += 1
                continue
            identity = self.caller.identity
            for d in self._rubric_definitions(conv):
                key = rubric_key(d)
                if key in known:
                    continue
                known[key], source = self._directives_for_estimate(d)
                if source == "guess":
                    guessed.add(d.name)
                if source != "rubrics":
                    estimate.add_requests([rubric_request(d)], [source == "responses"])
            requests = self.plan_requests(conv, directives)
            hits = [False] * len(requests)
            if self.cache is not None:
                hits = [self.cache.key(identity, r) in self.cache for r in requests]
            estimate.add_item(requests, hits)
        if guessed:
            estimate.notes.append(
                "rubric questions not generated yet for "
                + ", ".join(sorted(guessed))
                + ": adherence/completeness requests sized with one question per sentence "
                "of the definition"
            )
        return estimate

    def _record(
        self, index: int, conv: ConversationItem, result: AutoEvalResult, meta: dict[str, Any]
    ) -> AutoRecord:
        ledger = current_ledger()
        if ledger is not None and self.caller is not None:
            meta["run"] = ledger.to_dict()
            meta["_failures"] = [
                {"metric": f["task"].split("@", 1)[0], "attempts": f["attempts"]}
                for f in ledger.failures
            ]
        return AutoRecord(index=index, id=conv.id, result=result, meta=meta)

    async def evaluate_batch(
        self,
        items: Iterable[ConversationItem | dict[str, Any] | DataError],
        *,
        concurrency: int = 8,
        requests_per_minute: float | None = None,
        tokens_per_minute: float | None = None,
        max_cost: float | None = None,
        skip: Container[int] | None = None,
        summary: RunSummary | None = None,
    ) -> AsyncIterator[AutoRecord]:
        """Judge many conversations, yielding one record per item as it finishes.

        Same engine and semantics as `SummarizationEvaluator.evaluate_batch`: every item
        ends as exactly one record (`AutoRecord.status`): judged ("ok", or "failed" with
        each failed metric's reason and attempts), invalid input (a bad item, or a
        `DataError` a loader put in its place, becomes a record with `error`), or
        "not_run" (after `max_cost`). Records carry the input's 0-based `index`.

        Args:
            items: the inputs, pulled lazily.
            concurrency: conversations judged at once.
            requests_per_minute: client-side cap on judge requests (None: no cap).
            tokens_per_minute: client-side cap on prompt + completion tokens.
            max_cost: stop starting new conversations once this many USD were spent in this
                run; the rest are yielded with status "not_run". Needs a price.
            skip: input indices not to judge at all (already done: resume). They are not
                yielded; `summary.skipped` counts them.
            summary: a `RunSummary` to fill in (also kept as `self.last_summary`).
        """
        run = summary if summary is not None else RunSummary()
        self.last_summary = run
        meta_base = {"judge": self.judge_name, "metric_versions": self.metric_versions}

        def not_run(index: int, item: Any, reason: str) -> AutoRecord:
            return AutoRecord(
                index=index,
                id=item_id(item),
                failure=item_failure("not_run", reason),
            )

        async def work(index: int, item: Any) -> AutoRecord:
            if isinstance(item, DataError):
                return AutoRecord(index=index, error=item)
            try:
                conv = coerce_conversation(item, index)
            except DataError as exc:
                return AutoRecord(index=index, id=_id_of(item), error=exc)
            meta: dict[str, Any] = dict(meta_base)
            try:
                failure = self._context_check(conv)
                if failure is not None:
                    meta["context"] = failure.pop("context")
                    return AutoRecord(index=index, id=conv.id, meta=meta, failure=failure)
                result = await self.evaluate_result(conv, index)
            except Exception as exc:  # an item must end as a record, whatever happened
                return AutoRecord(
                    index=index,
                    id=conv.id,
                    meta=meta,
                    failure=error_failure(exc),
                )
            return self._record(index, conv, result, meta)

        async for record in run_batch(
            items,
            work,
            not_run,
            caller=self.caller,
            price=self.price,
            judge_name=self.judge_name,
            run=run,
            concurrency=concurrency,
            requests_per_minute=requests_per_minute,
            tokens_per_minute=tokens_per_minute,
            max_cost=max_cost,
            skip=skip,
        ):
            yield record

    async def aclose(self) -> None:
        if self.judge is not None:
            await self.judge.aclose()
        if self.cache is not None and self._owns_cache:
            self.cache.close()

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
