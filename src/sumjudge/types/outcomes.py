"""Autoevaluation results: typed values whose `to_dict` gives the specification's JSON.

The specification prints `is_addressed` and `is_covered` as the strings "True"/"False" and
`is_accurate` as a JSON boolean; the Python objects hold booleans throughout and only
`to_dict` follows the printed shapes. Scores are percentages rounded to two decimals;
`None` means not applicable (with a `reason`) or failed (with an `error`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..protocol import Usage
from ._metrics_result import MetricsResult
from .summary import MetricResult

__all__ = [
    "AccuracyPoint",
    "AutoEvalResult",
    "CompletenessRubric",
    "ContentItem",
    "MetricOutcome",
    "RubricAnswer",
    "SectionOutcome",
    "percent",
]


def percent(numerator: int, denominator: int) -> float | None:
    """`numerator / denominator` as a percentage with two decimals; None for 0/0."""
    return None if denominator == 0 else round(100.0 * numerator / denominator, 2)


def _flag(value: bool) -> str:
    return "True" if value else "False"


@dataclass(frozen=True)
class AccuracyPoint:
    """One atomic point of the summary and whether the transcript bears it out.

    `turns` and `quote` are the evidence the judge cited; `quote_verified` says whether the
    quote really occurs in the transcript (None: no quote given). `flags` lists problems
    with the evidence (an unverifiable quote, a turn number that does not exist).
    """

    point: str
    accuracy: str
    is_accurate: bool
    section: str
    turns: tuple[int, ...] = ()
    quote: str = ""
    quote_verified: bool | None = None
    flags: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The point's JSON; `flags` only when there are any."""
        out: dict[str, Any] = {
            "point": self.point,
            "accuracy": self.accuracy,
            "is_accurate": self.is_accurate,
            "section": self.section,
            "turns": list(self.turns),
            "quote": self.quote,
            "quote_verified": self.quote_verified,
        }
        if self.flags:
            out["flags"] = list(self.flags)
        return out


class _FlagRow:
    """A row the specification prints field by field, its one boolean as "True"/"False"."""

    def to_dict(self) -> dict[str, Any]:
        """The row's JSON: every field in order, a boolean as the string "True" or "False"."""
        return {k: _flag(v) if isinstance(v, bool) else v for k, v in vars(self).items()}


@dataclass(frozen=True)
class RubricAnswer(_FlagRow):
    """One adherence question with the judge's (or the deterministic check's) answer."""

    question: str
    reasoning: str
    is_addressed: bool


@dataclass(frozen=True)
class ContentItem(_FlagRow):
    """One piece of transcript content a completeness question asks for."""

    transcript_content: str
    related_content_from_summary: str
    is_covered: bool


@dataclass(frozen=True)
class CompletenessRubric:
    """One completeness question and the transcript content that relates to it.

    An empty `content_list` means the transcript holds nothing for this question: the
    question is reported but does not count towards the score.
    """

    question: str
    content_list: tuple[ContentItem, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The question's JSON, with its content list."""
        return {
            "question": self.question,
            "content_list": [c.to_dict() for c in self.content_list],
        }


@dataclass(frozen=True)
class SectionOutcome:
    """One metric's outcome for one summary section.

    Attributes:
        section: the section's name.
        numerator, denominator: what the percentage is made of (accurate points / points,
            addressed questions / questions, covered items / items).
        reason: why the metric does not apply (N/A); `score` is then None.
        error: why the metric could not be judged; `score` is then None.
        rubrics: the adherence answers or completeness questions.
        check: the deterministic categorical check, for categorical sections.
        note: why an applicable section has no score (nothing to count).
    """

    section: str
    numerator: int = 0
    denominator: int = 0
    reason: str | None = None
    error: str | None = None
    rubrics: tuple[RubricAnswer | CompletenessRubric, ...] = ()
    check: Mapping[str, Any] | None = None
    note: str | None = None

    @property
    def applicable(self) -> bool:
        """Whether the metric applies to the section (it has no N/A `reason`)."""
        return self.reason is None

    @property
    def score(self) -> float | None:
        """`numerator / denominator` as a percentage; None when N/A, failed or 0/0."""
        if self.reason is not None or self.error is not None:
            return None
        return percent(self.numerator, self.denominator)

    def to_dict(self, counts: tuple[str, str]) -> dict[str, Any]:
        """The section's JSON; an N/A or failed section gives only its score and why.

        Args:
            counts: the keys of the numerator and the denominator, e.g.
                `("accurate", "points")`.
        """
        out: dict[str, Any] = {"score": self.score}
        if self.reason is not None:
            out["reason"] = self.reason
            return out
        if self.error is not None:
            out["error"] = self.error
            return out
        if self.note is not None:
            out["note"] = self.note
        out[counts[1]] = self.denominator
        out[counts[0]] = self.numerator
        if self.check is not None:
            out["categorical_check"] = dict(self.check)
        if self.rubrics or counts[1] != "points":
            out["rubrics"] = [r.to_dict() for r in self.rubrics]
        return out


_COUNTS = {
    "accuracy": ("accurate", "points"),
    "adherence": ("addressed", "questions"),
    "completeness": ("covered", "items"),
}


@dataclass(frozen=True)
class MetricOutcome:
    """One autoevaluation metric's result for one summary.

    The metric's `score` pools its applicable sections: accurate points / all points,
    addressed questions / all questions, covered items / all items.
    """

    name: str
    version: str
    sections: dict[str, SectionOutcome] = field(default_factory=dict)
    decomposition: tuple[AccuracyPoint, ...] = ()
    reason: str | None = None
    error: str | None = None
    raw_reply: str | None = None
    mode: str = "judge"
    usage: Usage = field(default_factory=Usage)
    calls: int = 0

    @property
    def numerator(self) -> int:
        """The sum of the numerators of the sections that are neither N/A nor failed."""
        return sum(s.numerator for s in self._scored())

    @property
    def denominator(self) -> int:
        """The sum of the denominators of the sections that are neither N/A nor failed."""
        return sum(s.denominator for s in self._scored())

    def _scored(self) -> list[SectionOutcome]:
        return [s for s in self.sections.values() if s.reason is None and s.error is None]

    @property
    def score(self) -> float | None:
        """The pooled percentage over the scored sections; None when N/A, failed or 0/0."""
        if self.reason is not None or self.error is not None:
            return None
        return percent(self.numerator, self.denominator)

    @property
    def not_applicable_reason(self) -> str | None:
        """Why there is no score although nothing failed."""
        if self.reason is not None:
            return self.reason
        if self.error is None and self.score is None and self._scored():
            return {
                "accuracy": "the summary has no checkable points",
                "adherence": "no rubric question applies",
                "completeness": "the transcript holds no content for any question",
            }.get(self.name, "nothing to score")
        if self.error is None and self.score is None:
            return "no section could be scored"
        return None

    def to_dict(self) -> dict[str, Any]:
        """The metric's JSON: score, counts and sections; accuracy adds its decomposition."""
        counts = _COUNTS.get(self.name, ("passed", "total"))
        out: dict[str, Any] = {"score": self.score}
        reason = self.not_applicable_reason
        if reason is not None:
            out["reason"] = reason
        if self.error is not None:
            out["error"] = self.error
            if self.raw_reply:
                out["raw_reply"] = self.raw_reply
        if self.name == "accuracy":
            out["decomposition"] = [p.to_dict() for p in self.decomposition]
            unverified = sum(1 for p in self.decomposition if p.quote_verified is False)
            out["unverified_quotes"] = unverified
        if self.error is None and self.reason is None:
            out[counts[1]] = self.denominator
            out[counts[0]] = self.numerator
        out["sections"] = {n: s.to_dict(counts) for n, s in self.sections.items()}
        out["version"] = self.version
        out["mode"] = self.mode
        return out


@dataclass(frozen=True)
class AutoEvalResult(MetricsResult):
    """All requested metrics for one conversation's summary."""

    metrics: dict[str, MetricOutcome | MetricResult]
    id: str | None = None

    @property
    def calls(self) -> int:
        """Judge calls made for every metric."""
        return sum(m.calls for m in self.metrics.values())

    @property
    def errors(self) -> dict[str, str]:
        """Metrics that failed, with why (a failed section also fails its metric)."""
        return {name: m.error for name, m in self.metrics.items() if m.error}

    def to_dict(self) -> dict[str, Any]:
        """The JSON of every requested metric (and the item's `id`, when it has one)."""
        out: dict[str, Any] = {}
        if self.id is not None:
            out["id"] = self.id
        for name, m in self.metrics.items():
            out[name] = m.to_dict()
        return out

    def record_body(self) -> dict[str, Any]:
        """What a batch record shows of the result (the record carries the id itself)."""
        body = self.to_dict()
        body.pop("id", None)
        return body

    def record_meta(self) -> dict[str, Any]:
        """The result's own entries in the record's `meta`: calls, then usage."""
        return {"calls": self.calls, **super().record_meta()}

    def flat_columns(self) -> dict[str, Any]:
        """One flat row of per-metric scores (for DataFrames and CSV)."""
        return {f"{name}_score": m.score for name, m in self.metrics.items()}
