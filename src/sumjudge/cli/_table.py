"""The compact table `evaluate` and `autoeval` print for a person (`--format table`).

One row per item in input order: the id (or the index), the rating (`evaluate`) or the
status (`autoeval`), one column per metric (a 1-3 score, or a percentage or N/A) and a
one-line reason cut to the terminal width; then the counts. The table is built from the
records' JSON (`Record.to_dict`), so it shows exactly what the results file holds.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["ResultTable", "one_line"]

_ID_WIDTH = 40
_MIN_ID = 12
_MIN_REASON = 20
_SPACE = re.compile(r"\s+")
_WIDE_REASON = 60
_SHORT = {
    "coherence": "coh",
    "consistency": "cons",
    "relevance": "rel",
    "fluency": "flu",
    "accuracy": "acc",
    "adherence": "adh",
    "completeness": "compl",
}
"""Metric headers on a narrow terminal, so that the reason keeps its room."""
_RATING_ORDER = ("good", "incomplete", "bad", "ok", "failed", "invalid", "not run")


def one_line(text: str, width: int) -> str:
    """`text` on one line (whitespace collapsed), cut to `width` characters with an ellipsis."""
    flat = _SPACE.sub(" ", text).strip()
    if width <= 0:
        return ""
    if len(flat) <= width:
        return flat
    return flat[: max(0, width - 1)].rstrip() + "…"


def _failure_reason(record: dict[str, Any]) -> str:
    error = record.get("error")
    if record.get("status") == "invalid" and isinstance(error, dict):
        return str(error.get("text") or error.get("message") or "")
    failures = record.get("failures") or []
    return "; ".join(f"{f.get('metric') or 'item'}: {f.get('reason', '')}" for f in failures)


def _cells(
    body: dict[str, Any], metrics: Sequence[str], score: Callable[[str, dict[str, Any]], str]
) -> list[str]:
    """A row's metric cells: "-" (absent), "err" (failed), else `score(name, metric)`."""
    cells = []
    for name in metrics:
        metric = body.get(name)
        if not isinstance(metric, dict):
            cells.append("-")
        elif metric.get("error"):
            cells.append("err")
        else:
            cells.append(score(name, metric))
    return cells


def _summary_score(name: str, metric: dict[str, Any]) -> str:
    """The score; with repeated judgments `±spread`, with a panel `[low-high]` of its members."""
    score = metric.get("score")
    if score is None:
        return "N/A"
    cell = f"{score:g}"
    if metric.get("spread"):
        cell += f"±{metric['spread']:.1f}"
    members = [p["score"] for p in metric.get("panel") or () if p.get("score") is not None]
    if members and min(members) != max(members):
        cell += f"[{min(members)}-{max(members)}]"
    return cell


class ResultTable:
    """Rows of a run's table, added in input order and rendered at the end.

    Args:
        kind: "summary" (`evaluate`: a rating and 1-3 scores), "conversation"
            (`autoeval`: a status and percentages) or "pairwise" (`pairwise`: a status
            and each metric's winner, `tie*` where the two orders disagreed).
        metrics: the metric columns, in order.
        width: the line width; None for the terminal's (or $COLUMNS, else 100).
    """

    def __init__(self, kind: str, metrics: Sequence[str], *, width: int | None = None) -> None:
        self.kind = kind
        self.metrics = list(metrics)
        self.width = width or shutil.get_terminal_size((100, 24)).columns
        self.rows: list[tuple[str, str, list[str], str]] = []
        self.counts: Counter[str] = Counter()
        self.uncertain = 0

    @property
    def unit(self) -> str:
        """What one row is: "item" or "conversation"."""
        return {"summary": "item", "pairwise": "pair"}.get(self.kind, "conversation")

    def add(self, record: dict[str, Any]) -> None:
        """Add the row of one record (a `Record.to_dict()`)."""
        ident = record.get("id")
        label = str(ident) if ident is not None else f"#{record.get('index')}"
        status = str(record.get("status", ""))
        if self.kind == "summary":
            rating, cells, reason = self._summary_row(record, status)
        elif self.kind == "pairwise":
            rating, cells, reason = self._pairwise_row(record, status)
        else:
            rating, cells, reason = self._conversation_row(record, status)
        self.counts[rating.rstrip("?")] += 1
        self.rows.append((label, rating, cells, reason))

    def _summary_row(self, record: dict[str, Any], status: str) -> tuple[str, list[str], str]:
        body = record.get("summary")
        body = body if isinstance(body, dict) else {}
        cells = _cells(body, self.metrics, _summary_score)
        if status == "ok":
            rating = str(body.get("relevancy_rating") or "ok")
            reason = str(body.get("global_explanation") or "")
            if body.get("uncertain"):
                # Flagged, not recounted: the counts line says how many were uncertain.
                self.uncertain += 1
                confidence = body.get("rating_confidence")
                return f"{rating}?", cells, f"uncertain (p={confidence:.2f}): {reason}"
            return rating, cells, reason
        return status.replace("_", " "), cells, _failure_reason(record)

    def _pairwise_row(self, record: dict[str, Any], status: str) -> tuple[str, list[str], str]:
        body = record.get("pairwise")
        body = body if isinstance(body, dict) else {}

        def winner(name: str, metric: dict[str, Any]) -> str:
            mark = "*" if metric.get("position_consistent") is False else ""
            return f"{metric.get('winner')}{mark}"

        cells = _cells(body, self.metrics, winner)
        if status != "ok":
            return status.replace("_", " "), cells, _failure_reason(record)
        first = next((m for m in body.values() if isinstance(m, dict)), {})
        explanations = first.get("explanations") or [""]
        return "ok", cells, str(explanations[0])

    def _conversation_row(self, record: dict[str, Any], status: str) -> tuple[str, list[str], str]:
        not_applicable: list[str] = []

        def score(name: str, metric: dict[str, Any]) -> str:
            if metric.get("score") is None:
                if metric.get("reason"):
                    not_applicable.append(f"{name} {metric['reason']}")
                return "N/A"
            return f"{float(metric['score']):.0f}%"

        cells = _cells(record, self.metrics, score)
        if status == "ok":
            return "ok", cells, "; ".join(not_applicable)
        return status.replace("_", " "), cells, _failure_reason(record)

    def counts_line(self) -> str:
        """The counts: how many rows had each rating (or status)."""
        total = sum(self.counts.values())
        order = [r for r in _RATING_ORDER if self.counts[r]]
        order += sorted(r for r in self.counts if r not in _RATING_ORDER)
        parts = ", ".join(f"{self.counts[r]} {r}" for r in order)
        line = f"{total} {self.unit}(s)" + (f": {parts}" if parts else "")
        if self.uncertain:
            line += f" ({self.uncertain} uncertain, marked ?)"
        return line

    def render(self) -> list[str]:
        """The table's lines: header, one row per item, a blank line and the counts."""
        head_rating = "rating" if self.kind == "summary" else "status"
        id_w = min(_ID_WIDTH, max([2, *(len(r[0]) for r in self.rows)]))
        rating_w = max([len(head_rating), *(len(r[1]) for r in self.rows)])
        heads = self.metrics
        for attempt in ("full", "short"):
            if attempt == "short":
                heads = [_SHORT.get(m, m[:5]) for m in self.metrics]
            metric_w = [
                max([len(h), *(len(r[2][i]) for r in self.rows)]) for i, h in enumerate(heads)
            ]
            fixed = id_w + 2 + rating_w + 2 + sum(w + 2 for w in metric_w)
            reason_w = max(_MIN_REASON, self.width - fixed - 1)
            if reason_w >= _WIDE_REASON:
                break
        if self.width - fixed - 1 < _MIN_REASON:  # narrow: long ids give up room first
            spare = min(id_w - _MIN_ID, _MIN_REASON - (self.width - fixed - 1))
            id_w -= max(0, spare)
            reason_w = max(_MIN_REASON // 2, self.width - (fixed - max(0, spare)) - 1)

        def line(label: str, rating: str, cells: list[str], reason: str) -> str:
            parts = [one_line(label, id_w).ljust(id_w), rating.ljust(rating_w)]
            parts += [c.rjust(w) for c, w in zip(cells, metric_w, strict=True)]
            parts.append(one_line(reason, reason_w))
            return "  ".join(parts).rstrip()

        out = [line("id", head_rating, heads, "reason")]
        out += [line(*row) for row in self.rows]
        out += ["", self.counts_line()]
        return out
