"""People's labels joined with a judge's results, item by item, ready to fit and measure.

Labels and results meet on the item id. Several reviewers of one item are merged: the
mean of their values per metric, the most common rating (the latest among equals), their
notes joined. The texts (source and summary) come from the label file when it carries them
(meta-eval rows) or from the inputs the results were judged from.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import ConfigError
from .labels import Label, latest

__all__ = ["JudgedScore", "LabelledItem", "join", "judge_of"]


@dataclass(frozen=True)
class JudgedScore:
    """What the judge said on one metric: its 1-3, and its continuous scores if any."""

    score: int
    weighted: float | None = None
    raw: float | None = None


@dataclass(frozen=True)
class LabelledItem:
    """One item with both a person's labels and the judge's verdict.

    Attributes:
        id: The item id.
        group: The source document (cross-validation folds never split one).
        human: The people's value per metric (merged over reviewers).
        rating: The people's rating, when given.
        note: Their notes, joined.
        judge: The judge's verdict per metric.
        judge_rating: The judge's rating.
        source: The source text, when known.
        summary: The summary text, when known.
    """

    id: str
    group: str
    human: Mapping[str, float]
    rating: str | None
    note: str
    judge: Mapping[str, JudgedScore]
    judge_rating: str | None
    source: str | None = None
    summary: str | None = None
    reviewers: tuple[str, ...] = field(default_factory=tuple)


def judge_of(records: Sequence[Mapping[str, Any]], name: str) -> tuple[str, str | None]:
    """The one judge (name, version) that produced `records`.

    Raises:
        ConfigError: No record names a judge, or records name more than one.
    """
    judges: Counter[tuple[str, str | None]] = Counter()
    for r in records:
        meta = r.get("meta") or {}
        if meta.get("judge"):
            versions = set((meta.get("metric_versions") or {}).values())
            version = versions.pop() if len(versions) == 1 else None
            judges[(str(meta["judge"]), version)] += 1
    if not judges:
        raise ConfigError(f"{name}: no record names its judge (is it a results file?)")
    names = {j for j, _ in judges}
    if len(names) > 1:
        raise ConfigError(
            f"{name}: results from several judges ({', '.join(sorted(names))}); "
            "calibrate one judge at a time"
        )
    return judges.most_common(1)[0][0]


def join(
    labels: Iterable[Label],
    records: Sequence[Mapping[str, Any]],
    texts: Mapping[str, tuple[str, str]] | None = None,
) -> list[LabelledItem]:
    """The labelled items that the judge judged, in the results' order.

    Args:
        labels: Every label (a reviewer's later label replaces their earlier one).
        records: The judge's result records (`evaluate -o` or `meta-eval -o` lines).
        texts: Source and summary per item id, when the labels do not carry them.
    """
    by_id: dict[str, list[Label]] = {}
    for label in latest(labels).values():
        by_id.setdefault(label.id, []).append(label)
    out: list[LabelledItem] = []
    for record in records:
        rid = record.get("id")
        if rid is None or str(rid) not in by_id or record.get("status", "ok") != "ok":
            continue
        judged = _judged(record)
        if not judged:
            continue
        mine = by_id[str(rid)]
        source, summary = _texts(mine, texts, str(rid))
        group = next((x.source_id for x in mine if x.source_id), None) or record.get("source_id")
        out.append(
            LabelledItem(
                id=str(rid),
                group=str(group or rid),
                human=_merged_values(mine, judged),
                rating=_rating(mine),
                note=" / ".join(x.note.strip() for x in mine if x.note.strip()),
                judge=judged,
                judge_rating=(record.get("summary") or {}).get("relevancy_rating"),
                source=source,
                summary=summary,
                reviewers=tuple(sorted({x.reviewer for x in mine})),
            )
        )
    return out


def _judged(record: Mapping[str, Any]) -> dict[str, JudgedScore]:
    body = record.get("summary") or {}
    out: dict[str, JudgedScore] = {}
    for name, value in body.items():
        if not isinstance(value, dict) or not isinstance(value.get("score"), int):
            continue
        out[name] = JudgedScore(
            score=int(value["score"]),
            weighted=_float(value.get("weighted_score")),
            raw=_float(value.get("raw")),
        )
    return out


def _merged_values(labels: Sequence[Label], judged: Mapping[str, JudgedScore]) -> dict[str, float]:
    values: dict[str, list[float]] = {}
    for label in labels:
        for metric in set(label.scores) | set(label.agree):
            # An "agree" given before the judge's score was recorded agrees with this one.
            v = label.value(metric)
            if v is None and label.agree.get(metric) and metric in judged:
                v = float(judged[metric].score)
            if v is not None:
                values.setdefault(metric, []).append(v)
    return {m: sum(v) / len(v) for m, v in values.items()}


def _rating(labels: Sequence[Label]) -> str | None:
    ratings = [x.rating for x in labels if x.rating]
    if not ratings:
        return None
    counts = Counter(ratings)
    top = max(counts.values())
    return next(r for r in reversed(ratings) if counts[r] == top)


def _texts(
    labels: Sequence[Label], texts: Mapping[str, tuple[str, str]] | None, rid: str
) -> tuple[str | None, str | None]:
    for label in labels:
        if label.source is not None and label.summary is not None:
            return label.source, label.summary
    if texts and rid in texts:
        return texts[rid]
    return None, None


def _float(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)
