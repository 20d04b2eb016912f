"""The report's view of result records: the `report.views` dataclasses, built defensively.

Two record shapes are understood, and anything else is shown as far as it goes:

* `sumjudge evaluate` records: `{"index", "id"?, "summary": {"relevancy_rating", ...,
  "<metric>": {"score", "explanation", "weighted_score"?, "evidence"?, "error"?}}, "meta"}`;
* `sumjudge autoeval` records: `{"index", "id"?, "accuracy": {"score", "decomposition":
  [...], "sections": {...}}, "adherence": {...}, "completeness": {...}, "meta"}`;

and either may be `{"index", "error": {"field", "message", "text"}}` for an unusable row.
Source texts are not in result records; they come from the record itself when present
(`source`/`input`/`transcript` and a text `summary`) or from the input rows given to
`build_items`, matched by `id` and then by position.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from os import PathLike
from typing import Any

from ..jsonl import json_lines
from ..text import parse_turn_line
from .highlight import clean
from .views import Claim, ContentRow, ItemView, MetricView, RubricRow, SectionView, TurnView

__all__ = ["build_items", "is_judged", "read_jsonl"]

SPEC_KEYS = frozenset(
    {
        "global_explanation",
        "relevancy_rating",
        "score",
        "possible_issues",
        "binary_score",
        "avg_score",
    }
)
AUTO_METRICS = ("accuracy", "adherence", "completeness")
_RECORD_KEYS = frozenset({"index", "id", "meta", "error", "summary", "human", "dataset",
                          "source_id", "system", "source", "input", "transcript"})  # fmt: skip


def read_jsonl(path: str | PathLike[str]) -> list[dict[str, Any]]:
    """JSON objects from a JSONL file (blank lines skipped; a bad line is a ValueError)."""

    def bad_line(lineno: int, message: str) -> ValueError:
        return ValueError(f"{path}: line {lineno} is not valid JSON: {message}")

    return [obj for _, obj in json_lines(path, bad_line) if isinstance(obj, dict)]


def is_judged(record: Mapping[str, Any]) -> bool:
    """Whether `record` is a result (a status, a judged body, a row error), not an input row.

    An input row has a text `summary` and no status; a result has `status`, a `summary`
    object, an `error` object or metric objects with a `score` or an `error`.
    """
    if "status" in record or isinstance(record.get("summary"), Mapping):
        return True
    if isinstance(record.get("error"), Mapping):
        return True
    return any(
        isinstance(value, Mapping) and ("score" in value or "error" in value)
        for name, value in record.items()
        if name not in _RECORD_KEYS
    )


def build_items(
    records: Iterable[Mapping[str, Any]],
    inputs: Sequence[Mapping[str, Any]] | None = None,
) -> list[ItemView]:
    """One `ItemView` per record, joined with its input row when one is given."""
    by_id: dict[str, Mapping[str, Any]] = {}
    for row in inputs or ():
        if row.get("id") is not None:
            by_id.setdefault(str(row["id"]), row)
    items: list[ItemView] = []
    for pos, record in enumerate(records):
        if not isinstance(record, Mapping):
            continue
        index = _int(record.get("index"), pos)
        source_row: Mapping[str, Any] | None = None
        rid = record.get("id")
        if rid is not None and str(rid) in by_id:
            source_row = by_id[str(rid)]
        elif inputs is not None and 0 <= index < len(inputs):
            source_row = inputs[index]
        items.append(_item(record, index, source_row))
    return items


def _item(record: Mapping[str, Any], index: int, row: Mapping[str, Any] | None) -> ItemView:
    item = ItemView(index=index, id=None if record.get("id") is None else clean(str(record["id"])))
    meta = record.get("meta")
    item.meta = dict(meta) if isinstance(meta, Mapping) else {}
    error = record.get("error")
    if isinstance(error, Mapping):
        item.error = _text(error.get("text") or error.get("message")) or "error"
    elif error:
        item.error = _text(error)
    human = record.get("human") if record.get("human") is not None else (row or {}).get("human")
    if isinstance(human, Mapping):
        item.human = {str(k): v for k, v in human.items() if v is not None}

    body = record.get("summary")
    if isinstance(body, Mapping):
        _summarization(item, body)
    for name in AUTO_METRICS:
        value = record.get(name)
        if isinstance(value, Mapping):
            _auto_metric(item, name, value)
    # Other metric-shaped entries at the top level (e.g. GEval metrics run by autoeval).
    for name, value in record.items():
        if name in _RECORD_KEYS or name in AUTO_METRICS or not isinstance(value, Mapping):
            continue
        if "score" in value or "error" in value:
            item.metrics[name] = _metric(name, value)

    _texts(item, record, row)
    return item


def _summarization(item: ItemView, body: Mapping[str, Any]) -> None:
    rating = body.get("relevancy_rating")
    item.rating = str(rating) if rating is not None else None
    item.overall = _float(body.get("score"))
    item.global_explanation = _text(body.get("global_explanation")) or None
    item.rating_confidence = _float(body.get("rating_confidence"))
    item.uncertain = body.get("uncertain") is True
    issues = body.get("possible_issues")
    if isinstance(issues, list):
        item.possible_issues = [_text(x) for x in issues]
    for name, value in body.items():
        if name not in SPEC_KEYS and isinstance(value, Mapping):
            item.metrics[name] = _metric(name, value)


def _metric(name: str, value: Mapping[str, Any]) -> MetricView:
    evidence = value.get("evidence")
    return MetricView(
        name=name,
        value=_float(value.get("score")),
        unit="1-3",
        weighted=_float(value.get("weighted_score")),
        explanation=_text(value.get("explanation")) or None,
        error=_text(value.get("error")) or None,
        reason=_text(value.get("reason")) or None,
        evidence=[_text(e) for e in evidence] if isinstance(evidence, list) else [],
        mode=_text(value.get("score_mode") or value.get("mode")) or None,
        spread=_float(value.get("spread")),
        confidence=_float(value.get("confidence")),
        panel=[
            (_text(p.get("judge")), _float(p.get("score")))
            for p in value.get("panel") or ()
            if isinstance(p, Mapping)
        ],
    )


def _auto_metric(item: ItemView, name: str, value: Mapping[str, Any]) -> None:
    view = MetricView(
        name=name,
        value=_float(value.get("score")),
        unit="%",
        error=_text(value.get("error")) or None,
        reason=_text(value.get("reason")) or None,
        mode=_text(value.get("mode")) or None,
    )
    sections = value.get("sections")
    section_views = _sections(sections) if isinstance(sections, Mapping) else []
    if name == "accuracy":
        for point in _list(value.get("decomposition")):
            if isinstance(point, Mapping):
                item.claims.append(_claim(point))
        good = sum(1 for c in item.claims if c.is_accurate)
        if item.claims:
            view.explanation = f"{good} of {len(item.claims)} points accurate"
            per_section = [
                f"{s.name} {s.counts.split()[0]}"
                for s in section_views
                if s.counts and not s.counts.startswith("0/0")
            ]
            if len(per_section) > 1:
                view.explanation += f" ({', '.join(per_section)})"
        view.unscored_sections = [
            (s.name, s.reason, s.error)
            for s in section_views
            if s.score is None and (s.reason or s.error)
        ]
    else:
        item.rubric_sections[name] = section_views
        counts = [s.counts for s in section_views if s.counts]
        if counts:
            view.explanation = "; ".join(f"{s.name}: {s.counts}" for s in section_views if s.counts)
    item.metrics[name] = view


def _claim(point: Mapping[str, Any]) -> Claim:
    turns = [t for t in (_int(x, -1) for x in _list(point.get("turns"))) if t > 0]
    verified = point.get("quote_verified")
    return Claim(
        point=_text(point.get("point")),
        accuracy=_text(point.get("accuracy")),
        is_accurate=_bool(point.get("is_accurate")),
        section=_text(point.get("section")) or None,
        quote=_text(point.get("quote")),
        turns=turns,
        quote_verified=verified if isinstance(verified, bool) else None,
        flags=[_text(f) for f in _list(point.get("flags"))],
    )


def _sections(sections: Mapping[str, Any]) -> list[SectionView]:
    out: list[SectionView] = []
    for name, sec in sections.items():
        if not isinstance(sec, Mapping):
            continue
        view = SectionView(
            name=str(name),
            score=_float(sec.get("score")),
            reason=_text(sec.get("reason")) or None,
            error=_text(sec.get("error")) or None,
            note=_text(sec.get("note")) or None,
        )
        check = sec.get("categorical_check")
        if isinstance(check, Mapping):
            view.check = ", ".join(f"{k}: {_text(v)}" for k, v in check.items())
        pairs = [("addressed", "questions"), ("covered", "items"), ("accurate", "points")]
        for num, den in pairs:
            if isinstance(sec.get(num), int) and isinstance(sec.get(den), int):
                view.counts = f"{sec[num]}/{sec[den]} {num}"
        # The rubric list: "rubrics" in sumjudge's JSON; "questions" as a list is accepted too.
        rubrics = _list(sec.get("rubrics")) or _list(sec.get("questions"))
        for r in rubrics:
            if isinstance(r, Mapping):
                view.rubrics.append(_rubric(r))
            elif isinstance(r, str):
                view.rubrics.append(RubricRow(question=r))
        out.append(view)
    return out


def _rubric(r: Mapping[str, Any]) -> RubricRow:
    content = [
        ContentRow(
            transcript_content=_text(c.get("transcript_content")),
            summary_content=_text(c.get("related_content_from_summary")),
            covered=_bool(c.get("is_covered")),
        )
        for c in _list(r.get("content_list"))
        if isinstance(c, Mapping)
    ]
    passed = _bool(r.get("is_addressed"))
    if passed is None and content:
        passed = all(c.covered for c in content)
    return RubricRow(
        question=_text(r.get("question")),
        reasoning=_text(r.get("reasoning")),
        passed=passed,
        content=content,
    )


def _texts(item: ItemView, record: Mapping[str, Any], row: Mapping[str, Any] | None) -> None:
    sources = [record, row or {}]
    for src in sources:
        transcript = src.get("transcript")
        if isinstance(transcript, (list, tuple)) and transcript:
            item.turns = [_turn(n, t) for n, t in enumerate(transcript, start=1)]
            break
        text = transcript if isinstance(transcript, str) else src.get("source", src.get("input"))
        if isinstance(text, str) and text.strip():
            item.source = clean(text)
            if isinstance(transcript, str):
                item.turns = _turns_from_text(text)
            break
    for src in sources:
        summary = src.get("summary")
        if isinstance(summary, str):
            item.summary = clean(summary)
            break
        if isinstance(summary, Mapping) and not (SPEC_KEYS & set(summary)):
            item.summary = {str(k): _text(v) for k, v in summary.items() if v is not None}
            break


def _turn(number: int, turn: Any) -> TurnView:
    if isinstance(turn, Mapping):
        extras = [_text(turn.get(k)) for k in ("name", "timestamp") if turn.get(k)]
        speaker = _text(turn.get("role") or turn.get("speaker") or "")
        text = _text(turn.get("text") or turn.get("content") or "")
        return TurnView(number, speaker, text, " · ".join(extras))
    return TurnView(number, "", _text(turn))


def _turns_from_text(text: str) -> list[TurnView]:
    # Mirrors the autoevaluation's numbering: one turn per non-blank line.
    turns: list[TurnView] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        parsed = parse_turn_line(line)
        if parsed is not None:
            turns.append(TurnView(len(turns) + 1, parsed.speaker, parsed.text))
        else:
            turns.append(TurnView(len(turns) + 1, "", line.strip()))
    return turns


def _text(value: Any) -> str:
    # Control characters and terminal escapes go here, so highlight offsets refer to the
    # text as shown (`esc` removes them again from anything that did not pass here).
    if value is None:
        return ""
    return clean(value if isinstance(value, str) else str(value))


def _float(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _int(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _bool(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return None


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else []
