"""The OpenAI adapter's two paths: how one is chosen, and what the direct one mirrors.

The behaviour on the wire is checked against the local server for both paths in
tests/integration (test_judge_contract.py, test_openai_http.py); these tests pin the two
facts the shortcuts rest on, against the installed openai SDK itself.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import httpx2
import openai
import pytest
from openai._utils._transform import transform
from openai.types.chat import completion_create_params

from sumjudge.errors import ConfigError
from sumjudge.judges import get_judge
from sumjudge.judges.openai import OpenAIJudge, _error_detail, choose_http_client, error_detail
from sumjudge.judges.openai_direct import error_body
from sumjudge.metrics import SUMMARY_METRICS

URL = "http://127.0.0.1:9/v1"


@pytest.fixture(autouse=True)
def _no_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SUMJUDGE_HTTP_CLIENT", raising=False)
    monkeypatch.delenv("SUMJUDGE_BASE_URL", raising=False)


def test_defaults_sdk_for_openai_and_direct_for_a_custom_server() -> None:
    assert choose_http_client(None, None) == "sdk"
    assert choose_http_client(None, URL) == "direct"
    assert choose_http_client("sdk", URL) == "sdk"
    assert choose_http_client("direct", None) == "direct"


def test_environment_and_bad_values(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SUMJUDGE_HTTP_CLIENT", "sdk")
    assert choose_http_client(None, URL) == "sdk"
    assert choose_http_client("direct", URL) == "direct"  # the argument wins
    monkeypatch.setenv("SUMJUDGE_HTTP_CLIENT", "curl")
    with pytest.raises(ConfigError, match=r"SUMJUDGE_HTTP_CLIENT"):
        choose_http_client(None, URL)
    with pytest.raises(ConfigError, match="sdk, direct"):
        choose_http_client("fast", URL)


def test_get_judge_passes_the_choice_to_openai_only() -> None:
    judge = get_judge("openai/m", base_url=URL, http_client="sdk")
    assert isinstance(judge, OpenAIJudge) and judge.http_client == "sdk"
    assert getattr(get_judge("openai/m", base_url=URL), "http_client", None) == "direct"
    assert get_judge("google/g", api_key="k", base_url=URL, http_client="sdk").name == "google/g"
    with pytest.raises(ConfigError, match="only for openai/"):
        get_judge("google/g", api_key="k", base_url=URL, http_client="direct")


def test_the_direct_path_to_a_custom_server_does_not_import_the_sdk() -> None:
    """Built only when the SDK path or the batch API needs it (a fresh interpreter)."""
    probe = (
        "import sys; from sumjudge.judges import get_judge; "
        f"j = get_judge('openai/m', base_url={URL!r}); "
        "print(j.http_client, 'openai' in sys.modules); "
        "j._client; print('openai' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.split() == ["direct", "False", "True"]


def test_without_a_base_url_the_direct_path_asks_the_sdk_where_openai_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    judge = OpenAIJudge("m", http_client="direct")
    assert judge._direct is not None
    assert judge._direct.url == str(judge._client.base_url).rstrip("/") + "/chat/completions"


def _bodies() -> list[dict[str, Any]]:
    judge = OpenAIJudge("m", base_url=URL)
    request = SUMMARY_METRICS["coherence"].build_request("Source. " * 5, "Sum.", logprobs=True)
    out = []
    for mode in range(4):  # every structured-output fallback, with and without logprobs
        judge._schema_mode = mode
        judge._logprobs_ok = mode % 2 == 0
        out.append(judge._kwargs(request))
    return out


@pytest.mark.parametrize("body", _bodies())
def test_the_sdk_transform_leaves_our_bodies_unchanged(body: dict[str, Any]) -> None:
    """Why the SDK path may post the body as built instead of through `create`."""
    params = completion_create_params.CompletionCreateParamsNonStreaming
    assert transform(body, params) == body


BODIES = [
    b'{"error": {"message": "bad schema", "type": "invalid_request_error"}}',
    b'{"error": {"type": "x"}}',
    b'{"message": "flat"}',
    b'{"error": "a string"}',
    b"[1, 2]",
    b"upstream exploded",
    b"",
    b"  \n",
]


@pytest.mark.parametrize("status", [400, 429, 500])
@pytest.mark.parametrize("content", BODIES)
def test_error_body_reads_as_the_sdk_reads(status: int, content: bytes) -> None:
    """The direct path quotes the server exactly as `_error_detail` quotes an SDK error."""
    client = openai.AsyncOpenAI(api_key="k", base_url=URL, max_retries=0)
    request = httpx2.Request("POST", URL + "/chat/completions")
    response = httpx2.Response(status, content=content, request=request)
    response.read()
    exc = client._make_status_error_from_response(response)
    body, message = error_body(status, content)
    assert body == exc.body and message == exc.message
    assert error_detail(body, message) == _error_detail(exc)
    json.dumps({"detail": error_detail(body, message)})  # plain text, no object leaks
