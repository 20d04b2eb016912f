"""Reports on judged summaries: one self-contained HTML file per run.

Example:
    >>> write_report("results.jsonl", "report.html", card="card.json", inputs="data.jsonl")

The file needs nothing at view time (no network, no CDN): styles, a small sorting script of
our own and matplotlib charts (inline SVG; the `report` extra) are all inside it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import Any, TypeAlias

from ..meta.schema import JudgeCard
from .html import render_html
from .model import build_items, is_judged, read_jsonl
from .views import ItemView

__all__ = ["ItemView", "build_items", "render_report", "write_report"]

Records: TypeAlias = "str | PathLike[str] | Iterable[Mapping[str, Any] | Any]"


def _records(results: Records) -> tuple[list[Mapping[str, Any]], str | None]:
    if isinstance(results, (str, PathLike)):
        records = read_jsonl(results)
        if not any(is_judged(r) for r in records):
            # An input file (or an empty one) would give an empty report and no hint why.
            raise ValueError(
                f"{results} holds no judged record (no status, no results): give the results "
                "file that `sumjudge evaluate -o FILE` or `sumjudge autoeval -o FILE` wrote "
                "(the input rows can go to --inputs)"
            )
        return list(records), Path(results).name
    out: list[Mapping[str, Any]] = []
    for r in results:
        to_dict = getattr(r, "to_dict", None)
        data = to_dict() if callable(to_dict) else r
        if isinstance(data, Mapping):
            out.append(data)
    return out, None


def _card(card: JudgeCard | str | PathLike[str] | None) -> JudgeCard | None:
    if card is None or isinstance(card, JudgeCard):
        return card
    return JudgeCard.from_json(Path(card).read_bytes())


Inputs: TypeAlias = "str | PathLike[str] | Sequence[Mapping[str, Any] | Any] | None"


def _inputs(inputs: Inputs) -> Sequence[Mapping[str, Any]] | None:
    if inputs is None:
        return None
    if isinstance(inputs, (str, PathLike)):
        return read_jsonl(inputs)
    rows: list[Mapping[str, Any]] = []
    for row in inputs:
        dump = getattr(row, "model_dump", None)  # SummaryData, ConversationItem
        if callable(dump):
            row = dump()
        # Anything else (e.g. a DataError a loader put in place of a row) keeps its position.
        rows.append(row if isinstance(row, Mapping) else {})
    return rows


def render_report(
    results: Records,
    *,
    card: JudgeCard | str | PathLike[str] | None = None,
    inputs: Inputs = None,
    title: str = "sumjudge report",
    run_info: Mapping[str, Any] | None = None,
) -> str:
    """The report as an HTML string; see `write_report` for the arguments."""
    records, name = _records(results)
    items = build_items(records, _inputs(inputs))
    return render_html(items, card=_card(card), title=title, source_name=name, run_info=run_info)


def write_report(
    results: Records,
    out_path: str | PathLike[str],
    card: JudgeCard | str | PathLike[str] | None = None,
    *,
    inputs: Inputs = None,
    title: str = "sumjudge report",
    run_info: Mapping[str, Any] | None = None,
) -> Path:
    """Write one self-contained HTML report and return its path.

    Args:
        results: A results JSONL path (as written by `sumjudge evaluate`/`autoeval`), or
            the records themselves (dicts, or objects with `to_dict()` such as
            `sumjudge.BatchRecord`).
        out_path: Where to write the HTML file (written atomically).
        card: A `sumjudge.meta.JudgeCard` or the path of its JSON, to include the
            meta-evaluation figures.
        inputs: The input rows the results came from: a JSONL path, mappings (with
            `input`/`source` or `transcript`, and `summary`), or `SummaryData` /
            `ConversationItem` objects. Source, transcript and summary texts are taken from
            them (by `id`, else by position), since result records do not repeat them.
        title: The page title.
        run_info: Extra key/values for the provenance section (e.g. the run's totals).

    Raises:
        ValueError: `results` is a file with no judged record (an input file, an empty
            file) or a line that is not JSON; `card` is not a judge card.
    """
    text = render_report(results, card=card, inputs=inputs, title=title, run_info=run_info)
    path = Path(out_path)
    if path.parent and not path.parent.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path
