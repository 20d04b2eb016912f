"""The material of a judge request in structured form (`JudgeRequest.subject`).

An LLM reads the rendered messages; a judge that computes its verdict (the offline judge)
reads these values instead. They import nothing of ours (`protocol` re-exports them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, TypeAlias

__all__ = ["PairSubject", "ScoreSubject", "Subject", "TurnsSubject", "subject_payload"]


@dataclass(frozen=True)
class ScoreSubject:
    """The material of a 1-3 verdict: a summary and its source.

    Attributes:
        source: the source text (for a conversation, its turns' text, one per line).
        summary: the summary text.
        language: the explanation language asked for (None: the source's).
        metrics: the metrics whose verdicts the request asks for (one for "score").
    """

    source: str
    summary: str
    language: str | None = None
    metrics: tuple[str, ...] = ()


@dataclass(frozen=True)
class TurnsSubject:
    """The material of a conversation summary's check: the turns and the sections.

    Attributes:
        turns: each turn's text, in order (turn n is `turns[n - 1]`).
        sections: the sections to check, name -> text, in the summary's order.
        language: the explanation language asked for (None: the transcript's).
    """

    turns: tuple[str, ...]
    sections: Mapping[str, str]
    language: str | None = None


@dataclass(frozen=True)
class PairSubject:
    """The material of a pairwise comparison: a source and the two summaries shown."""

    source: str
    first: str
    second: str
    metric: str


Subject: TypeAlias = ScoreSubject | TurnsSubject | PairSubject
"""The material of a request in structured form (see `JudgeRequest.subject`)."""


def subject_payload(subject: Subject) -> dict[str, Any]:
    """`subject` as JSON values, for the fingerprint of a request without messages.

    Its type is named (two kinds of subject could hold equal values), and a mapping
    becomes a list of [name, text] pairs: the sections' order is part of what is judged.
    """
    out: dict[str, Any] = {"type": type(subject).__name__}
    for f in fields(subject):
        value = getattr(subject, f.name)
        out[f.name] = [[k, v] for k, v in value.items()] if isinstance(value, Mapping) else value
    return out
