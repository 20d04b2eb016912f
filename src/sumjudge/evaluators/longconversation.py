"""The chunked strategy for transcripts larger than the judge's window.

For a transcript that does not fit (opt-in: `long_source="chunked"`), each turn is a unit.
Accuracy, adherence and consistency are judged on the turns most relevant to the
summary's claims (chosen as for summaries, within the budget), shown under their numbers
in the whole transcript with "[...]" where turns are left out, so cited turn numbers keep
their meaning and quotes are still verified against the whole transcript. Completeness
must see what the whole transcript holds, so it is judged on key-point notes of every part.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..metrics._conversation import ConversationContext
from ..metrics.chunk_notes import notes_text
from ..metrics.transcript import render_turn
from ..plan import MetricPlan, requests_of
from ..protocol import JudgeRequest
from ..tokens import CHARS_PER_TOKEN, estimate_tokens
from ..types import AutoEvalResult, ConversationItem, MetricOutcome
from .execute import ItemRun
from .longsource import Chunk, notes_calls, select_excerpts, stand_in_notes, summary_claims

__all__ = ["conversation_long_requests", "judge_conversation_long"]


class ConversationJudging(Protocol):
    """What the strategy needs of the autoevaluator."""

    metrics: list[str]
    language: str | None
    max_tokens: int

    @property
    def metric_versions(self) -> dict[str, str]: ...

    def context(
        self, item: ConversationItem, directives: Any, transcript: str | None = None
    ) -> ConversationContext:
        """What the metric plans need (`transcript`: shown instead of the turns)."""
        ...

    def metric_plans(self, ctx: ConversationContext) -> list[MetricPlan[Any]]:
        """The judged metrics' plans for one context."""
        ...

    def is_derived(self, metric: str) -> bool:
        """Whether `metric` is read off another metric's result."""
        ...

    def assemble(self, item: ConversationItem, results: dict[str, Any]) -> AutoEvalResult:
        """The item's result from its metrics' results."""
        ...


@dataclass(frozen=True)
class _TurnParts:
    """How a long transcript is shown: its turn lines, the chosen turns, the note parts."""

    lines: list[str]
    selected: list[int]
    excerpt: str
    parts: list[str]


def _turn_parts(
    evaluator: ConversationJudging, item: ConversationItem, prepared: Any, window: int
) -> _TurnParts:
    lines = [render_turn(n, t) for n, t in enumerate(item.turns, 1)]
    bare = evaluator.context(item, prepared, transcript=".")
    fixed = max(
        (estimate_tokens(r.prompt_text()) for r in requests_of(evaluator.metric_plans(bare))),
        default=0,
    )
    budget = max(300, window - fixed - evaluator.max_tokens - 200)
    units = [Chunk(i, 0, len(line), line) for i, line in enumerate(lines)]
    summary = "\n".join(t for t in item.sections.values() if t.strip())
    selected = select_excerpts(summary_claims(summary), units, budget)
    return _TurnParts(
        lines, selected, _turn_excerpt(lines, selected), _parts(lines, min(budget // 2, 8000))
    )


def _plans_on(
    evaluator: ConversationJudging,
    item: ConversationItem,
    prepared: Any,
    transcript: str,
    metrics: Sequence[str],
) -> list[MetricPlan[Any]]:
    ctx = evaluator.context(item, prepared, transcript=transcript)
    return [p for p in evaluator.metric_plans(ctx) if p.metric in metrics]


async def judge_conversation_long(
    evaluator: ConversationJudging,
    item: ConversationItem,
    prepared: Any,
    window: int,
    run: ItemRun,
) -> tuple[AutoEvalResult, dict[str, Any]]:
    """Judge a conversation by parts: relevant turns for most metrics, notes for completeness."""
    shown = _turn_parts(evaluator, item, prepared, window)
    lines, selected = shown.lines, shown.selected
    wanted = [m for m in evaluator.metrics if not evaluator.is_derived(m)]
    results: dict[str, Any] = {}
    on_excerpt = [m for m in wanted if m != "completeness"]
    if on_excerpt:
        plans = _plans_on(evaluator, item, prepared, shown.excerpt, on_excerpt)
        results.update(await run.execute([plans]))
    notes_calls_made, parts = 0, shown.parts
    if "completeness" in wanted:
        calls = notes_calls(parts, evaluator.language)
        notes = await asyncio.gather(*(run.ask(c) for c in calls))
        notes_calls_made = len(notes)
        failed = next((n for n in notes if n.value is None), None)
        if failed is not None:
            version = evaluator.metric_versions["completeness"]
            error = f"chunk notes failed: {failed.error}"
            results["completeness"] = MetricOutcome("completeness", version, error=error)
        else:
            digest = notes_text([n.value or [] for n in notes])
            plans = _plans_on(evaluator, item, prepared, digest, ["completeness"])
            results.update(await run.execute([plans]))
    total = sum(len(line) for line in lines) or 1
    seen = round(sum(len(lines[i]) for i in selected) / total, 4)
    context = {
        "strategy": "chunked",
        "context_window": window,
        "chunks": len(parts),
        "excerpt_turns": [i + 1 for i in selected],
        "source_seen_fraction": {m: 1.0 if m == "completeness" else seen for m in wanted},
        "note": "accuracy, adherence and consistency judged on the turns most relevant to the "
        "summary's claims (numbered as in the whole transcript); completeness judged on "
        "key-point notes of every part",
        "notes_calls": notes_calls_made,
    }
    return evaluator.assemble(item, results), context


def conversation_long_requests(
    evaluator: ConversationJudging, item: ConversationItem, prepared: Any, window: int
) -> list[JudgeRequest]:
    """The first-try requests `judge_conversation_long` sends, for a dry run.

    The completeness request depends on the notes' replies; it is sized with
    `stand_in_notes`.
    """
    shown = _turn_parts(evaluator, item, prepared, window)
    wanted = [m for m in evaluator.metrics if not evaluator.is_derived(m)]
    on_excerpt = [m for m in wanted if m != "completeness"]
    requests = requests_of(_plans_on(evaluator, item, prepared, shown.excerpt, on_excerpt))
    if "completeness" in wanted:
        calls = notes_calls(shown.parts, evaluator.language)
        digest = stand_in_notes(len(calls))
        requests += [c.request for c in calls]
        requests += requests_of(_plans_on(evaluator, item, prepared, digest, ["completeness"]))
    return requests


def _turn_excerpt(lines: Sequence[str], selected: Sequence[int]) -> str:
    """The selected turn lines, with "[...]" wherever turns are left out."""
    head = (
        f"[Excerpt of a transcript too long to show whole: {len(selected)} of {len(lines)} "
        "turns, chosen as the most relevant to the summary's claims, under their numbers in "
        "the whole transcript. [...] marks turns left out.]"
    )
    out, last = [head], -1
    for i in selected:
        if i != last + 1:
            out.append("[...]")
        out.append(lines[i])
        last = i
    if last != len(lines) - 1:
        out.append("[...]")
    return "\n".join(out)


def _parts(lines: Sequence[str], max_tokens: int) -> list[str]:
    """Consecutive groups of whole turn lines of at most ~`max_tokens` tokens each."""
    limit = max(200, int(max_tokens * CHARS_PER_TOKEN))
    parts: list[str] = []
    current: list[str] = []
    size = 0
    for line in lines:
        if current and size + len(line) > limit:
            parts.append("\n".join(current))
            current, size = [], 0
        current.append(line)
        size += len(line) + 1
    if current:
        parts.append("\n".join(current))
    return parts
