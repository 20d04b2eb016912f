"""The meetings and calls corpus (benchmarks/data/meetings_calls.jsonl): schema, one edit.

Scores are the benchmark's business (`benchmarks/meetings_calls.py`); this checks only
that the file is what the benchmark assumes: the fields and their values, the sources
in their declared formats, and every planted row one edit away from its faithful row.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

from sumjudge.transcripts import detect_format, parse_transcript

ROOT = Path(__file__).resolve().parents[2]


def _check_module() -> ModuleType:
    path = ROOT / "benchmarks" / "check_meetings_calls.py"
    spec = importlib.util.spec_from_file_location("check_meetings_calls", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


check = _check_module()
ROWS = check.load()


def test_the_corpus_passes_its_checks() -> None:
    assert check.problems(ROWS) == []


def test_the_corpus_is_the_build_of_the_authored_cases() -> None:
    """The JSONL is exactly what benchmarks/build_meetings_calls.py writes."""
    spec = importlib.util.spec_from_file_location(
        "build_meetings_calls", ROOT / "benchmarks" / "build_meetings_calls.py"
    )
    assert spec and spec.loader
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    assert [json.dumps(r, ensure_ascii=False) for r in build.rows()] == [
        json.dumps(r, ensure_ascii=False) for r in ROWS
    ]


def test_every_source_reads_as_a_transcript_with_speakers() -> None:
    for r in (r for r in ROWS if r["label"] == "faithful"):
        fmt = detect_format(r["source"])
        assert fmt == ("webvtt" if r["format"] == "webvtt" else "lines"), r["id"]
        turns = parse_transcript(r["source"])
        speakers = {t.speaker for t in turns}
        assert len(turns) >= 8 and len(speakers) >= 2 and None not in speakers, r["id"]


def test_the_check_finds_a_second_edit_or_none() -> None:
    """A planted row with one more change elsewhere, or with no change, is reported."""
    faithful = next(r for r in ROWS if r["label"] == "faithful")
    planted = next(r for r in ROWS if r["source_id"] == faithful["source_id"] and r["planted"])
    assert faithful["summary"].index(".") < planted["summary"].index(planted["planted"])
    twice = dict(planted, summary=planted["summary"].replace(".", "!", 1))
    assert any("outside 'planted'" in p for p in check.edit_problems(faithful["summary"], twice))
    none = dict(planted, summary=faithful["summary"])
    assert any("identical" in p for p in check.edit_problems(faithful["summary"], none))


def test_an_owner_swap_must_name_someone_of_the_source() -> None:
    faithful = next(
        r for r in ROWS if r["source_id"].startswith("m01") and r["label"] == "faithful"
    )
    row = next(r for r in ROWS if r["id"] == "m01-payments-standup/owner_swap")
    bad = dict(row, summary=row["summary"].replace("- Joel: migrate", "- Zebedee: migrate"))
    bad["planted"] = row["planted"].replace("Joel", "Zebedee")
    found = check.edit_problems(faithful["summary"], bad)
    assert any("absent from the source" in p for p in found), found
