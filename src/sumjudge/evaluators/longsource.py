"""The chunked strategy for sources larger than the judge's window (`long_source="chunked"`).

For a source that does not fit (opt-in: `long_source="chunked"`):
- the source is split into chunks on line/sentence boundaries, none larger than a budget;
- consistency, coherence and fluency are judged against excerpts: each summary claim
  (sentence) ranks the chunks by lexical overlap (IDF-weighted content words), and the
  best chunks of every claim are taken in turn until the excerpt budget is full, so each
  claim is checked against its most relevant chunks;
- relevance is judged against chunk-level notes: the judge writes the key points of
  every chunk (one call per chunk), and the relevance metric compares the summary with
  those notes, so it sees a digest of the whole source;
- the record states the strategy and, per metric, the fraction of the source (by
  characters) the judge saw verbatim.
"""

from __future__ import annotations

import asyncio
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..metrics import SUMMARY_METRICS
from ..metrics._base import JudgeOptions
from ..metrics._conversation import ConversationContext
from ..metrics.chunk_notes import notes_request, notes_text, read_notes
from ..metrics.transcript import render_turn
from ..plan import Call, MetricPlan, requests_of
from ..protocol import Capabilities
from ..text import split_sentences
from ..tokens import CHARS_PER_TOKEN, estimate_tokens
from ..types import (
    AutoEvalResult,
    ConversationItem,
    MetricOutcome,
    MetricResult,
    SummaryData,
    SummaryResult,
)
from .execute import ItemRun, Stages, flatten


class SummaryJudging(Protocol):
    """What the strategy needs of the summarization evaluator."""

    options: JudgeOptions
    capabilities: Capabilities
    enabled_metrics: list[str]

    @property
    def metric_versions(self) -> dict[str, str]: ...

    def plan(self, item: SummaryData, prepared: Any = None, source: str | None = None) -> Stages:
        """The item's plans (`source` replaces the item's source)."""
        ...

    def assemble(self, item: SummaryData, results: dict[str, Any]) -> SummaryResult:
        """The item's result from its metrics' results."""
        ...


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


__all__ = [
    "Chunk",
    "excerpt_text",
    "judge_conversation_long",
    "judge_summary_long",
    "select_excerpts",
    "split_chunks",
    "summary_claims",
]

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_STOPWORDS = (
    "a an the and or but of to in on at for with by from as is are was were be been it this "
    "that these those he she they we you i his her their our its not no do does did have has "
    "had will would can could should may might also so than then there here what which who "
    "whom when where why how all any some into about over after before"
)
_STOP = frozenset(_STOPWORDS.split())


@dataclass(frozen=True)
class Chunk:
    """One consecutive part of a long source, with its character span."""

    index: int
    start: int
    end: int
    text: str


def _terms(text: str) -> list[str]:
    return [w for w in (m.group(0).lower() for m in _WORD.finditer(text)) if w not in _STOP]


def split_chunks(text: str, max_tokens: int) -> list[Chunk]:
    """Consecutive chunks of at most ~`max_tokens` tokens, cut at line or sentence ends."""
    limit = max(200, int(max_tokens * CHARS_PER_TOKEN))
    # Each piece runs from one sentence's start to the next one's, so the pieces cover
    # the whole text (white space and stray punctuation included).
    starts = [0, *[s.start for s in split_sentences(text)][1:]]
    pieces = list(zip(starts, [*starts[1:], len(text)], strict=True)) if text else []
    spans: list[tuple[int, int]] = []
    for a, b in pieces:  # a sentence longer than the limit is cut at spaces
        while b - a > limit:
            cut = text.rfind(" ", a, a + limit)
            cut = cut if cut > a else a + limit
            spans.append((a, cut))
            a = cut
        spans.append((a, b))
    chunks: list[Chunk] = []
    start = end = spans[0][0] if spans else 0
    for a, b in spans:
        if b - start > limit and end > start:
            chunks.append(Chunk(len(chunks), start, end, text[start:end]))
            start = a
        end = b
    if end > start:
        chunks.append(Chunk(len(chunks), start, end, text[start:end]))
    return chunks


def summary_claims(summary: str) -> list[str]:
    """The summary's sentences that hold at least one content word."""
    return [s.text for s in split_sentences(summary) if len(_terms(s.text)) > 0]


def select_excerpts(claims: Sequence[str], chunks: Sequence[Chunk], budget: int) -> list[int]:
    """Chunk indices for the excerpts: every claim's best chunks, in turn, within `budget`."""
    df: Counter[str] = Counter()
    bags = [Counter(_terms(c.text)) for c in chunks]
    for bag in bags:
        df.update(bag.keys())
    n = len(chunks)
    rankings: list[list[int]] = []
    for claim in claims or [""]:
        terms = set(_terms(claim))
        scores = [sum(math.log(1 + n / df[t]) for t in terms if t in bag) for bag in bags]
        rankings.append(sorted(range(n), key=lambda i: (-scores[i], i)))
    chosen: list[int] = []
    used = 0
    for depth in range(n):
        progressed = False
        for ranking in rankings:
            i = ranking[depth]
            if i in chosen:
                continue
            size = estimate_tokens(chunks[i].text) + 8
            if used + size > budget:
                continue
            chosen.append(i)
            used += size
            progressed = True
        if not progressed and used > 0 and depth > 0:
            break
    return sorted(chosen)


def excerpt_text(chunks: Sequence[Chunk], selected: Sequence[int]) -> str:
    """The selected chunks as one text, headed by what was left out."""
    total = len(chunks)
    head = (
        f"[Excerpts from a source too long to show whole: parts "
        f"{', '.join(str(i + 1) for i in selected)} of {total}, chosen as the most relevant "
        "to the summary's claims. Text between parts is omitted.]\n"
    )
    return head + "\n[...]\n".join(f"[part {i + 1}/{total}]\n{chunks[i].text}" for i in selected)


async def judge_summary_long(
    evaluator: SummaryJudging, item: SummaryData, window: int, run: ItemRun
) -> tuple[SummaryResult, dict[str, Any]]:
    """Judge `item` by chunks: excerpts per claim, and notes per chunk for relevance."""
    # Everything but the source: system message, instructions, summary, reply budget,
    # plus room for the excerpt headers.
    bare = SummaryData(input=".", summary=item.summary)
    fixed = max(
        estimate_tokens(r.prompt_text()) for r in requests_of(flatten(evaluator.plan(bare)))
    )
    budget = max(300, window - fixed - evaluator.options.max_tokens - 200)
    chunks = split_chunks(item.input, min(budget // 2, 8000))
    selected = select_excerpts(summary_claims(item.summary), chunks, budget)
    excerpts = excerpt_text(chunks, selected)
    seen = sum(chunks[i].end - chunks[i].start for i in selected) / max(1, len(item.input))
    names = evaluator.enabled_metrics
    direct = [m for m in names if m != "relevance"]
    results: dict[str, Any] = {}
    if direct:
        excerpt_plan = _only(evaluator, item, excerpts, direct)
        results.update(await run.execute(excerpt_plan))
    notes_calls = 0
    if "relevance" in names:
        language = evaluator.options.language
        calls = [
            Call(notes_request(c.index, c.text, len(chunks), language), read_notes) for c in chunks
        ]
        notes = await asyncio.gather(*(run.ask(c) for c in calls))
        notes_calls = len(notes)
        failed = next((n for n in notes if n.value is None), None)
        if failed is not None:
            results["relevance"] = MetricResult(
                name="relevance",
                version=evaluator.metric_versions["relevance"],
                error=f"chunk notes failed: {failed.error}",
            )
        else:
            digest = notes_text([n.value or [] for n in notes])
            results.update(await run.execute(_only(evaluator, item, digest, ["relevance"])))
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
    return evaluator.assemble(item, results), context


def _only(
    evaluator: SummaryJudging, item: SummaryData, source: str, metrics: Sequence[str]
) -> list[list[Any]]:
    """The default-layout plans of `metrics`, judged against `source` in place of the item's."""
    o, caps = evaluator.options, evaluator.capabilities
    return [[SUMMARY_METRICS[m].plan(source, item.summary, o, caps) for m in metrics]]


# --------------------------------------------------------------------------- conversations
#
# For a transcript that does not fit: each turn is a unit. Accuracy, adherence and
# consistency are judged on the turns most relevant to the summary's claims (chosen as
# for summaries, within the budget), shown under their numbers in the whole transcript
# with "[...]" where turns are left out, so cited turn numbers keep their meaning and
# quotes are still verified against the whole transcript. Completeness must see what the
# whole transcript holds, so it is judged on key-point notes of every part.


async def judge_conversation_long(
    evaluator: ConversationJudging,
    item: ConversationItem,
    prepared: Any,
    window: int,
    run: ItemRun,
) -> tuple[AutoEvalResult, dict[str, Any]]:
    """Judge a conversation by parts: relevant turns for most metrics, notes for completeness."""
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
    excerpt = _turn_excerpt(lines, selected)
    wanted = [m for m in evaluator.metrics if not evaluator.is_derived(m)]
    results: dict[str, Any] = {}
    on_excerpt = [m for m in wanted if m != "completeness"]
    if on_excerpt:
        ctx = evaluator.context(item, prepared, transcript=excerpt)
        plans = [p for p in evaluator.metric_plans(ctx) if p.metric in on_excerpt]
        results.update(await run.execute([plans]))
    notes_calls, parts = 0, _parts(lines, min(budget // 2, 8000))
    if "completeness" in wanted:
        language = evaluator.language
        calls = [
            Call(notes_request(i, text, len(parts), language), read_notes)
            for i, text in enumerate(parts)
        ]
        notes = await asyncio.gather(*(run.ask(c) for c in calls))
        notes_calls = len(notes)
        failed = next((n for n in notes if n.value is None), None)
        if failed is not None:
            version = evaluator.metric_versions["completeness"]
            error = f"chunk notes failed: {failed.error}"
            results["completeness"] = MetricOutcome("completeness", version, error=error)
        else:
            digest = notes_text([n.value or [] for n in notes])
            ctx = evaluator.context(item, prepared, transcript=digest)
            plans = [p for p in evaluator.metric_plans(ctx) if p.metric == "completeness"]
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
        "notes_calls": notes_calls,
    }
    return evaluator.assemble(item, results), context


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
