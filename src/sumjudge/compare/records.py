"""Result records read for a comparison: one `Item` per row of a results file.

Understood shapes (the same as the report's): `sumjudge evaluate` records
(`{"index", "id"?, "status", "summary": {"relevancy_rating", "<metric>": {"score",
"weighted_score"?, "explanation"}}}`), `sumjudge autoeval` records (`{"index", "id"?,
"status", "accuracy": {"score", ...}, ...}`), and the flat rows of
`evaluate_dataframe` (`status`, `relevancy_rating`, `<metric>_score`,
`<metric>_explanation`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

from ..jsonl import json_objects

__all__ = ["Item", "MetricValue", "Results", "attach_inputs", "read_items"]

Results = Any  # a path, an iterable of records / mappings, or a pandas DataFrame

_SPEC_KEYS = frozenset(
    {"global_explanation", "relevancy_rating", "score", "possible_issues", "binary_score",
     "avg_score"}
)  # fmt: skip
_RECORD_KEYS = frozenset(
    {"index", "id", "status", "meta", "error", "failures", "summary", "human", "dataset",
     "source_id", "system", "source", "input", "transcript"}
)  # fmt: skip
PERCENT_METRICS = frozenset({"accuracy", "adherence", "completeness"})


@dataclass(frozen=True)
class MetricValue:
    """One metric of one item: its integer/percentage score, weighted score, explanation."""

    score: float | None
    weighted: float | None = None
    explanation: str = ""
    distribution: dict[int, float] | None = None


@dataclass
class Item:
    """One row of a results file, reduced to what a comparison reads.

    Attributes:
        index: the row's 0-based position in its input.
        id: the input's id, when it had one.
        status: "ok", "failed", "invalid" or "not_run".
        rating: good / incomplete / bad (summaries only).
        metrics: each scored metric's value, by name.
        source_key: a hash of the source text when the record carries it.
        group: the source document (`source_id`, else the source hash), for the bootstrap.
        summary: the summary text when the record carries it.
        explanation: the record's global explanation, if any.
        uncertain: the record's `uncertain` flag (docs/noise.md), when it has one.
    """

    index: int
    id: str | None
    status: str
    rating: str | None = None
    uncertain: bool | None = None
    metrics: dict[str, MetricValue] = field(default_factory=dict)
    source_key: str | None = None
    group: str | None = None
    summary: str | None = None
    explanation: str = ""


def read_items(results: Results, *, name: str = "results") -> list[Item]:
    """The items of `results`: a JSONL path, records (`Record` or dicts) or a DataFrame.

    Raises:
        ValueError: a line that is not JSON, naming the file and line.
    """
    if isinstance(results, (str, PathLike)):
        return [_item(row, pos) for pos, row in enumerate(_read_jsonl(Path(results)))]
    if hasattr(results, "to_dict") and hasattr(results, "columns"):  # a pandas DataFrame
        rows: list[Mapping[str, Any]] = results.to_dict(orient="records")
        return [_flat_item(row, pos) for pos, row in enumerate(rows)]
    items: list[Item] = []
    for pos, record in enumerate(results):
        to_dict = getattr(record, "to_dict", None)
        data = to_dict() if callable(to_dict) else record
        if not isinstance(data, Mapping):
            raise ValueError(f"{name}: item {pos} is not a record (got {type(data).__name__})")
        items.append(_item(data, pos))
    return items


def _read_jsonl(path: Path) -> Iterable[Mapping[str, Any]]:
    def bad_line(lineno: int, problem: str) -> ValueError:
        return ValueError(f"{path}: line {lineno} {problem}")

    return (obj for _, obj in json_objects(path, bad_line))


def _status(record: Mapping[str, Any]) -> str:
    status = record.get("status")
    if isinstance(status, str):
        return status
    return "invalid" if record.get("error") else "ok"


def _texts(item: Item, record: Mapping[str, Any]) -> None:
    source = record.get("source", record.get("input", record.get("transcript")))
    if source is not None:
        text = source if isinstance(source, str) else json.dumps(source, sort_keys=True)
        item.source_key = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    sid = record.get("source_id")
    item.group = str(sid) if sid is not None else item.source_key
    summary = record.get("summary")
    if isinstance(summary, str):
        item.summary = summary


def _item(record: Mapping[str, Any], pos: int) -> Item:
    index = record.get("index")
    rid = record.get("id")
    item = Item(
        index=index if isinstance(index, int) and not isinstance(index, bool) else pos,
        id=None if rid is None else str(rid),
        status=_status(record),
    )
    _texts(item, record)
    body = record.get("summary")
    if isinstance(body, Mapping):
        rating = body.get("relevancy_rating")
        item.rating = str(rating) if rating is not None else None
        item.explanation = str(body.get("global_explanation") or "")
        flag = body.get("uncertain")
        item.uncertain = flag if isinstance(flag, bool) else None
        for metric, value in body.items():
            if metric not in _SPEC_KEYS and isinstance(value, Mapping):
                _metric(item, metric, value)
    for metric, value in record.items():
        if metric not in _RECORD_KEYS and isinstance(value, Mapping) and "score" in value:
            _metric(item, metric, value)
    return item


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return None if value != value else float(value)  # NaN (a DataFrame's missing) is None


def _metric(item: Item, name: str, value: Mapping[str, Any]) -> None:
    explanation = value.get("explanation") or value.get("reason") or value.get("error") or ""
    if not explanation and name == "accuracy" and isinstance(value.get("points"), int):
        explanation = f"{value.get('accurate')} of {value['points']} points accurate"
    item.metrics[name] = MetricValue(
        score=_number(value.get("score")),
        weighted=_number(value.get("weighted_score")),
        explanation=str(explanation),
        distribution=_distribution(value.get("distribution")),
    )


def _distribution(value: Any) -> dict[int, float] | None:
    """A metric's `distribution` (`{"1": p1, ...}`, docs/noise.md), or None."""
    if not isinstance(value, Mapping) or not value:
        return None
    out: dict[int, float] = {}
    for key, p in value.items():
        number = _number(p)
        if not str(key).isdigit() or number is None:
            return None
        out[int(key)] = number
    return out


def _flat_item(row: Mapping[str, Any], pos: int) -> Item:
    rid = row.get("id")
    status = row.get("status")
    item = Item(
        index=pos,
        id=None if rid is None or rid != rid else str(rid),
        status=status if isinstance(status, str) else "ok",
    )
    rating = row.get("relevancy_rating")
    item.rating = rating if isinstance(rating, str) else None
    _texts(item, row)
    for column, value in row.items():
        if column.endswith("_score") and column not in ("avg_score", "binary_score"):
            metric = column[: -len("_score")]
            explanation = row.get(f"{metric}_explanation")
            item.metrics[metric] = MetricValue(
                score=_number(value),
                explanation=explanation if isinstance(explanation, str) else "",
            )
    return item


def attach_inputs(items: list[Item], inputs: str | PathLike[str] | None) -> None:
    """Take each item's source and summary text from its input row (JSONL).

    Rows match by `id`, else by position. The texts serve the report and the grouping of
    items by source document; the statistics do not depend on them otherwise.
    """
    if inputs is None:
        return
    rows = list(_read_jsonl(Path(inputs)))
    by_id = {str(r["id"]): r for r in rows if r.get("id") is not None}
    for item in items:
        row = by_id.get(item.id) if item.id is not None else None
        if row is None and item.id is None and 0 <= item.index < len(rows):
            row = rows[item.index]
        if row is not None:
            _texts(item, row)
