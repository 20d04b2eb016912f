"""The chunked strategy for sources larger than the judge's window (see `sumjudge.longdoc`)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from ..cost import estimate_tokens
from ..errors import ParseError, ProviderError
from ..longdoc import (
    excerpt_text,
    notes_request,
    notes_text,
    read_notes,
    select_excerpts,
    split_chunks,
    summary_claims,
)
from ..metrics import SUMMARY_METRICS
from ..rules import rate
from ..types import MetricResult, SummaryData
from ._judging import judge_score_metric
from ._records import SummaryResult

if TYPE_CHECKING:
    from .summarization import SummarizationEvaluator

__all__ = ["evaluate_long"]


async def evaluate_long(
    self: SummarizationEvaluator, item: SummaryData, window: int
) -> tuple[SummaryResult, dict[str, Any]]:
    """Judge `item` by chunks: excerpts per claim, and notes per chunk for relevance."""
    assert self.caller is not None
    caller = self.caller
    # Everything but the source: system message, instructions, summary, reply budget,
    # plus room for the excerpt headers.
    bare = SummaryData(input=".", summary=item.summary)
    fixed = max(estimate_tokens(r.prompt_text()) for r in self.plan_requests(bare))
    budget = max(300, window - fixed - self.options.max_tokens - 200)
    chunks = split_chunks(item.input, min(budget // 2, 8000))
    selected = select_excerpts(summary_claims(item.summary), chunks, budget)
    excerpts = excerpt_text(chunks, selected)
    seen = sum(chunks[i].end - chunks[i].start for i in selected) / max(1, len(item.input))
    names = self.enabled_metrics
    results: dict[str, MetricResult] = {}
    direct = [m for m in names if m != "relevance"]
    judged = await asyncio.gather(
        *(
            judge_score_metric(SUMMARY_METRICS[m], excerpts, item.summary, caller, self.options)
            for m in direct
        )
    )
    results.update({r.name: r for r in judged})
    notes_calls = 0
    if "relevance" in names:
        metric = SUMMARY_METRICS["relevance"]
        try:
            replies = await asyncio.gather(
                *(caller.call(notes_request(c, len(chunks), self.options.language)) for c in chunks)
            )
            notes_calls = len(replies)
            notes = [read_notes(r) for r in replies]
        except (ProviderError, ParseError) as exc:
            results["relevance"] = MetricResult(
                name="relevance",
                version=metric.version,
                error=f"chunk notes failed: {type(exc).__name__}: {exc}",
            )
        else:
            results["relevance"] = await judge_score_metric(
                metric, notes_text(notes), item.summary, caller, self.options
            )
    metrics = {m: results[m] for m in names}
    rating = rate(
        {m: r.score for m, r in metrics.items()},
        names,
        self.rule_book,
        failures={m: r.error or "" for m, r in metrics.items() if r.error},
    )
    seen_by = {m: round(seen, 4) for m in direct}
    if "relevance" in names:
        seen_by["relevance"] = 1.0  # through notes on every chunk, not verbatim
    context = {
        "strategy": "chunked",
        "context_window": window,
        "chunks": len(chunks),
        "excerpt_parts": [i + 1 for i in selected],
        "source_seen_fraction": seen_by,
        "note": "consistency/coherence/fluency judged on the excerpts most relevant to the "
        "summary's claims; relevance judged on key-point notes of every part",
        "notes_calls": notes_calls,
    }
    return SummaryResult(metrics=metrics, rating=rating), context
