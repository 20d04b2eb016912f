"""What `sumjudge review` reads: judged items from a results file (+ inputs), and a label log.

Every problem is one `DataError` naming the file and line (the CLI prints it, exit 2):
a line that is not JSON, a file with no judged record (an input file given as RESULTS),
inputs none of whose ids are in the results, two results with one id (labels are keyed
by id), a label file with a line that is not a review label.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from os import PathLike
from pathlib import Path
from typing import Any

from ..align import LABEL_SCHEMA, Label, read_labels
from ..errors import DataError
from ..jsonl import json_objects
from ..report.model import build_items
from ..report.views import ItemView
from ..types.profile import CalibrationProfile
from .order import Signals, raw_margin

__all__ = ["ReviewItem", "default_labels_path", "item_key", "load_items", "load_labels"]

_OFFLINE_MODES = {"local": "full", "local-lexical": "lexical"}


@dataclass
class ReviewItem:
    """One judged item as the review shows and labels it.

    Attributes:
        key: The id labels use: the record's id, else `#<index>`.
        view: What the report model made of the record and its input row.
        signals: The judge's signals for ordering.
        judge: The judge's name, scores and rating (stored with each label).
        source_id: The source document, when the record or its input row gives it.
        calibrated: The record was judged with a calibration profile.
    """

    key: str
    view: ItemView
    signals: Signals
    judge: dict[str, Any] = field(default_factory=dict)
    source_id: str | None = None
    calibrated: bool = False


def item_key(view: ItemView) -> str:
    """The id a label of `view` carries: its id, else `#` and its row index."""
    return view.id if view.id is not None else f"#{view.index}"


def default_labels_path(results: str | PathLike[str]) -> Path:
    """`results.jsonl` -> `results.labels.jsonl`, beside it."""
    path = Path(results)
    stem = path.stem if path.suffix in (".jsonl", ".json", ".ndjson") else path.name
    return path.with_name(f"{stem}.labels.jsonl")


def _objects(path: str | PathLike[str], what: str) -> list[tuple[int, dict[str, Any]]]:
    def bad_line(lineno: int, problem: str) -> DataError:
        return DataError(f"{path}: line {lineno} {problem}; {what}", line=lineno)

    return list(json_objects(path, bad_line))


def load_items(
    results: str | PathLike[str],
    inputs: str | PathLike[str] | None = None,
    profile: CalibrationProfile | None = None,
) -> list[ReviewItem]:
    """The judged items of a results JSONL, joined with the input rows when given.

    Records without any metric (invalid input rows) are left out. `profile` is the
    calibration profile the results were judged with, if any: a calibrated offline judge
    scores with the profile's cut points, so the `uncertain` order measures distances to
    those; without it, a calibrated record has no cut-point distance (the shipped cut
    points would rank it wrongly) and the order falls back on its other signals.

    Raises:
        DataError: See the module docstring.
    """
    expect = "RESULTS must be the JSONL written by sumjudge evaluate or autoeval"
    records = _objects(results, expect)
    rows = None
    if inputs is not None:
        rows = [row for _, row in _objects(inputs, "--inputs must be a JSONL file")]
        _check_inputs_match(results, inputs, [r for _, r in records], rows)
    views = build_items([r for _, r in records], rows)
    items: list[ReviewItem] = []
    seen: dict[str, int] = {}
    for (lineno, record), view in zip(records, views, strict=True):
        if not view.metrics:
            continue
        key = item_key(view)
        if key in seen:
            raise DataError(
                f"{results}: line {lineno}: id {key!r} is also on line {seen[key]}; labels "
                "are kept by id, so every result needs its own id",
                line=lineno,
            )
        seen[key] = lineno
        _check_profile(results, lineno, record, profile)
        items.append(_review_item(key, len(items), view, record, rows, profile))
    if not items:
        raise DataError(
            f"{results}: no judged record (no line has metric scores); {expect}, "
            "not the input file (give that with --inputs)"
        )
    return items


def _check_inputs_match(
    results: str | PathLike[str],
    inputs: str | PathLike[str],
    records: Sequence[Mapping[str, Any]],
    rows: Sequence[Mapping[str, Any]],
) -> None:
    input_ids = {str(r["id"]) for r in rows if r.get("id") is not None}
    result_ids = {str(r["id"]) for r in records if r.get("id") is not None}
    if input_ids and result_ids and not input_ids & result_ids:
        raise DataError(
            f"{inputs}: none of its {len(input_ids)} ids is an id in {results} "
            "(give the input file these results were judged from)"
        )
    if not rows:
        raise DataError(f"{inputs}: no rows (give the input file the results were judged from)")


def _check_profile(
    results: str | PathLike[str],
    lineno: int,
    record: Mapping[str, Any],
    profile: CalibrationProfile | None,
) -> None:
    used = _calibration_of(record)
    if profile is not None and used is not None and used != profile.id:
        raise DataError(
            f"{results}: line {lineno}: judged with calibration {used!r}, not with the "
            f"given profile {profile.id!r} (give the profile these results were judged with)",
            line=lineno,
        )


def _calibration_of(record: Mapping[str, Any]) -> str | None:
    meta = record.get("meta")
    used = meta.get("calibration") if isinstance(meta, Mapping) else None
    return None if used is None else str(used)


def _review_item(
    key: str,
    position: int,
    view: ItemView,
    record: Mapping[str, Any],
    rows: Sequence[Mapping[str, Any]] | None,
    profile: CalibrationProfile | None = None,
) -> ReviewItem:
    scores = {m.name: m.value for m in view.metrics.values() if m.value is not None}
    judge_name = str(view.meta.get("judge") or "")
    signals = Signals(
        id=key,
        position=position,
        scores=scores,
        rating=view.rating,
        rating_confidence=view.rating_confidence,
        confidences={
            m.name: m.confidence for m in view.metrics.values() if m.confidence is not None
        },
        panel_ranges={
            m.name: max(s) - min(s)
            for m in view.metrics.values()
            if (s := [v for _, v in m.panel if v is not None])
        },
        spreads={m.name: m.spread for m in view.metrics.values() if m.spread is not None},
        raw_margins=_raw_margins(record, judge_name, scores, profile),
        uncertain=view.uncertain,
        evidence=sum(len(m.evidence) for m in view.metrics.values()),
    )
    judge = {"name": judge_name, "scores": scores, "rating": view.rating}
    return ReviewItem(
        key,
        view,
        signals,
        judge,
        _source_id(record, view, rows),
        calibrated=_calibration_of(record) is not None,
    )


def _source_id(
    record: Mapping[str, Any], view: ItemView, rows: Sequence[Mapping[str, Any]] | None
) -> str | None:
    if record.get("source_id") is not None:
        return str(record["source_id"])
    for row in rows or ():
        if view.id is not None and str(row.get("id")) == view.id:
            return None if row.get("source_id") is None else str(row["source_id"])
    if rows is not None and view.id is None and 0 <= view.index < len(rows):
        value = rows[view.index].get("source_id")
        return None if value is None else str(value)
    return None


def _raw_margins(
    record: Mapping[str, Any],
    judge: str,
    scores: Mapping[str, float],
    profile: CalibrationProfile | None = None,
) -> dict[str, float]:
    """Per metric, the offline `raw` score's distance to its model's nearest cut point."""
    body = record.get("summary")
    if not isinstance(body, Mapping) or judge not in _OFFLINE_MODES:
        return {}
    calibrated = _calibration_of(record) is not None
    if calibrated and profile is None:
        return {}  # its cut points are in a profile we were not given
    out: dict[str, float] = {}
    for metric, value in body.items():
        raw = value.get("raw") if isinstance(value, Mapping) else None
        if isinstance(raw, bool) or not isinstance(raw, (int, float)):
            continue
        refitted = _profile_cuts(profile, str(metric)) if calibrated else None
        candidates = (
            refitted if refitted is not None else _offline_cuts(_OFFLINE_MODES[judge], str(metric))
        )
        # Consistency has a second model for dialogue sources; the record does not say
        # which one scored it, but only the right one's cut points give back its score.
        fitting = [c for c in candidates if _bin(float(raw), c) == scores.get(str(metric))]
        cuts = (fitting or candidates)[:1]
        if cuts:
            out[str(metric)] = raw_margin(float(raw), cuts[0])
    return out


def _bin(raw: float, cuts: tuple[float, float]) -> int:
    return 1 if raw < cuts[0] else 2 if raw < cuts[1] else 3


def _profile_cuts(
    profile: CalibrationProfile | None, metric: str
) -> list[tuple[float, float]] | None:
    """The cut points of a profile's refitted offline models of `metric`.

    None when the profile did not refit `metric`: the shipped cut points apply.
    """
    entry = profile.metrics.get(metric) if profile is not None else None
    if entry is None or not (entry.offline_model or entry.offline_dialogue_model):
        return None
    return _cuts_of([entry.offline_model, entry.offline_dialogue_model])


def _cuts_of(models: Sequence[Any]) -> list[tuple[float, float]]:
    return [
        (float(m["cuts"][0]), float(m["cuts"][1]))
        for m in models
        if isinstance(m, Mapping) and len(m.get("cuts", ())) == 2
    ]


@lru_cache(maxsize=16)
def _offline_cuts(mode: str, metric: str) -> list[tuple[float, float]]:
    from ..offline.calibration import load_params

    params = load_params()
    return _cuts_of(
        [
            params.get("models", {}).get(mode, {}).get(metric),
            params.get(f"dialogue_{metric}", {}).get(mode),
        ]
    )


def load_labels(path: str | PathLike[str]) -> list[Label]:
    """The labels of a review log (none when the file does not exist yet).

    Raises:
        DataError: A line that is not a review label (e.g. a meta-eval file given as
            `--labels`: appending to it would mix two formats), naming the file and line.
    """
    p = Path(path)
    if not p.exists():
        return []
    lines = p.read_text(encoding="utf-8").split("\n")
    for i, text in enumerate(lines):
        if not text.strip():
            continue
        try:
            row = json.loads(text)
        except json.JSONDecodeError:
            break  # read_labels reports it with its line, or skips a last line cut short
        if not isinstance(row, dict) or row.get("schema") != LABEL_SCHEMA:
            raise DataError(
                f'{path}: line {i + 1} is not a review label (no "schema": '
                f'"{LABEL_SCHEMA}"); --labels must be a label log of sumjudge review '
                "or a new file",
                line=i + 1,
            )
    return read_labels(p)
