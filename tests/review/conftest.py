"""The review tests' fixture: a small judged run on disk."""

from __future__ import annotations

from pathlib import Path

import pytest
from review_data import input_row, result, write_jsonl  # type: ignore[import-not-found]


@pytest.fixture
def run_files(tmp_path: Path) -> tuple[Path, Path]:
    """results.jsonl and inputs.jsonl of five judged calls."""
    results = write_jsonl(tmp_path / "results.jsonl", [result(k) for k in range(5)])
    inputs = write_jsonl(tmp_path / "inputs.jsonl", [input_row(k) for k in range(5)])
    return results, inputs
