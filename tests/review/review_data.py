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


class ReviewProcess:
    """`sumjudge review ...` in its own process, on a free port; `url` once it listens."""

    def __init__(self, *argv: str) -> None:
        import os
        import subprocess
        import sys

        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sumjudge.cli.main", "review", *argv],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.lines: list[str] = []
        assert self.proc.stderr is not None
        for line in self.proc.stderr:  # until the server says where it listens
            self.lines.append(line.rstrip("\n"))
            found = re.search(r"review page at (http://127\.0\.0\.1:\d+/)", line)
            if found:
                self.url = found.group(1)
                return
        self.proc.wait(10)
        raise AssertionError(f"sumjudge review did not start: {self.lines}")

    def stop(self, sig: int) -> tuple[int, list[str]]:
        """Send `sig` (SIGINT: Ctrl-C, SIGKILL: a crash); the exit code and stderr lines."""
        self.proc.send_signal(sig)
        _, err = self.proc.communicate(timeout=20)
        return self.proc.returncode, self.lines + err.splitlines()

    def __enter__(self) -> ReviewProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.communicate(timeout=20)
