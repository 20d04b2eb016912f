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

from ..cost import ASSUMED_COMPLETION_TOKENS
from ..metrics import SUMMARY_METRICS
from ..metrics._base import JudgeOptions
from ..metrics.chunk_notes import notes_request, notes_text, read_notes
from ..plan import Call, requests_of
from ..protocol import Capabilities, JudgeRequest
from ..text import split_sentences
from ..tokens import CHARS_PER_TOKEN, estimate_tokens
from ..types import MetricResult, SummaryData, SummaryResult
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


__all__ = [
    "Chunk",
    "excerpt_text",
    "judge_summary_long",
    "notes_calls",
    "select_excerpts",
    "split_chunks",
    "stand_in_notes",
    "summary_claims",
    "summary_long_requests",
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


@dataclass(frozen=True)
class _SummaryParts:
    """How a long source is shown: its chunks, and the excerpts chosen for the claims."""

    chunks: list[Chunk]
    selected: list[int]
    excerpts: str


def _summary_parts(evaluator: SummaryJudging, item: SummaryData, window: int) -> _SummaryParts:
    # Everything but the source: system message, instructions, summary, reply budget,
    # plus room for the excerpt headers.
    bare = SummaryData(input=".", summary=item.summary)
    fixed = max(
        estimate_tokens(r.prompt_text()) for r in requests_of(flatten(evaluator.plan(bare)))
    )
    budget = max(300, window - fixed - evaluator.options.max_tokens - 200)
    chunks = split_chunks(item.input, min(budget // 2, 8000))
    selected = select_excerpts(summary_claims(item.summary), chunks, budget)
    return _SummaryParts(chunks, selected, excerpt_text(chunks, selected))


def notes_calls(texts: Sequence[str], language: str | None) -> list[Call[list[str]]]:
    """One key-point notes call per part of a long source."""
    return [
        Call(notes_request(i, t, len(texts), language), read_notes) for i, t in enumerate(texts)
    ]


def stand_in_notes(parts: int) -> str:
    """Notes of the size a dry run assumes each part's reply has, for sizing the next request."""
    point = "key point " * int(ASSUMED_COMPLETION_TOKENS * CHARS_PER_TOKEN / 10)
    return notes_text([[point]] * parts)


async def judge_summary_long(
    evaluator: SummaryJudging, item: SummaryData, window: int, run: ItemRun
) -> tuple[SummaryResult, dict[str, Any]]:
    """Judge `item` by chunks: excerpts per claim, and notes per chunk for relevance."""
    parts = _summary_parts(evaluator, item, window)
    chunks, selected = parts.chunks, parts.selected
    seen = sum(chunks[i].end - chunks[i].start for i in selected) / max(1, len(item.input))
    names = evaluator.enabled_metrics
    direct = [m for m in names if m != "relevance"]
    results: dict[str, Any] = {}
    if direct:
        results.update(await run.execute(_only(evaluator, item, parts.excerpts, direct)))
    notes_made = 0
    if "relevance" in names:
        calls = notes_calls([c.text for c in chunks], evaluator.options.language)
        notes = await asyncio.gather(*(run.ask(c) for c in calls))
        notes_made = len(notes)
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
        "notes_calls": notes_made,
    }
    return evaluator.assemble(item, results), context


def summary_long_requests(
    evaluator: SummaryJudging, item: SummaryData, window: int
) -> list[JudgeRequest]:
    """The first-try requests `judge_summary_long` sends, for a dry run.

    The relevance request depends on the notes' replies; it is sized with `stand_in_notes`.
    """
    parts = _summary_parts(evaluator, item, window)
    names = evaluator.enabled_metrics
    direct = [m for m in names if m != "relevance"]
    requests = requests_of(flatten(_only(evaluator, item, parts.excerpts, direct)))
    if "relevance" in names:
        calls = notes_calls([c.text for c in parts.chunks], evaluator.options.language)
        digest = stand_in_notes(len(calls))
        requests += [c.request for c in calls]
        requests += requests_of(flatten(_only(evaluator, item, digest, ["relevance"])))
    return requests


def _only(
    evaluator: SummaryJudging, item: SummaryData, source: str, metrics: Sequence[str]
) -> list[list[Any]]:
    """The default-layout plans of `metrics`, judged against `source` in place of the item's."""
    o, caps = evaluator.options, evaluator.capabilities
    return [[SUMMARY_METRICS[m].plan(source, item.summary, o, caps) for m in metrics]]
