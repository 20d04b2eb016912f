"""PairwiseEvaluator: which of two summaries is better, per metric, judged in both orders."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from typing_extensions import Unpack

from ..errors import ConfigError
from ..metrics import SUMMARY_METRICS
from ..metrics._base import JudgeOptions
from ..metrics.pairwise import PAIRWISE_VERSION, pair_plan
from ..noise.pairstats import PairOutcome, PairwiseStats, pairwise_stats
from ..protocol import Judge
from ..types.pairwise import PairData, PairMetricResult, PairResult, coerce_pair, word_count
from .base import Evaluator
from .execute import Stages
from .options import EngineOptions, choose_metrics
from .records import Record

__all__ = ["PairwiseEvaluator", "PairwiseSummary", "summarize_pairs"]


class PairwiseEvaluator(Evaluator[PairData, PairResult]):
    """Compares two summaries of one source on coherence, consistency, relevance and fluency.

    For each enabled metric the judge sees the source and both summaries, explains and
    answers A, B or tie; every pair is judged twice, the second time with the summaries
    swapped, and a pair whose two verdicts disagree is a tie counted as
    position-inconsistent. `summarize_pairs` gives the run's figures per metric.

    Example:
        >>> evaluator = PairwiseEvaluator("openai/gpt-4o-mini", metrics=["consistency"])
        >>> result = await evaluator.evaluate_result(
        ...     {"input": source, "summary_a": old, "summary_b": new})
        >>> result.metrics["consistency"].winner

    Args:
        model: "provider/model" or a Judge object (the offline judge does not compare).
        model_credentials: the provider's API key; defaults to its environment variable.
        metrics: a subset of the four metrics (default: all).
        explanation_language: language for explanations; default: the source's.
        repair: re-ask once when a verdict cannot be parsed.
        max_tokens: cap on each reply.
        engine: the engine options every evaluator takes (`EngineOptions`).
    """

    def __init__(
        self,
        model: str | Judge,
        model_credentials: str | None = None,
        *,
        metrics: Sequence[str] | None = None,
        explanation_language: str | None = None,
        repair: bool = True,
        max_tokens: int = 1024,
        **engine: Unpack[EngineOptions],
    ) -> None:
        self.enabled_metrics = choose_metrics(metrics, list(SUMMARY_METRICS), "metrics")
        self.options = JudgeOptions(
            language=explanation_language, logprobs=False, repair=repair, max_tokens=max_tokens
        )
        super().__init__(model, model_credentials, repair=repair, **engine)
        self.options = replace(self.options, render_prompt=self.reads_prompt)
        if self.capabilities.mode != "judge":
            raise ConfigError(
                f"pairwise judging needs an LLM judge; {self.judge_name} "
                f"({self.capabilities.mode}) does not compare summaries"
            )

    @property
    def metric_versions(self) -> dict[str, str]:
        """The pairwise prompt's version with each enabled metric's ("1.1")."""
        return {m: f"{PAIRWISE_VERSION}.{SUMMARY_METRICS[m].version}" for m in self.enabled_metrics}

    def coerce(self, raw: Any, index: int | str | None) -> PairData:
        """Validate one pair, naming the item and the field when it is unusable."""
        return coerce_pair(raw, index)

    def source_text(self, item: PairData) -> str:
        """The source both summaries are judged against."""
        return item.input

    def plan(self, item: PairData, prepared: Any = None) -> Stages:
        """Both passes of every enabled metric, all at once."""
        return [
            [
                pair_plan(
                    SUMMARY_METRICS[m], item.input, item.summary_a, item.summary_b, self.options
                )
                for m in self.enabled_metrics
            ]
        ]

    def assemble(self, item: PairData, results: dict[str, Any]) -> PairResult:
        """The metrics in enabled order, with the summaries' lengths in words."""
        return PairResult(
            metrics={m: results[m] for m in self.enabled_metrics},
            length_a=word_count(item.summary_a),
            length_b=word_count(item.summary_b),
        )

    def unfit(self, item: PairData, reason: str) -> PairResult:
        """Every metric failed with the context-window reason."""
        versions = self.metric_versions
        return self.assemble(
            item,
            {m: PairMetricResult(name=m, version=versions[m], error=reason) for m in versions},
        )


def summarize_pairs(results: Iterable[PairResult]) -> dict[str, PairwiseStats]:
    """Each metric's run figures (`PairwiseStats`) over the pairs it judged."""
    outcomes: dict[str, list[PairOutcome]] = {}
    for result in results:
        for name, m in result.metrics.items():
            bucket = outcomes.setdefault(name, [])
            if m.ok and m.winner is not None:
                bucket.append(
                    PairOutcome(m.winner, bool(m.consistent), result.length_a, result.length_b)
                )
    return {name: pairwise_stats(items) for name, items in outcomes.items()}


class PairwiseSummary:
    """The run's pairwise figures, filled record by record (what `sumjudge pairwise` prints)."""

    unit = "pair"

    def __init__(self) -> None:
        self.results: list[PairResult] = []

    def add(self, record: Record) -> None:
        """Count one record's result (records without one are left out)."""
        if isinstance(record.result, PairResult):
            self.results.append(record.result)

    def stats(self) -> dict[str, PairwiseStats]:
        """Each metric's figures so far."""
        return summarize_pairs(self.results)

    def to_dict(self) -> dict[str, Any]:
        """Each metric's figures as JSON."""
        return {name: s.to_dict() for name, s in self.stats().items()}

    def render(self) -> str:
        """One clause per metric: B's wins, ties and losses, the rate and the consistency."""
        parts = []
        for name, s in self.stats().items():
            rate = "n/a" if s.win_rate is None else f"{s.win_rate:.0%}"
            ci = (
                "" if s.win_rate_ci is None else f" [{s.win_rate_ci[0]:.0%}-{s.win_rate_ci[1]:.0%}]"
            )
            p = "" if s.sign_test_p is None else f", p={s.sign_test_p:.3g}"
            consistency = (
                "n/a" if s.position_consistency is None else f"{s.position_consistency:.0%}"
            )
            longer = "" if s.longer_chosen is None else f", longer chosen {s.longer_chosen:.0%}"
            parts.append(
                f"{name}: B {s.wins}-{s.ties}-{s.losses} (win/tie/loss), win rate {rate}{ci}{p}, "
                f"position-consistent {consistency}{longer}"
            )
        return "; ".join(parts) or "no pair judged"
