"""The records file holds, byte for byte, `json.dumps(record, ensure_ascii=False)` lines.

`RecordSink` encodes with one prebuilt encoder instead of `json.dumps` per record; these
pin that the text did not change, on the bundled examples' records (non-ASCII text,
floats, nested results, nulls) and on values chosen for the corners of JSON's spelling.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sumjudge.cli._sink import RecordSink
from sumjudge.cli.main import main

CORNERS: list[dict[str, Any]] = [
    {"index": 0, "text": 'Sé ✓ 😀 "q" \\ \n\t\u0001', "none": None, "flag": True},
    {"floats": [1e-05, 1e22, 2.5e-08, -0.0, 0.1, 1.7976931348623157e308, 5e-324, 10.0]},
    {"nested": {"a": [], "b": {}, "c": [{"d": [1, 2.5, "x"]}]}, "big": 2**70},
    {"nan": float("nan"), "inf": [float("inf"), float("-inf")]},
]


@pytest.mark.parametrize("pretty", [False, True])
def test_written_lines_are_json_dumps(tmp_path: Path, pretty: bool) -> None:
    out = tmp_path / "out.jsonl"
    with RecordSink(out, pretty=pretty) as sink:
        for record in CORNERS:
            sink.write(record)
    indent = 2 if pretty else None
    expected = "".join(json.dumps(r, ensure_ascii=False, indent=indent) + "\n" for r in CORNERS)
    assert out.read_bytes() == expected.encode("utf-8")


def test_the_examples_records_are_json_dumps_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "examples.jsonl"
    offline = ["--model", "local-lexical", "--no-cache", "--no-progress"]
    assert main(["evaluate", "--example", *offline, "-o", str(out)]) == 0
    capsys.readouterr()
    lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
    assert len(lines) >= 6
    for line in lines:
        assert line == json.dumps(json.loads(line), ensure_ascii=False) + "\n"
