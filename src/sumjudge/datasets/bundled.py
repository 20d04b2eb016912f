"""Example data shipped with the package, written for this project."""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ..types import SummaryData

__all__ = ["BundledDataset", "load_simple_summarization_dataset"]


def _read_jsonl(name: str) -> list[dict[str, Any]]:
    text = resources.files("sumjudge.datasets").joinpath("data").joinpath(name).read_text("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@dataclass(frozen=True)
class BundledDataset:
    """A small dataset inside the package; `.load()` returns its items."""

    filename: str
    description: str

    def rows(self) -> list[dict[str, Any]]:
        """The raw rows, with extra fields such as `language` and `flaw`."""
        return _read_jsonl(self.filename)

    def load(self) -> list[SummaryData]:
        """The rows as `SummaryData` items (input, summary and id only)."""
        return [
            SummaryData(input=r["input"], summary=r["summary"], id=r.get("id")) for r in self.rows()
        ]


def load_simple_summarization_dataset() -> BundledDataset:
    """Meeting transcripts (Indonesian and English) with summaries, some deliberately flawed.

    Item 0 is an Indonesian product meeting with a faithful summary. Others carry a
    hallucinated figure, a missing decision, a garbled passage or an off-focus summary;
    `rows()` names each flaw in its `flaw` field.
    """
    return BundledDataset(
        "simple_summarization.jsonl",
        "Meeting transcripts with faithful and deliberately flawed summaries",
    )
