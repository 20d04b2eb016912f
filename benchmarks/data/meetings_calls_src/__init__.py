"""The authored text of the meetings and calls corpus (`benchmarks/data/meetings_calls.jsonl`).

Each module holds `CASES`: one source, its faithful summary and, per error type, the one
edit that plants that error in a copy of the summary. `benchmarks/build_meetings_calls.py`
turns them into the JSONL rows; see docs/offline.md, "Meetings and calls corpus".
"""

from __future__ import annotations

from typing import Any

ERROR_TYPES = (
    "owner_swap",
    "decision_reversal",
    "contradiction",
    "new_number",
    "new_name",
    "grammar",
)

Edit = tuple[str, str]


def case(
    source_id: str,
    domain: str,
    fmt: str,
    language: str,
    source: str,
    summary: str,
    **edits: Edit | list[Edit],
) -> dict[str, Any]:
    """One source of the corpus: its text, faithful summary and planted-error edits.

    Each edit is (text of the faithful summary, its replacement); `grammar` may give two
    edits (two garbled sentences). The text replaced must occur once in the summary.
    """
    unknown = set(edits) - set(ERROR_TYPES)
    if unknown:
        raise ValueError(f"{source_id}: unknown error types {sorted(unknown)}")
    return {
        "source_id": source_id,
        "domain": domain,
        "format": fmt,
        "language": language,
        "source": source.strip("\n") + "\n",
        "summary": summary.strip("\n"),
        "edits": {k: v if isinstance(v, list) else [v] for k, v in edits.items()},
    }
