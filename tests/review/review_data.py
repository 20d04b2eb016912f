"""A small judged run (results + inputs) for the review tests."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

HOSTILE = "<img src=x onerror=\"document.title='pwned'\"><script>alert(1)</script>"
METRICS = ("coherence", "consistency", "relevance", "fluency")


def transcript(k: int) -> str:
    return "\n".join(
        [
            f"Agent (support): Hello, this is call number {k}. How can I help?",
            f"Customer: My order {k}00 arrived broken and I want a refund.",
            "Agent (support): I am sorry. I will issue a refund of $15 today.",
            f"Customer: Thanks. Also the tracking page shows {HOSTILE} for me.",
        ]
    )


def result(k: int) -> dict[str, Any]:
    scores = {"coherence": 1 + k % 3, "consistency": 3, "relevance": 2, "fluency": 3 - k % 2}
    body: dict[str, Any] = {
        "global_explanation": f"explanation {k}",
        "relevancy_rating": ("good", "incomplete", "bad")[k % 3],
        "score": 0.5,
        "possible_issues": [],
    }
    for m in METRICS:
        body[m] = {
            "score": scores[m],
            "explanation": f"{m} of item {k}: {HOSTILE}",
            "score_mode": "offline",
            "raw": 0.45 + 0.01 * k,
        }
    body["relevance"]["evidence"] = [
        'leaves out an important source passage: "I will issue a refund of $15 today"'
    ]
    return {"index": k, "id": f"call-{k}", "status": "ok", "summary": body,
            "meta": {"judge": "local-lexical"}}  # fmt: skip


def input_row(k: int) -> dict[str, Any]:
    return {
        "id": f"call-{k}",
        "input": transcript(k),
        "summary": f"The customer of call {k} gets a refund. {HOSTILE}",
        "source_id": f"doc-{k // 2}",
    }


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def page_token(html: str) -> str:
    """The per-run token the page carries (what our own script reads)."""
    match = re.search(r'<meta name="review-token" content="([^"]+)">', html)
    assert match, "the page has no review token"
    return match.group(1)
