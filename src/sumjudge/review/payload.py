"""One item as the review page's JSON: texts cut into plain and highlighted pieces.

The page builds its DOM from this with `textContent` only, so untrusted text never
becomes markup: a highlight is a piece `[text, kind, title]`, not HTML. Passages the
judge's evidence quotes are found with the report's own matcher (`report.highlight.find`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..align import Label
from ..report.highlight import QUOTED, Span, choose_spans, find, fragments
from ..report.views import Claim, ItemView, MetricView, TurnView
from ..text import parse_turn_line
from .load import ReviewItem

__all__ = ["item_payload", "label_payload", "pieces", "source_turns"]

Piece = list[Any]  # [text, kind | None, title | None]


def pieces(text: str, spans: Sequence[Span]) -> list[Piece]:
    """`text` cut at the (non-overlapping, first-longest-wins) spans."""
    out: list[Piece] = []
    pos = 0
    for start, end, kind, title, _ in choose_spans(spans):
        if start > pos:
            out.append([text[pos:start], None, None])
        out.append([text[start:end], kind, title])
        pos = end
    if pos < len(text):
        out.append([text[pos:], None, None])
    return out


def source_turns(view: ItemView) -> list[TurnView]:
    """The transcript turns: the record's own, else the source read as `Speaker: text` lines.

    A plain source counts as a transcript when it has two or more lines and most of them
    are speaker lines (a meeting in the `input` column is shown turn by turn).
    """
    if view.turns:
        return view.turns
    if not view.source:
        return []
    lines = [line.strip() for line in view.source.splitlines() if line.strip()]
    parsed = [parse_turn_line(line) for line in lines]
    if len(lines) < 2 or sum(p is not None for p in parsed) * 5 < len(lines) * 3:
        return []
    turns = []
    for n, (line, p) in enumerate(zip(lines, parsed, strict=True), start=1):
        if p is None:
            turns.append(TurnView(n, "", line))
        else:
            speaker = f"{p.speaker} ({p.role})" if p.role else p.speaker
            turns.append(TurnView(n, speaker, p.text, p.timestamp or ""))
    return turns


def _quotes(view: ItemView) -> list[tuple[str, str, str]]:
    """(fragment, kind, title) of every passage the judge quoted: evidence, then claims."""
    out: list[tuple[str, str, str]] = []
    for metric in view.metrics.values():
        for line in metric.evidence:
            for quoted in QUOTED.findall(line):
                out += [(f, "ev", f"{metric.name}: {line}") for f in fragments(quoted)]
    for k, claim in enumerate(view.claims, start=1):
        out += [
            (f, _claim_kind(claim), f"claim {k}: {claim.point}") for f in fragments(claim.quote)
        ]
    return out


def _claim_kind(claim: Claim) -> str:
    return "sup" if claim.is_accurate else "con" if claim.is_accurate is False else "ev"


def _source(view: ItemView) -> dict[str, Any]:
    quotes = _quotes(view)
    turns = source_turns(view)
    if turns:
        marks: dict[int, list[Span]] = {}
        for fragment, kind, title in quotes:
            for turn in turns:  # the first turn that holds the passage
                found = find(turn.text, fragment)
                if found is not None:
                    marks.setdefault(turn.number, []).append((*found, kind, title, ""))
                    break
        return {
            "kind": "turns",
            "turns": [
                {
                    "n": t.number,
                    "speaker": t.speaker,
                    "detail": t.detail,
                    "text": pieces(t.text, marks.get(t.number, [])),
                }
                for t in turns
            ],
        }
    if view.source:
        spans: list[Span] = []
        for fragment, kind, title in quotes:
            found = find(view.source, fragment)
            if found is not None:
                spans.append((*found, kind, title, ""))
        return {"kind": "text", "text": pieces(view.source, spans)}
    return {"kind": "none"}


def _metric(m: MetricView) -> dict[str, Any]:
    return {
        "name": m.name,
        "unit": m.unit,
        "score": m.value,
        "weighted": m.weighted,
        "explanation": m.explanation,
        "evidence": m.evidence,
        "error": m.error,
        "reason": m.reason,
        "confidence": m.confidence,
        "spread": m.spread,
        "panel": [[judge, score] for judge, score in m.panel],
    }


def label_payload(label: Label | None) -> dict[str, Any] | None:
    """The parts of a label the page shows and edits."""
    if label is None:
        return None
    return {
        "scores": {m: int(v) for m, v in label.scores.items()},
        "agree": dict(label.agree),
        "rating": label.rating,
        "note": label.note,
        "at": label.at,
    }


def item_payload(item: ReviewItem, label: Label | None) -> dict[str, Any]:
    """Everything the page shows of one item, with this reviewer's latest label."""
    view = item.view
    summary: Any = view.summary
    if isinstance(summary, Mapping):
        summary = [[name, text] for name, text in summary.items()]
    return {
        "id": item.key,
        "index": view.index,
        "source_id": item.source_id,
        "judge": item.judge.get("name") or "",
        "rating": view.rating,
        "rating_confidence": view.rating_confidence,
        "uncertain": view.uncertain,
        "explanation": view.global_explanation,
        "issues": view.possible_issues,
        "summary": summary,
        "source": _source(view),
        "metrics": [_metric(m) for m in view.metrics.values()],
        "label": label_payload(label),
    }
