"""SummarizationEvaluator: coherence, consistency, relevance and fluency, plus the rule book."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from ..errors import ConfigError, DataError
from ..judges._protocol import Judge, Usage
from ..judges._registry import get_judge
from ..metrics import SUMMARY_METRICS
from ..rules import DEFAULT_RULE_BOOK, Rating, RuleBook, rate
from ..runner import JudgeCaller, RetryPolicy, run_items
from ..types import MetricResult, SummaryData
from ._judging import JudgeOptions, judge_score_metric

__all__ = ["DEFAULT_MODEL", "BatchRecord", "SummarizationEvaluator", "SummaryResult"]

DEFAULT_MODEL = "google/gemini-2.5-flash"
LOCAL_MODELS = ("local", "local-lexical")


@dataclass(frozen=True)
class SummaryResult:
    """All enabled metrics' results for one summary, and the rating from the rule book."""

    metrics: dict[str, MetricResult]
    rating: Rating

    @property
    def usage(self) -> Usage:
        total = Usage()
        for m in self.metrics.values():
            total = total + m.usage
        return total

    def to_dict(self) -> dict[str, Any]:
        """The specification's JSON: {"summary": {...}}."""
        r = self.rating
        body: dict[str, Any] = {
            "global_explanation": r.global_explanation,
            "relevancy_rating": r.relevancy_rating,
            "score": r.score,
            "possible_issues": list(r.possible_issues),
            "binary_score": r.binary_score,
            "avg_score": r.avg_score,
        }
        for name, result in self.metrics.items():
            body[name] = result.to_dict()
        return {"summary": body}


@dataclass(frozen=True)
class BatchRecord:
    """One input row's outcome in a batch: a result or an error, never both."""

    index: int
    id: str | None = None
    result: SummaryResult | None = None
    error: DataError | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"index": self.index}
        if self.id is not None:
            out["id"] = self.id
        if self.result is not None:
            out.update(self.result.to_dict())
            out["meta"] = {**self.meta, "usage": self.result.usage.to_dict()}
        if self.error is not None:
            out["error"] = {
                "field": self.error.field,
                "message": self.error.reason,
                "text": str(self.error),
            }
        return out


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
        concurrency: metric calls in flight at once per item.
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
        self.caller = JudgeCaller(self.judge, retry_policy) if self.judge is not None else None

    @property
    def metric_versions(self) -> dict[str, str]:
        if self._offline is not None:
            version = str(getattr(self._offline, "version", "1"))
            return {m: f"offline-{version}" for m in self.enabled_metrics}
        return {m: SUMMARY_METRICS[m].version for m in self.enabled_metrics}

    async def evaluate(self, data: SummaryData | Mapping[str, Any]) -> dict[str, Any]:
        """Judge one summary and return the specification's JSON as a dict."""
        return (await self.evaluate_result(data)).to_dict()

    async def evaluate_result(self, data: SummaryData | Mapping[str, Any]) -> SummaryResult:
        """Judge one summary and return the typed result."""
        item = coerce_item(data, getattr(data, "id", None))
        if self._offline is not None:
            metrics = await asyncio.to_thread(self._offline_metrics, item)
        else:
            assert self.caller is not None
            caller = self.caller
            results = await asyncio.gather(
                *(
                    judge_score_metric(
                        SUMMARY_METRICS[m], item.input, item.summary, caller, self.options
                    )
                    for m in self.enabled_metrics
                )
            )
            metrics = {r.name: r for r in results}
        rating = rate(
            {m: r.score for m, r in metrics.items()},
            self.enabled_metrics,
            self.rule_book,
            failures={m: r.error or "" for m, r in metrics.items() if r.error},
        )
        return SummaryResult(metrics=metrics, rating=rating)

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
    ) -> AsyncIterator[BatchRecord]:
        """Judge many summaries, yielding one record per item as it finishes.

        A bad item (or a `DataError` placed in `items` by a loader) becomes a record with
        `error`; the other items are judged as usual.
        """
        meta = {"judge": self.judge_name, "metric_versions": self.metric_versions}

        async def work(index: int, item: Any) -> BatchRecord:
            if isinstance(item, DataError):
                return BatchRecord(index=index, id=None, error=item)
            try:
                data = coerce_item(item, index)
            except DataError as exc:
                return BatchRecord(index=index, error=exc)
            result = await self.evaluate_result(data)
            return BatchRecord(index=index, id=data.id, result=result, meta=meta)

        async for _, record in run_items(items, work, concurrency=concurrency):
            yield record

    async def aclose(self) -> None:
        if self.judge is not None:
            await self.judge.aclose()

    async def __aenter__(self) -> SummarizationEvaluator:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
