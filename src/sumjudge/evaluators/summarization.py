"""SummarizationEvaluator: coherence, consistency, relevance and fluency, plus the rule book."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Container, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..cache import ResponseCache
from ..cost import MIN_CACHEABLE_PREFIX, CostEstimate, ModelTable, Price, estimate_tokens
from ..errors import ConfigError, DataError
from ..judges._registry import get_judge
from ..longdoc import check_context
from ..metrics import SUMMARY_METRICS
from ..metrics._base import shared_prefix, system_message
from ..protocol import Judge, JudgeRequest
from ..rules import DEFAULT_RULE_BOOK, RuleBook, rate
from ..runner import JudgeCaller, RetryPolicy, RunSummary, current_ledger
from ..types import MetricResult, SummaryData
from ._batch import error_failure, item_failure, item_id, open_cache, run_batch
from ._judging import JudgeOptions, judge_score_metric
from ._layouts import build_rubrics_first_request, build_single_request, judge_single_call
from ._records import BatchRecord, SummaryResult

__all__ = ["DEFAULT_MODEL", "BatchRecord", "SummarizationEvaluator", "SummaryResult"]

DEFAULT_MODEL = "google/gemini-2.5-flash"
LOCAL_MODELS = ("local", "local-lexical")


def coerce_item(item: SummaryData | Mapping[str, Any], index: int | str | None) -> SummaryData:
    """Validate one input item, naming the item and the field when it is unusable."""
    if isinstance(item, SummaryData):
        return item
    if not isinstance(item, Mapping):
        raise DataError(f"expected SummaryData or a mapping, got {type(item).__name__}", item=index)
    try:
        return SummaryData.model_validate(dict(item))
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"]) or None
        msg = "is missing" if first["type"] == "missing" else first["msg"]
        raise DataError(msg, item=index, field=loc) from None


class SummarizationEvaluator:
    """Judges a summary against its source on coherence, consistency, relevance and fluency.

    Example:
        >>> evaluator = SummarizationEvaluator(model="openai/gpt-4o-mini",
        ...     model_credentials=os.getenv("OPENAI_API_KEY"), enabled_metrics=["coherence"])
        >>> result = await evaluator.evaluate(SummaryData(input=transcript, summary=summary))
        >>> result["summary"]["relevancy_rating"]

    Args:
        model: "provider/model" ("google/gemini-2.5-flash", "openai/gpt-4o-mini",
            "anthropic/claude-..."), "local" for the offline judge, or a Judge object.
        model_credentials: the provider's API key; defaults to its environment variable.
        enabled_metrics: a subset of the four metrics; the rule book then uses only those.
        base_url: an OpenAI-compatible (or Gemini-compatible) server to send requests to.
        explanation_language: language code or name for explanations; default: the
            language of the source.
        rule_book: thresholds per metric; default: the specification's.
        logprobs: ask for token logprobs and report `weighted_score` where available.
        repair: re-ask once when a verdict cannot be parsed.
        retry_policy: back-off, attempts and per-call timeout.
        cache: the judge-response cache: a `ResponseCache`, a path, True for the default
            location (`$SUMJUDGE_CACHE_DIR` or the user cache dir), or None/False for none.
        prices: price/context-window overrides (a `ModelTable`, a mapping or a JSON file).
        price: the judge's price, overriding the table.
        context_window: the judge's context window in tokens, overriding the table.
        warm_prefix_tokens: for items whose shared prompt prefix is at least this long
            (estimated), send the first metric's request alone and the others once it has
            answered, so the provider's prompt cache holds the prefix for them. None: never.
        single_call: judge all enabled metrics in one request per item (cheaper; the
            judge rates all qualities in one pass, no logprob weighting). Default: one
            request per metric.
        prompt_layout: "source_first" (default: the metric's own prompt, source then
            metric instructions) or "rubrics_first" (every metric's instructions in a
            run-wide system message, cached across items; see `_layouts.py`).
        long_source: what to do with a source that does not fit the judge's context
            window: "fail" (default: the item fails, stating the window and the size) or
            "chunked" (excerpts per claim for consistency, coherence and fluency; chunk
            notes for relevance; see `longdoc.py`). Never truncated silently.
    """

    def __init__(
        self,
        model: str | Judge = DEFAULT_MODEL,
        model_credentials: str | None = None,
        *,
        enabled_metrics: Sequence[str] | None = None,
        base_url: str | None = None,
        explanation_language: str | None = None,
        rule_book: RuleBook | Mapping[str, Any] | None = None,
        logprobs: bool = True,
        repair: bool = True,
        retry_policy: RetryPolicy | None = None,
        max_tokens: int = 1024,
        timeout: float = 120.0,
        cache: ResponseCache | str | Path | bool | None = None,
        prices: ModelTable | Mapping[str, Any] | str | Path | None = None,
        price: Price | None = None,
        context_window: int | None = None,
        warm_prefix_tokens: int | None = MIN_CACHEABLE_PREFIX,
        single_call: bool = False,
        prompt_layout: str = "source_first",
        long_source: str = "fail",
    ) -> None:
        names = list(enabled_metrics) if enabled_metrics is not None else list(SUMMARY_METRICS)
        unknown = [m for m in names if m not in SUMMARY_METRICS]
        if unknown or not names:
            raise ConfigError(
                f"unknown metric(s) {unknown}; choose from {', '.join(SUMMARY_METRICS)}"
                if unknown
                else "enabled_metrics must name at least one metric"
            )
        self.enabled_metrics = list(dict.fromkeys(names))
        if isinstance(rule_book, Mapping):
            rule_book = RuleBook.from_dict(rule_book)
        self.rule_book = rule_book or DEFAULT_RULE_BOOK
        for m in self.enabled_metrics:
            self.rule_book.threshold(m)  # fail now, not after paying for judgments
        self.options = JudgeOptions(
            language=explanation_language, logprobs=logprobs, repair=repair, max_tokens=max_tokens
        )
        self._offline: Any = None
        self.judge: Judge | None = None
        if isinstance(model, str) and model in LOCAL_MODELS:
            from ..offline import OfflineScorer

            self._offline = OfflineScorer(
                use_embeddings=False if model == "local-lexical" else None
            )
            self.judge_name: str = self._offline.name
        else:
            self.judge = get_judge(
                model, api_key=model_credentials, base_url=base_url, timeout=timeout
            )
            self.judge_name = self.judge.name
        self.models = prices if isinstance(prices, ModelTable) else ModelTable(prices)
        self.price = price or self.models.price(self.judge_name)
        self.context_window = context_window or self.models.context_window(self.judge_name)
        self.warm_prefix_tokens = warm_prefix_tokens
        self.single_call = single_call
        if prompt_layout not in ("source_first", "rubrics_first"):
            raise ConfigError(
                f"prompt_layout {prompt_layout!r}: choose source_first or rubrics_first"
            )
        self.prompt_layout = prompt_layout
        if long_source not in ("fail", "chunked"):
            raise ConfigError(f"long_source {long_source!r}: choose fail or chunked")
        self.long_source = long_source
        self.cache: ResponseCache | None
        self.cache, self._owns_cache = open_cache(cache)
        self.caller = (
            JudgeCaller(self.judge, retry_policy, cache=self.cache, price=self.price)
            if self.judge is not None
            else None
        )
        self.last_summary: RunSummary | None = None

    @property
    def metric_versions(self) -> dict[str, str]:
        if self._offline is not None:
            version = str(getattr(self._offline, "version", "1"))
            return {m: f"offline-{version}" for m in self.enabled_metrics}
        return {m: SUMMARY_METRICS[m].version for m in self.enabled_metrics}

    async def evaluate(self, data: SummaryData | Mapping[str, Any]) -> dict[str, Any]:
        """Judge one summary and return the specification's JSON as a dict."""
        item = coerce_item(data, getattr(data, "id", None))
        if self._offline is None:
            # The same context-window check as in batches: never send a source that does
            # not fit, never truncate it silently.
            fit = check_context(self.plan_requests(item), self.context_window, item.input)
            if not fit.fits and self.long_source == "chunked" and fit.window:
                result, _ = await self._evaluate_long(item, fit.window)
                return result.to_dict()
            if not fit.fits:
                reason = fit.message(self.judge_name)
                failed = {
                    m: MetricResult(name=m, version=SUMMARY_METRICS[m].version, error=reason)
                    for m in self.enabled_metrics
                }
                rating = rate(
                    {m: None for m in failed},
                    self.enabled_metrics,
                    self.rule_book,
                    failures={m: reason for m in failed},
                )
                return SummaryResult(metrics=failed, rating=rating).to_dict()
        return (await self.evaluate_result(item)).to_dict()

    async def evaluate_result(self, data: SummaryData | Mapping[str, Any]) -> SummaryResult:
        """Judge one summary and return the typed result."""
        item = coerce_item(data, getattr(data, "id", None))
        if self._offline is not None:
            metrics = await asyncio.to_thread(self._offline_metrics, item)
        else:
            assert self.caller is not None
            caller = self.caller

            def judge(m: str) -> Any:
                return judge_score_metric(
                    SUMMARY_METRICS[m],
                    item.input,
                    item.summary,
                    caller,
                    self.options,
                    request=self._layout_request(m, item),
                )

            names = self.enabled_metrics
            if self.single_call:
                metrics = await judge_single_call(
                    [SUMMARY_METRICS[m] for m in names],
                    item.input,
                    item.summary,
                    caller,
                    self.options,
                )
            elif len(names) > 1 and self._warm_prefix(item):
                # Prompt caching needs the prefix to have been processed once: ask one
                # metric first, then the rest share its cached prefix.
                first = await judge(names[0])
                results = [first, *await asyncio.gather(*(judge(m) for m in names[1:]))]
                metrics = {r.name: r for r in results}
            else:
                results = list(await asyncio.gather(*(judge(m) for m in names)))
                metrics = {r.name: r for r in results}
        rating = rate(
            {m: r.score for m, r in metrics.items()},
            self.enabled_metrics,
            self.rule_book,
            failures={m: r.error or "" for m, r in metrics.items() if r.error},
        )
        return SummaryResult(metrics=metrics, rating=rating)

    def _forget_failed(self, item: SummaryData, result: SummaryResult) -> None:
        """Drop cached replies that led to a failed metric, so a re-run asks again.

        (A reply that arrived is cached at once, for crash safety; one that turned out
        unusable should not make the failure permanent.)
        """
        if self.cache is None or self.caller is None:
            return
        failed = {m for m, r in result.metrics.items() if r.error}
        if not failed:
            return
        identity = self.caller.identity
        for request in self.plan_requests(item):
            name = request.task.split("@", 1)[0]
            if self.single_call or name in failed:
                self.cache.delete(self.cache.key(identity, request))

    def _record(
        self, index: int, data: SummaryData, result: SummaryResult, meta: dict[str, Any]
    ) -> BatchRecord:
        ledger = current_ledger()
        if ledger is not None and self.caller is not None:
            meta["run"] = ledger.to_dict()
            meta["_failures"] = [
                {"metric": f["task"].split("@", 1)[0], "attempts": f["attempts"]}
                for f in ledger.failures
            ]
        return BatchRecord(index=index, id=data.id, result=result, meta=meta)

    async def _evaluate_long(
        self, item: SummaryData, window: int
    ) -> tuple[SummaryResult, dict[str, Any]]:
        from ._longsource import evaluate_long

        return await evaluate_long(self, item, window)

    def _warm_prefix(self, item: SummaryData) -> bool:
        if self.warm_prefix_tokens is None:
            return False
        if len(item.input) + len(item.summary) < self.warm_prefix_tokens * 3:
            return False  # clearly short: skip building the prefix
        prefix = system_message(self.options.language) + shared_prefix(item.input, item.summary)
        return estimate_tokens(prefix) >= self.warm_prefix_tokens

    def _layout_request(self, name: str, item: SummaryData) -> JudgeRequest | None:
        if self.prompt_layout != "rubrics_first":
            return None
        chosen = [SUMMARY_METRICS[m] for m in self.enabled_metrics]
        return build_rubrics_first_request(
            SUMMARY_METRICS[name], chosen, item.input, item.summary, self.options
        )

    def plan_requests(self, item: SummaryData) -> list[JudgeRequest]:
        """The first-try requests judging `item` sends, in order (one per enabled metric)."""
        o = self.options
        if self.single_call:
            chosen = [SUMMARY_METRICS[m] for m in self.enabled_metrics]
            return [build_single_request(chosen, item.input, item.summary, o)]
        return [
            self._layout_request(m, item)
            or SUMMARY_METRICS[m].build_request(
                item.input,
                item.summary,
                language=o.language,
                logprobs=o.logprobs,
                max_tokens=o.max_tokens,
            )
            for m in self.enabled_metrics
        ]

    def estimate_cost(
        self, items: Iterable[SummaryData | Mapping[str, Any] | DataError]
    ) -> CostEstimate:
        """A dry run: the requests, tokens and cost a batch would need; no judge is called.

        Requests already in the response cache are counted as free.
        """
        estimate = CostEstimate(price=self.price)
        for index, raw in enumerate(items):
            if isinstance(raw, DataError):
                estimate.invalid_items += 1
                continue
            try:
                item = coerce_item(raw, index)
            except DataError:
                estimate.invalid_items += 1
                continue
            if self._offline is not None:
                estimate.items += 1
                continue
            requests = self.plan_requests(item)
            hits = [False] * len(requests)
            if self.cache is not None and self.caller is not None:
                identity = self.caller.identity
                hits = [self.cache.key(identity, r) in self.cache for r in requests]
            estimate.add_item(requests, hits)
        return estimate

    def _offline_metrics(self, item: SummaryData) -> dict[str, MetricResult]:
        verdicts = self._offline.score(
            item.input, item.summary, self.enabled_metrics, language=self.options.language
        )
        version = self.metric_versions
        return {
            m: MetricResult(
                name=m,
                version=version[m],
                score=v.score,
                explanation=v.explanation,
                score_mode="offline",
                evidence=tuple(v.evidence),
                raw=float(v.raw),
            )
            for m, v in verdicts.items()
        }

    async def evaluate_batch(
        self,
        items: Iterable[SummaryData | Mapping[str, Any] | DataError],
        *,
        concurrency: int = 8,
        requests_per_minute: float | None = None,
        tokens_per_minute: float | None = None,
        max_cost: float | None = None,
        skip: Container[int] | None = None,
        summary: RunSummary | None = None,
    ) -> AsyncIterator[BatchRecord]:
        """Judge many summaries, yielding one record per item as it finishes.

        Every item ends as exactly one record (`BatchRecord.status`): judged, failed with
        its reason and attempts, invalid input, or not run. A bad item (or a `DataError`
        placed in `items` by a loader) becomes a record with `error`; the others are
        judged as usual. Records carry the input's 0-based `index`.

        Args:
            items: the inputs, pulled lazily (so a file of any size streams through).
            concurrency: items judged at once (each sends one request per metric).
            requests_per_minute: client-side cap on judge requests (None: no cap).
            tokens_per_minute: client-side cap on prompt + completion tokens.
            max_cost: stop starting new items once this many USD were spent in this run;
                the rest are yielded with status "not_run".
            skip: input indices not to judge at all (already done: resume). They are not
                yielded; `summary.skipped` counts them.
            summary: a `RunSummary` to fill in (also kept as `self.last_summary`).
        """
        run = summary if summary is not None else RunSummary()
        self.last_summary = run
        meta_base: dict[str, Any] = {
            "judge": self.judge_name,
            "metric_versions": self.metric_versions,
        }
        if self.single_call or self.prompt_layout != "source_first":
            meta_base["prompt_layout"] = "single_call" if self.single_call else self.prompt_layout

        def not_run(index: int, item: Any, reason: str) -> BatchRecord:
            return BatchRecord(
                index=index,
                id=item_id(item),
                failure=item_failure("not_run", reason),
            )

        async def work(index: int, item: Any) -> BatchRecord:
            if isinstance(item, DataError):
                return BatchRecord(index=index, id=None, error=item)
            try:
                data = coerce_item(item, index)
            except DataError as exc:
                return BatchRecord(index=index, error=exc)
            meta: dict[str, Any] = dict(meta_base)
            try:
                if self._offline is None:
                    fit = check_context(self.plan_requests(data), self.context_window, data.input)
                    if not fit.fits and self.long_source == "chunked" and fit.window:
                        result, context = await self._evaluate_long(data, fit.window)
                        meta["context"] = context
                        return self._record(index, data, result, meta)
                    if not fit.fits:
                        reason = fit.message(self.judge_name)
                        return BatchRecord(
                            index=index,
                            id=data.id,
                            meta={**meta, "context": fit.to_dict()},
                            failure=item_failure("context", reason),
                        )
                result = await self.evaluate_result(data)
                self._forget_failed(data, result)
            except Exception as exc:  # an item must end as a record, whatever happened
                return BatchRecord(
                    index=index,
                    id=data.id,
                    meta=meta,
                    failure=error_failure(exc),
                )
            return self._record(index, data, result, meta)

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

    async def evaluate_dataframe(
        self,
        df: Any,
        *,
        input_column: str = "input",
        summary_column: str = "summary",
        id_column: str = "id",
        **batch: Any,
    ) -> Any:
        """Judge a pandas DataFrame; returns a copy with result columns added.

        Added columns: status, relevancy_rating, score, binary_score, avg_score,
        `<metric>_score` and `<metric>_explanation` per enabled metric, error, cost_usd.
        Rows keep the input's index and order. `batch` goes to `evaluate_batch`.
        """
        from ..datasets.files import record_to_item

        columns = list(df.columns)

        def rows() -> Iterator[SummaryData | DataError]:
            for i, values in enumerate(df.itertuples(index=False, name=None)):
                yield record_to_item(
                    dict(zip(columns, values, strict=True)),
                    i,
                    input_column,
                    summary_column,
                    id_column,
                )

        flat: dict[int, dict[str, Any]] = {}
        async for record in self.evaluate_batch(rows(), **batch):
            flat[record.index] = record.to_flat_dict()
        out = df.copy()
        names: list[str] = []
        for row in flat.values():
            names.extend(k for k in row if k not in names)
        for name in names:
            out[name] = [flat.get(i, {}).get(name) for i in range(len(df))]
        return out

    async def aclose(self) -> None:
        if self.judge is not None:
            await self.judge.aclose()
        if self.cache is not None and self._owns_cache:
            self.cache.close()

    async def __aenter__(self) -> SummarizationEvaluator:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
