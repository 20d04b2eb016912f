"""What the report shows, as plain dataclasses built from result records by `report.model`.

The renderers (`report.detail`, `report.html`) read only these, never raw record JSON, so
a change in the record format stays inside `report.model`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "Claim",
    "ContentRow",
    "ItemView",
    "MetricView",
    "RubricRow",
    "SectionView",
    "TurnView",
]


@dataclass
class MetricView:
    """One metric's outcome on one item.

    Attributes:
        name: The metric's name.
        value: The score on the metric's own scale (1-3 for judge scores, 0-100 for
            autoevaluation percentages); `None` when unscored.
        unit: Which scale `value` is on: `"1-3"` or `"%"`.
        weighted: The logprob-weighted score, when the judge returned logprobs.
        explanation: The judge's explanation.
        error: Why the metric failed; `None` when it did not.
        reason: Why the metric does not apply (an N/A score).
        evidence: Evidence lines (the offline judge quotes the source in them).
        mode: How the score was produced (e.g. the score mode), when the record says.
        unscored_sections: `(section, reason, error)` for each section that is N/A or
            failed and is not shown elsewhere (accuracy has no per-section tables).
        spread: The standard deviation of repeated judgments (`samples`), if any.
        confidence: The probability of the score from the score token's logprobs.
        panel: `(judge, score)` of each panel member, when a panel judged.
    """

    name: str
    value: float | None = None
    unit: str = "1-3"
    weighted: float | None = None
    explanation: str | None = None
    error: str | None = None
    reason: str | None = None
    evidence: list[str] = field(default_factory=list)
    mode: str | None = None
    unscored_sections: list[tuple[str, str | None, str | None]] = field(default_factory=list)
    spread: float | None = None
    confidence: float | None = None
    panel: list[tuple[str, float | None]] = field(default_factory=list)


@dataclass
class Claim:
    """One point of the summary (autoevaluation accuracy) and the transcript evidence for it.

    Attributes:
        point: The point, as the summary makes it.
        accuracy: The judge's verdict text.
        is_accurate: Whether the transcript supports the point; `None` when unjudged.
        section: The summary section the point comes from.
        quote: The transcript passage cited as evidence.
        turns: The cited transcript turns (numbered from 1).
        quote_verified: Whether the quote was found in the transcript; `None` if unchecked.
        flags: Warnings about the claim (e.g. a quote not found).
    """

    point: str
    accuracy: str = ""
    is_accurate: bool | None = None
    section: str | None = None
    quote: str = ""
    turns: list[int] = field(default_factory=list)
    quote_verified: bool | None = None
    flags: list[str] = field(default_factory=list)


@dataclass
class ContentRow:
    """One completeness content item: something the transcript says, and if it is covered.

    Attributes:
        transcript_content: What the transcript says.
        summary_content: The related text of the summary, if any.
        covered: Whether the summary covers it; `None` when the record does not say.
    """

    transcript_content: str
    summary_content: str
    covered: bool | None


@dataclass
class RubricRow:
    """One adherence question or completeness question.

    Attributes:
        question: The rubric question.
        reasoning: The judge's reasoning.
        passed: Whether the section satisfies it; for completeness, when the record does not
            say, whether every content item is covered.
        content: Completeness content items (empty for adherence).
    """

    question: str
    reasoning: str = ""
    passed: bool | None = None
    content: list[ContentRow] = field(default_factory=list)


@dataclass
class SectionView:
    """One summary section's outcome for adherence or completeness.

    Attributes:
        name: The section's name.
        score: The section's percentage; `None` when N/A or failed.
        reason: Why the section is N/A.
        error: Why judging the section failed.
        counts: E.g. `"3/4 addressed"`; empty when the record has no counts.
        note: A note the evaluator attached.
        check: The categorical check's results, as `key: value` pairs.
        rubrics: The section's questions and their outcomes.
    """

    name: str
    score: float | None = None
    reason: str | None = None
    error: str | None = None
    counts: str = ""
    note: str | None = None
    check: str | None = None
    rubrics: list[RubricRow] = field(default_factory=list)


@dataclass
class TurnView:
    """One transcript turn.

    Attributes:
        number: The turn's number, from 1 (claims cite turns by it).
        speaker: The speaker's role or label; empty when unknown.
        text: What was said.
        detail: Speaker name and timestamp, when the transcript gives them.
    """

    number: int
    speaker: str
    text: str
    detail: str = ""


@dataclass
class ItemView:
    """Everything the report shows for one result record."""

    index: int
    id: str | None = None
    rating: str | None = None
    overall: float | None = None
    global_explanation: str | None = None
    possible_issues: list[str] = field(default_factory=list)
    metrics: dict[str, MetricView] = field(default_factory=dict)
    claims: list[Claim] = field(default_factory=list)
    rubric_sections: dict[str, list[SectionView]] = field(default_factory=dict)
    error: str | None = None
    human: dict[str, Any] = field(default_factory=dict)
    source: str | None = None
    turns: list[TurnView] = field(default_factory=list)
    summary: str | dict[str, str] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    rating_confidence: float | None = None
    uncertain: bool = False

    @property
    def failed_metrics(self) -> list[str]:
        """Names of the metrics that failed on this item (not those that were N/A)."""
        return [m.name for m in self.metrics.values() if m.error]
