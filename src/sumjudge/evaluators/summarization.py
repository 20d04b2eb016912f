"""SummarizationEvaluator: coherence, consistency, relevance and fluency, plus the rule book."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from typing_extensions import Unpack

from ..cost import MIN_CACHEABLE_PREFIX
from ..errors import ConfigError, DataError
from ..metrics import SUMMARY_METRICS
from ..metrics._base import JudgeOptions, ScoreMetric, score_plan, shared_prefix, system_message
from ..metrics.layouts import build_rubrics_first_request, single_call_plan
from ..metrics.sampling import sampled_plan
from ..plan import MetricPlan
from ..protocol import Judge, JudgeRequest
from ..rules import DEFAULT_RULE_BOOK, Rating, RuleBook, rate, rating_confidence
from ..tokens import estimate_tokens
from ..types import MetricResult, SummaryData, SummaryResult, coerce_item
from .base import Evaluator
from .calibration import (
    CalibrationInput,
    calibrated_judge,
    metric_calibrations,
    profile_of,
    rule_book_of,
)
from .execute import ItemRun, Stages
from .options import EngineOptions, choose_metrics
from .panel import AGGREGATES
from .records import Record

__all__ = ["DEFAULT_MODEL", "BatchRecord", "SummarizationEvaluator", "SummaryResult"]

DEFAULT_MODEL = "google/gemini-2.5-flash"

BatchRecord = Record
"""A batch record of the summarization evaluator (the one `Record` type of every evaluator)."""


class SummarizationEvaluator(Evaluator[SummaryData, SummaryResult]):
    """Judges a summary against its source on coherence, consistency, relevance and fluency.

    Example:
        >>> evaluator = SummarizationEvaluator(model="openai/gpt-4o-mini",
        ...     model_credentials=os.getenv("OPENAI_API_KEY"), enabled_metrics=["coherence"])
        >>> result = await evaluator.evaluate(SummaryData(input=transcript, summary=summary))
        >>> result["summary"]["relevancy_rating"]

    Args:
        model: "provider/model" ("google/gemini-2.5-flash", "openai/gpt-4o-mini",
            "anthropic/claude-..."), "local" for the offline judge, or a Judge object; a
            list of LLM judges is a panel (`panel_aggregate`, docs/noise.md).
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
        uncertain_below: a rating whose `rating_confidence` is below this is marked
            `uncertain` (see docs/noise.md).
        samples: judge each metric this many times at `sample_temperature` and combine
            the verdicts (majority score, mean, spread; `metrics/sampling.py`). 1: once,
            at temperature 0.
        sample_temperature: the sampling temperature when `samples` is 2 or more.
        panel_aggregate: with a list of models (a judge panel: every member judges every
            metric), how the members' scores become the metric's score: "median"
            (default), "mean", "majority" or "min", rounded half up.
        calibration: a calibration profile (`sumjudge calibrate`, docs/align.md), or its
            path: the refitted offline models, or an LLM's few-shot examples and cut
            points, and its rule book. It must name this judge.
    """

    supports_panel = True

    def __init__(
        self,
        model: str | Judge | Sequence[str | Judge] = DEFAULT_MODEL,
        model_credentials: str | None = None,
        *,
        enabled_metrics: Sequence[str] | None = None,
        explanation_language: str | None = None,
        rule_book: RuleBook | Mapping[str, Any] | None = None,
        logprobs: bool = True,
        repair: bool = True,
        max_tokens: int = 1024,
        warm_prefix_tokens: int | None = MIN_CACHEABLE_PREFIX,
        single_call: bool = False,
        prompt_layout: str = "source_first",
        uncertain_below: float = 0.7,
        samples: int = 1,
        sample_temperature: float = 0.7,
        panel_aggregate: str = "median",
        calibration: CalibrationInput = None,
        **engine: Unpack[EngineOptions],
    ) -> None:
        profile = profile_of(calibration)
        model = calibrated_judge(model, profile)
        rule_book = rule_book_of(rule_book, profile)
        layout = single_call or prompt_layout != "source_first"
        if profile is not None and layout and any(m.examples for m in profile.metrics.values()):
            raise ConfigError(
                "a calibration profile's examples need the default prompt layout: "
                "drop single_call / prompt_layout"
            )
        if panel_aggregate not in AGGREGATES:
            raise ConfigError(
                f"panel_aggregate {panel_aggregate!r}: choose {', '.join(AGGREGATES)}"
            )
        self.panel_aggregate = panel_aggregate
        if samples < 1:
            raise ConfigError(f"samples must be at least 1 (got {samples})")
        if samples > 1 and single_call:
            raise ConfigError("samples need one request per metric: drop single_call")
        if sample_temperature < 0:
            raise ConfigError(f"sample_temperature must be 0 or more (got {sample_temperature})")
        self.samples = samples
        self.sample_temperature = sample_temperature
        if not 0.0 <= uncertain_below <= 1.0:
            raise ConfigError(f"uncertain_below {uncertain_below!r}: give a number in 0-1")
        self.uncertain_below = uncertain_below
        self.enabled_metrics = choose_metrics(
            enabled_metrics, list(SUMMARY_METRICS), "enabled_metrics"
        )
        if isinstance(rule_book, Mapping):
            rule_book = RuleBook.from_dict(rule_book)
        self.rule_book = rule_book or DEFAULT_RULE_BOOK
        for m in self.enabled_metrics:
            self.rule_book.threshold(m)  # fail now, not after paying for judgments
        if prompt_layout not in ("source_first", "rubrics_first"):
            raise ConfigError(
                f"prompt_layout {prompt_layout!r}: choose source_first or rubrics_first"
            )
        self.options = JudgeOptions(
            language=explanation_language,
            logprobs=logprobs,
            repair=repair,
            max_tokens=max_tokens,
            calibration=metric_calibrations(profile),
        )
        self.calibration = profile
        self.warm_prefix_tokens = warm_prefix_tokens
        self.single_call = single_call
        self.prompt_layout = prompt_layout
        super().__init__(model, model_credentials, repair=repair, **engine)
        self.options = replace(self.options, render_prompt=self.reads_prompt)
        if profile is not None:
            profile.check_judge(_base_name(self.judge.name), self.capabilities.version)
        if samples > 1 and self.capabilities.mode != "judge":
            raise ConfigError(
                f"samples: the {self.capabilities.mode} judge gives the same verdict every "
                "time, so repeated judgments would only repeat it; use an LLM judge"
            )

    @property
    def metric_versions(self) -> dict[str, str]:
        """Version tags of the enabled metrics (prompt changes bump them)."""
        tag = self.capabilities.version
        calibrated = self.options.calibration
        return {
            m: tag
            or (
                calibrated[m].version(SUMMARY_METRICS[m].version)
                if m in calibrated
                else SUMMARY_METRICS[m].version
            )
            for m in self.enabled_metrics
        }

    def meta_base(self) -> dict[str, Any]:
        """Judge and metric versions, plus the prompt layout when it is not the default."""
        meta = super().meta_base()
        if self.single_call or self.prompt_layout != "source_first":
            meta["prompt_layout"] = "single_call" if self.single_call else self.prompt_layout
        if self.samples > 1:
            meta["samples"] = {"k": self.samples, "temperature": self.sample_temperature}
        if self.calibration is not None:
            meta["calibration"] = self.calibration.id
        return meta

    def coerce(self, raw: Any, index: int | str | None) -> SummaryData:
        """Validate one input, naming the item and the field when it is unusable."""
        return coerce_item(raw, index)

    def source_text(self, item: SummaryData) -> str:
        """The source the summary is judged against."""
        return item.input

    def plan(self, item: SummaryData, prepared: Any = None, source: str | None = None) -> Stages:
        """One plan per enabled metric (one for all in single-call mode).

        `source` replaces the item's source (the long-source strategy's excerpts).
        """
        text = item.input if source is None else source
        chosen = [SUMMARY_METRICS[m] for m in self.enabled_metrics]
        o, caps = self.options, self.capabilities
        if self.single_call:
            return [[single_call_plan(chosen, text, item.summary, o, caps)]]
        plans = [self._metric_plan(m, chosen, text, item.summary) for m in chosen]
        if len(plans) > 1 and self._warm_prefix(item):
            # Prompt caching needs the prefix to have been processed once: ask one
            # metric first, then the rest share its cached prefix.
            return [plans[:1], plans[1:]]
        return [plans]

    def _metric_plan(
        self, metric: ScoreMetric, chosen: Sequence[ScoreMetric], source: str, summary: str
    ) -> MetricPlan[MetricResult]:
        o, caps = self.options, self.capabilities
        if self.prompt_layout == "rubrics_first":
            request = build_rubrics_first_request(metric, chosen, source, summary, o)
        else:
            request = metric.request_for(source, summary, o)
        if self.samples > 1:
            return sampled_plan(metric, request, self.samples, self.sample_temperature, o, caps)
        return score_plan(metric, request, o, caps)

    def _warm_prefix(self, item: SummaryData) -> bool:
        if self.warm_prefix_tokens is None or not self.options.render_prompt:
            return False  # (a judge that reads no prompt has no prompt cache to warm)
        if len(item.input) + len(item.summary) < self.warm_prefix_tokens * 3:
            return False  # clearly short: skip building the prefix
        prefix = system_message(self.options.language) + shared_prefix(item.input, item.summary)
        return estimate_tokens(prefix) >= self.warm_prefix_tokens

    def assemble(self, item: SummaryData, results: dict[str, Any]) -> SummaryResult:
        """The metrics in enabled order, rated by the rule book."""
        metrics: dict[str, MetricResult] = {m: results[m] for m in self.enabled_metrics}
        rating = rate(
            {m: r.score for m, r in metrics.items()},
            self.enabled_metrics,
            self.rule_book,
            failures={m: r.error or "" for m, r in metrics.items() if r.error},
        )
        confidence, note = self._rating_confidence(metrics, rating)
        return SummaryResult(
            metrics=metrics,
            rating=rating,
            rating_confidence=confidence,
            rating_confidence_note=note,
            uncertain=None if confidence is None else confidence < self.uncertain_below,
        )

    def _rating_confidence(
        self, metrics: Mapping[str, MetricResult], rating: Rating
    ) -> tuple[float | None, str | None]:
        """The rating's confidence from the metrics' distributions, or why there is none."""
        if rating.relevancy_rating is None:
            return None, "no rating"
        lacking = [m for m, r in metrics.items() if r.distribution is None]
        if lacking:
            reasons = "; ".join(
                f"{m}: {metrics[m].confidence_note or 'no score distribution'}" for m in lacking
            )
            return None, f"no score distribution for {reasons}"
        distributions = {m: r.distribution for m, r in metrics.items() if r.distribution}
        confidence = rating_confidence(
            distributions, self.enabled_metrics, rating.relevancy_rating, self.rule_book
        )
        return confidence, None

    def unfit(self, item: SummaryData, reason: str) -> SummaryResult:
        """Every metric failed with the context-window reason."""
        tag = self.capabilities.version
        failed = {
            m: MetricResult(name=m, version=tag or SUMMARY_METRICS[m].version, error=reason)
            for m in self.enabled_metrics
        }
        return self.assemble(item, dict(failed))

    async def judge_long(
        self, item: SummaryData, prepared: Any, window: int, run: ItemRun
    ) -> tuple[SummaryResult, dict[str, Any]]:
        """Judge a source beyond the window by chunks (see `evaluators/longsource.py`)."""
        from .longsource import judge_summary_long

        return await judge_summary_long(self, item, window, run)

    def long_requests(self, item: SummaryData, prepared: Any, window: int) -> list[JudgeRequest]:
        """The first-try requests `judge_long` would send (for a dry run)."""
        from .longsource import summary_long_requests

        return summary_long_requests(self, item, window)

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


def _base_name(name: str) -> str:
    """A judge's name without a calibration suffix ("local+cal-…" is "local")."""
    return name.split("+", 1)[0]
