"""The fake server's shared failure paths: the batch routes on one job and a dropped reply."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest

from sumjudge.testing.openai_server import FakeOpenAIServer, Reply


def _call(url: str, method: str = "GET", body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode("utf-8")
    if method == "POST" and data is None:
        data = b""
    req = urllib.request.Request(url, method=method, data=data)
    req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:
            return resp.status, json.load(resp)
    except urllib.error.HTTPError as exc:
        with exc:
            return exc.code, json.load(exc)


@pytest.mark.parametrize(
    ("method", "path", "message"),
    [
        ("GET", "/v1/batches/nope", "No batch found with id 'nope'"),
        ("POST", "/v1/batches/nope/cancel", "No batch found with id 'nope'"),
        ("GET", "/v1/messages/batches/nope", "no message batch nope"),
        ("POST", "/v1/messages/batches/nope/cancel", "no message batch nope"),
        ("GET", "/v1/messages/batches/nope/results", "the batch has not ended: no results yet"),
        ("GET", "/v1beta/batches/nope", "batch nope not found"),
        ("POST", "/v1beta/batches/nope:cancel", "batch nope not found"),
    ],
)
def test_unknown_batch_gets_the_protocols_404(method: str, path: str, message: str) -> None:
    """Each protocol answers an id it does not know with its own 404 body, counted once."""
    with FakeOpenAIServer() as srv:
        status, body = _call(srv.url + path, method)
        assert status == 404
        assert body["error"]["message"] == message
        assert srv.stats()["requests"] == 1


def test_a_job_is_seen_by_its_own_protocol_only() -> None:
    """An Anthropic job is found, cancelled and shown; the OpenAI routes do not know it."""
    with FakeOpenAIServer() as srv:
        srv.batches.delay = 30.0  # the job stays in progress while the test looks at it
        params = {"model": "m", "max_tokens": 64, "messages": [{"role": "user", "content": "x"}]}
        entries = [{"custom_id": "a", "params": params}]
        status, created = _call(srv.url + "/v1/messages/batches", "POST", {"requests": entries})
        assert status == 200 and created["processing_status"] == "in_progress"
        batch_id = created["id"]
        status, cancelled = _call(srv.url + f"/v1/messages/batches/{batch_id}/cancel", "POST")
        assert status == 200 and cancelled["processing_status"] == "canceling"
        status, shown = _call(srv.url + f"/v1/messages/batches/{batch_id}")
        assert status == 200 and shown["id"] == batch_id
        status, _ = _call(srv.url + f"/v1/batches/{batch_id}")
        assert status == 404


def test_a_dropped_anthropic_reply_counts_as_an_error() -> None:
    """A reset is an error on every protocol's route (as on the OpenAI one)."""
    with FakeOpenAIServer() as srv:
        srv.enqueue(Reply.reset())
        params = {"model": "m", "max_tokens": 64, "messages": [{"role": "user", "content": "x"}]}
        with pytest.raises((urllib.error.URLError, ConnectionError)):
            _call(srv.url + "/v1/messages", "POST", params)
        assert srv.stats()["paths"]["/v1/messages"]["errors"] == 1
