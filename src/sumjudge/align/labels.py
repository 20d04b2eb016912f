"""People's labels: one append-only JSONL log, and the readers of every label file.

A label is what one reviewer said about one judged item: their own 1-3 per metric (or
agree / disagree with the judge's score), a rating and a note. `sumjudge review` appends
one line per change the moment it is given (`LabelLog.append`: one `write` of a whole
line, flushed and fsync'ed), and never rewrites the file: the latest line of a reviewer
for an item is that reviewer's label (`latest`). A crash can at worst leave a last line
cut short; readers skip such a line with a warning instead of failing.

`read_labels` also reads the human-judged rows `sumjudge meta-eval` reads (`human:
{metric: value}` on any scale, with `source`, `summary` and `source_id`), so calibration
takes either.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from os import PathLike
from pathlib import Path
from typing import Any

from ..errors import DataError

__all__ = [
    "LABEL_SCHEMA",
    "RATINGS",
    "Label",
    "LabelLog",
    "latest",
    "read_labels",
]

#: The `schema` value of every line `sumjudge review` writes.
LABEL_SCHEMA = "sumjudge.label/1"
RATINGS: tuple[str, ...] = ("good", "incomplete", "bad")
_CUT_PREFIX = '{"schema": "' + LABEL_SCHEMA + '"'

_METRIC_RANGE = (1, 3)


@dataclass(frozen=True)
class Label:
    """One reviewer's judgment of one item.

    Attributes:
        id: The item's id (as in the results file).
        reviewer: Who gave it ("" for a dataset's anonymous annotators).
        scores: The person's value per metric: 1-3 from `review`, the dataset's own scale
            (1-5 means, 0/1) from a meta-eval file.
        agree: Per metric, whether the person agreed with the judge's score (review only).
        rating: good / incomplete / bad, or None.
        note: Free text (the reason; calibration uses it as a few-shot example's reason).
        at: When it was given (ISO 8601, UTC), "" when unknown.
        source_id: The source document (folds group by it); None when unknown.
        judge: What the judge said when the label was given (`{"name", "scores",
            "rating"}`), so later runs can tell a disagreement from a changed judge.
        source: The source text, when the label file carries it (meta-eval rows).
        summary: The summary text, likewise.
        dataset: The meta-eval row's dataset, when given.
    """

    id: str
    reviewer: str = ""
    scores: Mapping[str, float] = field(default_factory=dict)
    agree: Mapping[str, bool] = field(default_factory=dict)
    rating: str | None = None
    note: str = ""
    at: str = ""
    source_id: str | None = None
    judge: Mapping[str, Any] = field(default_factory=dict)
    source: str | None = None
    summary: str | None = None
    dataset: str | None = None

    def value(self, metric: str) -> float | None:
        """The person's value for `metric`: their score, else the judge's when they agreed."""
        if metric in self.scores:
            return self.scores[metric]
        if self.agree.get(metric):
            judged = (self.judge.get("scores") or {}).get(metric)
            return None if judged is None else float(judged)
        return None

    def to_json(self) -> dict[str, Any]:
        """The label as one line of a label log."""
        out: dict[str, Any] = {
            "schema": LABEL_SCHEMA,
            "id": self.id,
            "reviewer": self.reviewer,
            "at": self.at or _now(),
            "scores": {m: _number(v) for m, v in self.scores.items()},
            "agree": dict(self.agree),
            "rating": self.rating,
            "note": self.note,
        }
        if self.source_id is not None:
            out["source_id"] = self.source_id
        if self.judge:
            out["judge"] = dict(self.judge)
        return out


class LabelLog:
    """An append-only label file: every `append` adds one whole line, flushed to disk."""

    def __init__(self, path: str | PathLike[str]) -> None:
        self.path = Path(path)

    def append(self, label: Label) -> dict[str, Any]:
        """Append `label` (stamped with the time now when it has none); returns the line."""
        line = label.to_json()
        # "schema" stays the first key: a line cut by a crash is then recognisable as one.
        data = (json.dumps(line, ensure_ascii=False) + "\n").encode("utf-8")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # O_APPEND makes each write land at the end even with two writers; one write per
        # line keeps lines whole, and fsync makes "given" mean "on disk".
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            if _ends_without_newline(self.path):
                os.write(fd, b"\n")  # a line cut by a crash stays its own (skipped) line
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        return line

    def read(self) -> list[Label]:
        """Every label line in the file (none when it does not exist yet), in order."""
        return read_labels(self.path) if self.path.exists() else []


def latest(labels: Iterable[Label]) -> dict[tuple[str, str], Label]:
    """Each (id, reviewer)'s last label: later lines replace earlier ones."""
    out: dict[tuple[str, str], Label] = {}
    for label in labels:
        out.pop((label.id, label.reviewer), None)  # keep insertion order = time of last change
        out[(label.id, label.reviewer)] = label
    return out


def read_labels(path: str | PathLike[str]) -> list[Label]:
    """Labels from a review log or a meta-eval file (human-judged rows), in file order.

    Raises:
        DataError: A line is not JSON (other than a cut last line), or a row is neither a
            review label nor a human-judged row; the message names the file, line and field.
    """
    name = str(path)
    try:
        lines = Path(path).read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"{name}: cannot read the label file ({exc})") from None
    last = max((i for i, text in enumerate(lines) if text.strip()), default=-1)
    out: list[Label] = []
    for i, text in enumerate(lines):
        if not text.strip():
            continue
        try:
            row = json.loads(text)
        except json.JSONDecodeError as exc:
            # A line cut short by a crash while it was written: the last line, or (once
            # more labels were appended after it) a label line that does not parse.
            if i == last or text.startswith(_CUT_PREFIX):
                warnings.warn(f"{name}: line {i + 1} is incomplete; skipped", stacklevel=2)
                continue
            raise DataError(f"{name}: line {i + 1} is not valid JSON: {exc.msg}") from None
        out.append(_label(row, name, i + 1))
    return out


def _label(row: Any, name: str, lineno: int) -> Label:
    def bad(what: str, fld: str | None = None) -> DataError:
        where = f"{name}: line {lineno}" + (f", field {fld!r}" if fld else "")
        return DataError(f"{where}: {what}", line=lineno)

    if not isinstance(row, dict):
        raise bad("is not a JSON object")
    if row.get("id") is None:
        raise bad("has no id", "id")
    if row.get("schema") == LABEL_SCHEMA:
        return _review_label(row, bad)
    if isinstance(row.get("human"), dict):
        return _dataset_label(row, bad)
    raise bad(f"is neither a review label (schema {LABEL_SCHEMA!r}) nor a row with 'human'")


def _review_label(row: Mapping[str, Any], bad: Any) -> Label:
    scores: dict[str, float] = {}
    for metric, value in _mapping(row.get("scores"), "scores", bad).items():
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            raise bad(f"score of {metric!r} must be an integer 1-3", "scores")
        if not _METRIC_RANGE[0] <= value <= _METRIC_RANGE[1]:
            raise bad(f"score of {metric!r} must be 1-3 (got {value})", "scores")
        scores[str(metric)] = float(value)
    agree = {
        str(m): bool(v)
        for m, v in _mapping(row.get("agree"), "agree", bad).items()
        if v is not None
    }
    rating = row.get("rating")
    if rating is not None and rating not in RATINGS:
        raise bad(f"rating must be one of {', '.join(RATINGS)} (got {rating!r})", "rating")
    return Label(
        id=str(row["id"]),
        reviewer=str(row.get("reviewer") or ""),
        scores=scores,
        agree=agree,
        rating=rating,
        note=str(row.get("note") or ""),
        at=str(row.get("at") or ""),
        source_id=None if row.get("source_id") is None else str(row["source_id"]),
        judge=_mapping(row.get("judge"), "judge", bad),
    )


def _dataset_label(row: Mapping[str, Any], bad: Any) -> Label:
    scores: dict[str, float] = {}
    for metric, value in row["human"].items():
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise bad(f"human label of {metric!r} must be a number", "human")
        scores[str(metric)] = float(value)
    return Label(
        id=str(row["id"]),
        reviewer=str(row.get("reviewer") or ""),
        scores=scores,
        source_id=None if row.get("source_id") is None else str(row["source_id"]),
        source=None if row.get("source") is None else str(row["source"]),
        summary=None if row.get("summary") is None else str(row["summary"]),
        dataset=None if row.get("dataset") is None else str(row["dataset"]),
    )


def _mapping(value: Any, fld: str, bad: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise bad("must be a JSON object", fld)
    return dict(value)


def _ends_without_newline(path: Path) -> bool:
    try:
        with open(path, "rb") as handle:
            handle.seek(0, os.SEEK_END)
            if handle.tell() == 0:
                return False
            handle.seek(-1, os.SEEK_END)
            return handle.read(1) != b"\n"
    except FileNotFoundError:
        return False


def _number(value: float) -> float | int:
    """A whole number as an int (a 1-3 score read back as 2.0 is written as 2)."""
    return int(value) if float(value).is_integer() else value


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
