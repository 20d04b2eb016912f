"""Build benchmarks/data/meetings_calls.jsonl from the authored cases.

The cases (`benchmarks/data/meetings_calls_src/*.py`) give each source, its faithful
summary and one edit per planted error type; every planted row is the faithful summary
with that one edit applied, so it differs from the faithful row only there. Rows are
written source by source, the faithful row first, then the error types in a fixed order.

Reproduce:  . /work/venv/bin/activate && python benchmarks/build_meetings_calls.py
            (then `python benchmarks/check_meetings_calls.py` checks the file)
"""

from __future__ import annotations

import importlib
import json
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "data"))

from meetings_calls_src import ERROR_TYPES  # noqa: E402

MODULES = (
    "meetings_a",
    "meetings_b",
    "meetings_c",
    "calls_a",
    "calls_b",
    "indonesian",
    "long",
)
OUT = HERE / "data" / "meetings_calls.jsonl"
# a sentence ends at . ! ? before white space, except after a title ("Prof. Lindgren")
_BOUNDARY = re.compile(r"(?<!\bProf\.)(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<=[.!?])\s+|\n+")


def cases() -> list[dict[str, Any]]:
    """Every authored case, module by module."""
    out: list[dict[str, Any]] = []
    for name in MODULES:
        out.extend(importlib.import_module(f"meetings_calls_src.{name}").CASES)
    return out


def _sentence_around(text: str, start: int, end: int) -> str:
    """The sentence(s) or line(s) of `text` that hold text[start:end]."""
    lo = 0
    for m in _BOUNDARY.finditer(text, 0, start):
        lo = m.end()
    m = _BOUNDARY.search(text, end)
    hi = m.start() if m else len(text)
    return text[lo:hi].strip()


def plant(summary: str, edits: list[tuple[str, str]], where: str) -> tuple[str, str]:
    """Apply `edits` to `summary`; return the planted summary and the changed sentence(s)."""
    out = summary
    planted: list[str] = []
    for old, new in edits:
        if old == new:
            raise ValueError(f"{where}: edit changes nothing: {old!r}")
        if out.count(old) != 1:
            raise ValueError(f"{where}: {old!r} occurs {out.count(old)} times in the summary")
        start = out.index(old)
        out = out[:start] + new + out[start + len(old) :]
        planted.append((start, start + len(new)))  # type: ignore[arg-type]
    sentences = []
    for start, end in planted:  # type: ignore[misc]
        s = _sentence_around(out, start, end)
        if s not in sentences:
            sentences.append(s)
    return out, " | ".join(sentences)


def rows() -> list[dict[str, Any]]:
    """The JSONL rows of every case."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for c in cases():
        sid = c["source_id"]
        if sid in seen:
            raise ValueError(f"duplicate source_id {sid}")
        seen.add(sid)
        base = {k: c[k] for k in ("source_id", "domain", "format", "language", "source")}
        out.append(
            {
                "id": f"{sid}/faithful",
                **base,
                "summary": c["summary"],
                "label": "faithful",
                "planted": "",
            }
        )
        for kind in ERROR_TYPES:
            if kind not in c["edits"]:
                continue
            summary, planted = plant(c["summary"], c["edits"][kind], f"{sid}/{kind}")
            out.append(
                {
                    "id": f"{sid}/{kind}",
                    **base,
                    "summary": summary,
                    "label": kind,
                    "planted": planted,
                }
            )
    return out


def main() -> None:
    """Write the corpus and print its counts."""
    data = rows()
    with OUT.open("w", encoding="utf-8") as fh:
        for r in data:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    n_src = len({r["source_id"] for r in data})
    print(
        f"wrote {OUT.relative_to(HERE.parent)}: {len(data)} rows, {n_src} sources, "
        f"{OUT.stat().st_size / 1e6:.2f} MB"
    )
    for kind in ("faithful", *ERROR_TYPES):
        print(f"  {kind}: {sum(r['label'] == kind for r in data)}")


if __name__ == "__main__":
    main()
