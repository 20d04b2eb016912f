"""Check benchmarks/data/meetings_calls.jsonl: its schema and the one-edit property.

Every planted row must be its source's faithful summary with one edit: the two texts
differ in one stretch (from the first to the last changed character), that stretch lies
inside the row's `planted` text, and it touches one sentence (two for `grammar`). The
check also holds the corpus to its brief: at least 44 sources of 600-4,000 characters,
every format and both languages present, each error type on at least 40 sources, the
file under 1 MB; and it checks the planted names: an `owner_swap` brings in only names
of the source (another participant), a `new_name` at least one name the source lacks.

Reproduce:  . /work/venv/bin/activate && python benchmarks/check_meetings_calls.py
(`tests/offline/test_meetings_calls_corpus.py` runs the same checks.)
"""

from __future__ import annotations

import difflib
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parent / "data" / "meetings_calls.jsonl"
sys.path.insert(0, str(CORPUS.parent))  # the corpus's cases name the error types once
from meetings_calls_src import ERROR_TYPES  # noqa: E402

LABELS = ("faithful", *ERROR_TYPES)
FIELDS = (
    "id",
    "source_id",
    "domain",
    "format",
    "language",
    "source",
    "summary",
    "label",
    "planted",
)
DOMAINS = ("meeting", "call")
FORMATS = ("speaker", "timestamped", "webvtt", "roles")
LANGUAGES = ("en", "id")
MIN_SOURCES = 44
MIN_PER_TYPE = 40
SOURCE_CHARS = (600, 4000)
MAX_BYTES = 1_000_000

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_NAME = re.compile(r"\b[A-Z][A-Za-z]+(?:['-][A-Za-z]+)*\b")
_TIMESTAMP = re.compile(r"^\[?\d{1,2}:\d{2}(?::\d{2})?\]?\s", re.M)
_ROLES = r"(?:Agent|Customer|Agen|Pelanggan)"
_ROLE = re.compile(rf"^{_ROLES}\b|^[^:\n]{{1,40}}\({_ROLES}\)\s*:", re.M)
# capitalised words that are not names: sentence openers and other function words
# fmt: off
_NOT_NAMES = frozenset({
    "The", "A", "An", "And", "But", "Or", "If", "As", "On", "In", "At", "By", "For", "To", "Of",
    "From", "With", "No", "Not", "Yes", "Her", "His", "Their", "She", "He", "They", "It", "Its",
    "This", "That", "These", "Those", "Then", "When", "While", "After", "Before", "Even", "Only",
    "Rather", "Instead", "Also", "Outcome", "Decision", "Decisions", "Actions", "Action", "Next",
    "Owners", "Vote", "Votes", "I", "Agreed", "Resolution", "Arranged", "Work", "Growth",
    "Training", "Impact", "What", "Went", "Didn", "Users", "Splitting", "Data", "Dan", "Yang",
    "Di", "Ke", "Dari", "Untuk", "Karena", "Walaupun", "Tidak",
})
# fmt: on


def load(path: Path = CORPUS) -> list[dict[str, Any]]:
    """The corpus rows, in file order."""
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s.strip()]


def changed_span(faithful: str, planted: str) -> tuple[int, int, int, int]:
    """(start, end in faithful, start, end in planted) of the one stretch that differs.

    The stretch is widened to whole words.
    """
    n = min(len(faithful), len(planted))
    lo = 0
    while lo < n and faithful[lo] == planted[lo]:
        lo += 1
    hi = 0
    while hi < n - lo and faithful[-1 - hi] == planted[-1 - hi]:
        hi += 1
    while lo > 0 and faithful[lo - 1].isalnum():
        lo -= 1
    while hi > 0 and faithful[-hi].isalnum():
        hi -= 1
    return lo, len(faithful) - hi, lo, len(planted) - hi


def _names(text: str) -> set[str]:
    return {w for w in _NAME.findall(text) if w not in _NOT_NAMES}


def edit_problems(faithful: str, row: dict[str, Any]) -> list[str]:
    """What is wrong with one planted row against its faithful summary ([] if nothing)."""
    rid, summary, planted = row["id"], row["summary"], row["planted"]
    out: list[str] = []
    if summary == faithful:
        return [f"{rid}: identical to the faithful summary"]
    if not planted:
        return [f"{rid}: empty 'planted'"]
    f0, f1, p0, p1 = changed_span(faithful, summary)
    pieces = planted.split(" | ")
    where = [summary.find(p) for p in pieces]
    if any(i < 0 for i in where):
        return [f"{rid}: 'planted' is not text of the summary"]
    if not (min(where) <= p0 and p1 <= max(i + len(p) for i, p in zip(where, pieces, strict=True))):
        out.append(f"{rid}: the summary changes outside 'planted' ({summary[p0:p1]!r})")
    before, after = _sentences(faithful), _sentences(summary)
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    new = [s for tag, _, _, j0, j1 in matcher.get_opcodes() if tag != "equal" for s in after[j0:j1]]
    limit = 2 if row["label"] == "grammar" else 1
    if not 1 <= len(new) <= limit:
        out.append(f"{rid}: {len(new)} changed sentences (expected 1 to {limit})")
    inserted = _names(summary[p0:p1]) - _names(faithful[f0:f1])
    source_names = _names(row["source"])
    if row["label"] == "owner_swap" and not inserted <= source_names | _names(faithful):
        out.append(f"{rid}: owner_swap brings in names absent from the source: {inserted}")
    if row["label"] == "new_name" and not inserted - source_names:
        out.append(f"{rid}: new_name brings in no name absent from the source")
    return out


def format_problems(row: dict[str, Any]) -> list[str]:
    """The source must look like its declared format."""
    src, fmt = row["source"], row["format"]
    if fmt == "webvtt":
        ok = src.startswith("WEBVTT") and "-->" in src
    elif fmt == "timestamped":
        ok = len(_TIMESTAMP.findall(src)) >= 3 and not src.startswith("WEBVTT")
    elif fmt == "roles":
        ok = len(_ROLE.findall(src)) >= 3
    else:
        ok = not src.startswith("WEBVTT") and not _TIMESTAMP.search(src)
    return [] if ok else [f"{row['id']}: source does not look like format {fmt!r}"]


def problems(rows: list[dict[str, Any]], path: Path | None = CORPUS) -> list[str]:
    """Every problem of the corpus, [] when it passes."""
    out: list[str] = []
    ids = Counter(r.get("id") for r in rows)
    out += [f"duplicate id {i}" for i, n in ids.items() if n > 1]
    faithful: dict[str, dict[str, Any]] = {}
    for r in rows:
        if tuple(r) != FIELDS:
            out.append(f"{r.get('id')}: fields {tuple(r)} (expected {FIELDS})")
            continue
        if not all(isinstance(r[k], str) for k in FIELDS):
            out.append(f"{r['id']}: every field must be a string")
            continue
        for key, allowed in (
            ("domain", DOMAINS),
            ("format", FORMATS),
            ("language", LANGUAGES),
            ("label", LABELS),
        ):
            if r[key] not in allowed:
                out.append(f"{r['id']}: {key} {r[key]!r} not in {allowed}")
        if r["id"] != f"{r['source_id']}/{r['label']}":
            out.append(f"{r['id']}: id is not source_id/label")
        if r["label"] == "faithful":
            if r["planted"]:
                out.append(f"{r['id']}: a faithful row has 'planted'")
            faithful[r["source_id"]] = r
    by_source: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        if tuple(r) == FIELDS:
            by_source.setdefault(r["source_id"], []).append(r)
    for sid, group in by_source.items():
        base = faithful.get(sid)
        if base is None:
            out.append(f"{sid}: no faithful row")
            continue
        if not SOURCE_CHARS[0] <= len(base["source"]) <= SOURCE_CHARS[1]:
            out.append(f"{sid}: source of {len(base['source'])} characters")
        out += format_problems(base)
        for r in group:
            if any(r[k] != base[k] for k in ("domain", "format", "language", "source")):
                out.append(f"{r['id']}: source or its description differs from the faithful row")
            if r["label"] != "faithful":
                out += edit_problems(base["summary"], r)
    if len(faithful) < MIN_SOURCES:
        out.append(f"{len(faithful)} sources (at least {MIN_SOURCES} wanted)")
    per_type = Counter(r.get("label") for r in rows)
    out += [
        f"{kind}: on {per_type[kind]} sources (at least {MIN_PER_TYPE} wanted)"
        for kind in ERROR_TYPES
        if per_type[kind] < MIN_PER_TYPE
    ]
    for key, values in (("domain", DOMAINS), ("format", FORMATS), ("language", LANGUAGES)):
        seen = {r[key] for r in faithful.values()}
        out += [f"no source of {key} {v!r}" for v in values if v not in seen]
    if path is not None and path.stat().st_size > MAX_BYTES:
        out.append(f"{path.name} is {path.stat().st_size} bytes (over {MAX_BYTES})")
    return out


def main() -> None:
    """Print the problems (exit 1) or the corpus's counts."""
    rows = load()
    found = problems(rows)
    for p in found:
        print(p)
    if found:
        sys.exit(1)
    srcs = [r for r in rows if r["label"] == "faithful"]
    print(f"ok: {len(rows)} rows, {len(srcs)} sources")
    for key in ("domain", "format", "language"):
        print(
            f"  {key}: "
            + ", ".join(f"{k} {n}" for k, n in sorted(Counter(r[key] for r in srcs).items()))
        )
    print(
        "  labels: " + ", ".join(f"{k} {n}" for k, n in Counter(r["label"] for r in rows).items())
    )


if __name__ == "__main__":
    main()
