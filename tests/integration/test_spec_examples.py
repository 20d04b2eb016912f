"""The specification's two example programs, unchanged apart from the import path.

They use the default judge (Google Gemini through google-genai). The google-genai SDK
reads GOOGLE_GEMINI_BASE_URL, so pointing it at the local server runs the real SDK end to
end with no network and a fake key.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sumjudge.testing.openai_server import FakeOpenAIServer

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SPEC_SUMMARY_KEYS = [
    "global_explanation",
    "relevancy_rating",
    "score",
    "possible_issues",
    "binary_score",
    "avg_score",
    "coherence",
    "consistency",
    "relevance",
    "fluency",
]
SPEC_METRIC_KEYS = ["score", "explanation", "normalized_score"]


@pytest.mark.parametrize("program", ["spec_example_dataset.py", "spec_example_direct.py"])
def test_spec_program_prints_the_spec_shape(program: str) -> None:
    with FakeOpenAIServer() as srv:
        env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
        env["GOOGLE_API_KEY"] = "fake-key-for-local-server"
        env["GOOGLE_GEMINI_BASE_URL"] = srv.url
        proc = subprocess.run(
            [sys.executable, str(EXAMPLES / program)],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        paths = {r["path"] for r in srv.requests}
        headers = srv.requests[0]["headers"]
    assert proc.returncode == 0, proc.stderr
    assert paths == {"/v1beta/models/gemini-2.5-flash:generateContent"}
    assert headers["x-goog-api-key"] == "fake-key-for-local-server"
    result = json.loads(proc.stdout)
    assert list(result) == ["summary"]
    body = result["summary"]
    # The specification's keys in its order, then only our documented additions.
    assert list(body)[: len(SPEC_SUMMARY_KEYS)] == SPEC_SUMMARY_KEYS
    assert list(body)[len(SPEC_SUMMARY_KEYS) :] == ["rating_confidence", "uncertain"]
    assert isinstance(body["global_explanation"], str)
    assert body["relevancy_rating"] in ("good", "incomplete", "bad")
    assert isinstance(body["possible_issues"], list)
    assert body["binary_score"] in (0, 1) and isinstance(body["avg_score"], float)
    for m in SPEC_SUMMARY_KEYS[6:]:
        assert list(body[m])[:3] == SPEC_METRIC_KEYS
        assert body[m]["score"] in (1, 2, 3)
        assert body[m]["normalized_score"] == round(body[m]["score"] / 3 + 1e-9, 2)
        assert body[m]["score_mode"] == "logprob_weighted"
