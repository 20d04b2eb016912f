"""FakeOpenAIServer driven by the real `openai.AsyncOpenAI` client over HTTP on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai
import pytest

import sumjudge.testing.openai_server as server_module
from sumjudge.testing.openai_server import FakeOpenAIServer, Reply, tokenize

VERDICT = {
    "type": "object",
    "additionalProperties": False,
    "required": ["explanation", "score"],
    "properties": {
        "explanation": {"type": "string"},
        "score": {"type": "integer", "enum": [1, 2, 3]},
    },
}
MSGS = [
    {"role": "system", "content": "You are a strict judge."},
    {"role": "user", "content": "Judge: 42"},
]


def schema_format(schema: dict[str, Any]) -> dict[str, Any]:
    """The `response_format` asking for `schema` as strict JSON schema output."""
    return {"type": "json_schema", "json_schema": {"name": "v", "schema": schema, "strict": True}}


def client(srv: FakeOpenAIServer, **kw: Any) -> openai.AsyncOpenAI:
    """An SDK client pointed at `srv`, without SDK retries."""
    return openai.AsyncOpenAI(base_url=srv.base_url, api_key="sk-test", max_retries=0, **kw)


async def ask(
    target: FakeOpenAIServer | openai.AsyncOpenAI,
    messages: list[dict[str, str]] = MSGS,
    **kw: Any,
) -> Any:
    """One chat completion; pass a client to reuse it (creating one costs ~40 ms)."""
    if isinstance(target, openai.AsyncOpenAI):
        return await target.chat.completions.create(model="gpt-test", messages=messages, **kw)
    async with client(target) as c:
        return await c.chat.completions.create(model="gpt-test", messages=messages, **kw)


def get_json(url: str, method: str = "GET") -> Any:
    """The JSON body of a plain HTTP request to `url`."""
    req = urllib.request.Request(url, method=method, data=b"" if method == "POST" else None)
    with urllib.request.urlopen(req, timeout=5) as resp:
        return json.load(resp)


@pytest.fixture
def srv() -> Iterator[FakeOpenAIServer]:
    """A running server for one test."""
    with FakeOpenAIServer() as server:
        yield server


# ----------------------------------------------------------------------------- replies


@pytest.mark.asyncio
async def test_default_reply_follows_schema_in_order(srv: FakeOpenAIServer) -> None:
    """The default answer fits the schema, keys in schema order."""
    resp = await ask(srv, response_format=schema_format(VERDICT))
    choice = resp.choices[0]
    data = json.loads(choice.message.content)
    assert list(data) == ["explanation", "score"]  # explanation before score, as in schema
    assert isinstance(data["explanation"], str) and data["explanation"]
    assert data["score"] in (1, 2, 3)
    assert choice.finish_reason == "stop"
    assert resp.usage.completion_tokens == len(tokenize(choice.message.content))


@pytest.mark.asyncio
async def test_default_reply_nested_refs_bounds_and_determinism(srv: FakeOpenAIServer) -> None:
    """`$ref`, `anyOf` and bounds are honoured; one request, one answer."""
    schema = {
        "type": "object",
        "$defs": {
            "Claim": {
                "type": "object",
                "properties": {"text": {"type": "string"}, "ok": {"type": "boolean"}},
            }
        },
        "properties": {
            "claims": {"type": "array", "items": {"$ref": "#/$defs/Claim"}},
            "note": {"anyOf": [{"type": "null"}, {"type": "string", "maxLength": 5}]},
            "rating": {"type": "integer", "minimum": 4, "maximum": 6},
            "ratio": {"type": "number", "minimum": 0, "maximum": 1},
        },
    }
    fmt = {"type": "json_object", "schema": schema}
    seen = set()
    async with client(srv) as c:
        for i in range(8):
            msgs = [{"role": "user", "content": f"item {i}"}]
            data = json.loads((await ask(c, msgs, response_format=fmt)).choices[0].message.content)
            assert 1 <= len(data["claims"]) <= 2
            assert all(set(claim) == {"text", "ok"} for claim in data["claims"])
            assert isinstance(data["note"], str) and len(data["note"]) <= 5
            assert 4 <= data["rating"] <= 6 and 0 <= data["ratio"] <= 1
            again = await ask(c, msgs, response_format=fmt)
            assert json.loads(again.choices[0].message.content) == data  # deterministic
            seen.add(data["rating"])
    assert len(seen) > 1  # different items differ


@pytest.mark.asyncio
async def test_no_schema_and_recorded_request(srv: FakeOpenAIServer) -> None:
    """Without a schema: explanation + score; the request is recorded, its tokens counted."""
    resp = await ask(srv, temperature=0)
    assert json.loads(resp.choices[0].message.content)["score"] == 2
    assert list(json.loads(resp.choices[0].message.content)) == ["explanation", "score"]
    (req,) = srv.requests
    assert req["path"] == "/v1/chat/completions"
    assert req["headers"]["authorization"] == "Bearer sk-test"
    assert req["body"]["messages"] == MSGS and req["body"]["temperature"] == 0
    expected = sum(len(tokenize(m["role"])) + len(tokenize(m["content"])) for m in MSGS)
    assert resp.usage.prompt_tokens == expected
    assert resp._request_id.startswith("req_")


@pytest.mark.asyncio
async def test_custom_responder_sync_and_async(srv: FakeOpenAIServer) -> None:
    """A responder may return a `Reply` or an awaitable of one."""
    srv.responder = lambda body: Reply.text('```json\n{"score": 3}\n```')
    assert (await ask(srv)).choices[0].message.content.startswith("```json")

    async def slow(body: dict[str, Any]) -> Reply:
        await asyncio.sleep(0.01)
        return Reply.json({"model": body["model"]})

    srv.responder = slow
    assert json.loads((await ask(srv)).choices[0].message.content) == {"model": "gpt-test"}


# ----------------------------------------------------------------------------- logprobs


@pytest.mark.asyncio
async def test_logprobs_cover_content_exactly(srv: FakeOpenAIServer) -> None:
    """The logprob tokens spell the content, each with its alternatives."""
    resp = await ask(srv, response_format=schema_format(VERDICT), logprobs=True, top_logprobs=5)
    content = resp.choices[0].message.content
    entries = resp.choices[0].logprobs.content
    assert "".join(e.token for e in entries) == content
    for e in entries:
        assert len(e.top_logprobs) == 5
        assert e.top_logprobs[0].token == e.token and e.top_logprobs[0].logprob == e.logprob
        assert bytes(e.bytes).decode() == e.token


@pytest.mark.asyncio
async def test_digit_token_alternatives(srv: FakeOpenAIServer) -> None:
    """A score digit outranks its alternatives, which include every score from 1 to 3."""
    c = client(srv)
    for score in (1, 2, 3, 5):
        srv.enqueue(Reply.json({"explanation": "fine", "score": score}))
        resp = await ask(c, logprobs=True, top_logprobs=5)
        (digit,) = [e for e in resp.choices[0].logprobs.content if e.token == str(score)]
        alts = {a.token: a.logprob for a in digit.top_logprobs}
        assert {"1", "2", "3"} <= set(alts)
        assert max(alts, key=lambda t: alts[t]) == str(score)
    await c.close()


@pytest.mark.asyncio
async def test_logprobs_absent_when_not_allowed() -> None:
    """No logprobs when the reply, the request or the server rules them out."""
    with FakeOpenAIServer() as srv:
        srv.enqueue(Reply.json({"score": 2}, logprobs=False))
        assert (await ask(srv, logprobs=True, top_logprobs=3)).choices[0].logprobs is None
        assert (await ask(srv)).choices[0].logprobs is None  # not requested
    with FakeOpenAIServer(logprobs_support=False) as srv:  # silently ignored
        resp = await ask(srv, logprobs=True, top_logprobs=3)
        assert resp.choices[0].logprobs is None and resp.choices[0].message.content
    with FakeOpenAIServer(logprobs_support="reject_400") as srv:
        with pytest.raises(openai.BadRequestError):
            await ask(srv, logprobs=True, top_logprobs=3)
        assert (await ask(srv)).choices[0].message.content


# ----------------------------------------------------------------------------- errors


@pytest.mark.asyncio
async def test_429_retry_after_then_500_then_success(srv: FakeOpenAIServer) -> None:
    """Scripted errors come in order with their headers and count as errors."""
    srv.enqueue(
        Reply.error(429, "slow down", headers={"Retry-After": "1"}),
        Reply.error(500),
        Reply.json({"explanation": "ok", "score": 3}),
    )
    with pytest.raises(openai.RateLimitError) as rate:
        await ask(srv)
    assert rate.value.response.headers["retry-after"] == "1"
    assert rate.value.code == "rate_limit_exceeded" and "slow down" in str(rate.value)
    with pytest.raises(openai.InternalServerError):
        await ask(srv)
    assert json.loads((await ask(srv)).choices[0].message.content)["score"] == 3
    stats = srv.stats()
    assert stats["requests"] == 3 and stats["errors"] == 2


@pytest.mark.asyncio
async def test_truncation(srv: FakeOpenAIServer) -> None:
    """A truncated reply and the request's token limit both end with `length`."""
    srv.enqueue(Reply.truncated('{"explanation": "The sum'))
    resp = await ask(srv)
    assert resp.choices[0].finish_reason == "length"
    assert resp.choices[0].message.content == '{"explanation": "The sum'
    resp = await ask(srv, max_completion_tokens=4)  # the token limit truncates too
    assert resp.choices[0].finish_reason == "length" and resp.usage.completion_tokens == 4


@pytest.mark.asyncio
async def test_reset_and_delay(srv: FakeOpenAIServer) -> None:
    """A reset drops the connection; a delay holds the reply (past a short client timeout)."""
    srv.enqueue(Reply.reset(), Reply.delay(2.0), Reply.delay(0.05, Reply.text("late")))
    with pytest.raises(openai.APIConnectionError):
        await ask(srv)
    async with client(srv, timeout=0.3) as c:
        with pytest.raises(openai.APITimeoutError):
            await c.chat.completions.create(model="m", messages=MSGS)
    assert (await ask(srv)).choices[0].message.content == "late"


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("support", "error"),
    [("reject_500", openai.InternalServerError), ("reject_400", openai.BadRequestError)],
)
async def test_json_schema_rejection(support: Any, error: type[Exception]) -> None:
    """A refused `json_schema` format is an error that leaves the script alone."""
    with FakeOpenAIServer(json_schema_support=support) as srv:
        srv.enqueue(Reply.json({"explanation": "queued", "score": 1}))
        with pytest.raises(error):
            await ask(srv, response_format=schema_format(VERDICT))
        assert srv.queued == 1  # a rejected request does not consume the script
        resp = await ask(srv, response_format={"type": "json_object", "schema": VERDICT})
        assert json.loads(resp.choices[0].message.content)["explanation"] == "queued"
        resp = await ask(srv, response_format={"type": "json_object", "schema": VERDICT})
        assert list(json.loads(resp.choices[0].message.content)) == ["explanation", "score"]


@pytest.mark.asyncio
async def test_raw_newlines_in_strings() -> None:
    """Raw newlines inside strings make the JSON non-strict, as some servers do."""
    with FakeOpenAIServer(raw_newlines_in_strings=True) as srv:
        content = (
            (await ask(srv, response_format=schema_format(VERDICT))).choices[0].message.content
        )
    assert "\n" in content
    with pytest.raises(json.JSONDecodeError):
        json.loads(content)  # a control character inside a string is not strict JSON
    assert "\n" in json.loads(content, strict=False)["explanation"]


@pytest.mark.asyncio
async def test_fault_injection_is_seeded() -> None:
    """The same seed injects the same faults."""

    async def outcomes(seed: int) -> list[str]:
        with FakeOpenAIServer(error_rate=0.5, faults=("429", "500"), seed=seed) as srv:
            found = []
            c = client(srv)
            for _ in range(12):
                try:
                    await ask(c)
                    found.append("ok")
                except openai.RateLimitError as e:
                    assert e.response.headers["retry-after"] == "0"
                    found.append("429")
                except openai.InternalServerError:
                    found.append("500")
            await c.close()
            return found

    first = await outcomes(7)
    assert first == await outcomes(7)
    assert {"ok", "429", "500"} <= set(first)


@pytest.mark.asyncio
async def test_content_faults() -> None:
    """Each fault kind spoils responder answers; scripted answers are never spoiled."""
    fmt = schema_format(VERDICT)
    with FakeOpenAIServer(error_rate=1.0, faults=("out_of_range",)) as srv:
        srv.enqueue(Reply.json({"explanation": "scripted", "score": 2}))  # scripts never fault
        assert json.loads((await ask(srv, response_format=fmt)).choices[0].message.content) == {
            "explanation": "scripted",
            "score": 2,
        }
        assert (
            json.loads((await ask(srv, response_format=fmt)).choices[0].message.content)["score"]
            == 7
        )
    with FakeOpenAIServer(error_rate=1.0, faults=("truncated",)) as srv:
        assert (await ask(srv, response_format=fmt)).choices[0].finish_reason == "length"
    with FakeOpenAIServer(error_rate=1.0, faults=("prose",)) as srv:
        assert "{" not in (await ask(srv, response_format=fmt)).choices[0].message.content
    with (
        FakeOpenAIServer(error_rate=1.0, faults=("reset",)) as srv,
        pytest.raises(openai.APIConnectionError),
    ):
        await ask(srv)
    with FakeOpenAIServer(error_rate=1.0, faults=("timeout",), timeout_sleep=5) as srv:
        async with client(srv, timeout=0.2) as c:
            with pytest.raises(openai.APITimeoutError):
                await c.chat.completions.create(model="m", messages=MSGS)


# ----------------------------------------------------------------------------- accounting


def prompt_tokens(messages: list[dict[str, str]]) -> list[str]:
    """The server's prompt tokens for `messages`."""
    return [t for m in messages for t in tokenize(m["role"]) + tokenize(m["content"])]


def common_prefix(a: list[str], b: list[str]) -> int:
    """How many leading items `a` and `b` share."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


@pytest.mark.asyncio
async def test_prefix_cache_accounting() -> None:
    """Cached tokens are the longest block-aligned prefix seen within the TTL."""
    now = [0.0]
    shared = "Score the summary from 1 to 3. " * 40

    def msgs(doc: str, system: str = shared) -> list[dict[str, str]]:
        return [{"role": "system", "content": system}, {"role": "user", "content": doc}]

    one, two = msgs("Document one. " * 30), msgs("Document two. " * 30)
    with FakeOpenAIServer(cache_ttl=300, clock=lambda: now[0]) as srv:
        c = client(srv)
        first = await ask(c, one)
        assert first.usage.prompt_tokens == len(prompt_tokens(one))
        assert first.usage.prompt_tokens_details.cached_tokens == 0
        second = await ask(c, two)
        cached = second.usage.prompt_tokens_details.cached_tokens
        shared_tokens = common_prefix(prompt_tokens(one), prompt_tokens(two))
        assert cached == shared_tokens // 64 * 64 > 256  # longest 64-token-aligned prefix
        repeat = await ask(c, two)
        full = repeat.usage.prompt_tokens
        assert repeat.usage.prompt_tokens_details.cached_tokens == full // 64 * 64
        other = await ask(c, msgs("Document two. " * 30, system="Other rules. " * 100))
        assert other.usage.prompt_tokens_details.cached_tokens == 0
        await ask(c, msgs("tiny", system="short"))
        short = await ask(c, msgs("tiny", system="short"))
        assert short.usage.prompt_tokens_details.cached_tokens == 0  # below cache_min_tokens
        now[0] = 301.0  # past the TTL: everything expired
        late = await ask(c, two)
        await c.close()
        assert late.usage.prompt_tokens_details.cached_tokens == 0

        stats = srv.stats()
        path = stats["paths"]["/v1/chat/completions"]
        assert stats["requests"] == path["requests"] == 7
        assert stats["cached_tokens"] == cached + full // 64 * 64
        assert stats["prompt_tokens"] == sum(
            r.usage.prompt_tokens for r in (first, second, repeat, other, short, short, late)
        )
        billed = stats["prompt_tokens"] - 0.9 * stats["cached_tokens"]
        assert stats["billed_input_tokens"] == pytest.approx(billed)


def test_sync_use_http_stats_models_and_reset() -> None:
    """Sync use, the stats and models endpoints, reset and the 404 body."""
    with FakeOpenAIServer(model="fake-1") as srv:
        resp = asyncio.run(ask(srv))
        assert resp.choices[0].message.content
        models = get_json(srv.base_url + "/models")
        assert models["data"][0]["id"] == "fake-1"
        stats = get_json(srv.url + "/stats")
        assert stats["paths"]["/v1/chat/completions"]["requests"] == 1
        assert stats["completion_tokens"] == resp.usage.completion_tokens
        assert get_json(srv.url + "/stats/reset", method="POST") == {"ok": True}
        assert srv.stats()["requests"] == 0
        with pytest.raises(urllib.error.HTTPError) as missing:
            get_json(srv.base_url + "/nope")
        assert json.load(missing.value)["error"]["type"] == "invalid_request_error"
        missing.value.close()
    assert not any(t.name == "FakeOpenAIServer" for t in threading.enumerate())


@pytest.mark.asyncio
async def test_async_context_stops_with_request_in_flight() -> None:
    """Leaving the async context stops the server despite a pending reply."""
    async with FakeOpenAIServer() as srv:
        srv.enqueue(Reply.delay(30))
        async with client(srv, timeout=5) as c:
            task = asyncio.ensure_future(c.chat.completions.create(model="m", messages=MSGS))
            await asyncio.sleep(0.2)
            await srv.__aexit__(None, None, None)  # stops promptly despite the 30 s reply
            with pytest.raises(openai.APIConnectionError):
                await task
    assert not any(t.name == "FakeOpenAIServer" for t in threading.enumerate())


def test_cli_prints_url_and_serves() -> None:
    """`python -m sumjudge.testing.openai_server` prints its URL and answers."""
    src = str(Path(server_module.__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    cmd = [sys.executable, "-m", "sumjudge.testing.openai_server", "--port", "0", "--print-url"]
    cmd += ["--latency", "0.01", "--jitter", "0.005", "--seed", "1"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/v1")

        async def one() -> Any:
            async with openai.AsyncOpenAI(base_url=url, api_key="sk-test", max_retries=0) as c:
                return await c.chat.completions.create(
                    model="m", messages=MSGS, response_format=schema_format(VERDICT)
                )

        resp = asyncio.run(one())
        assert json.loads(resp.choices[0].message.content)["score"] in (1, 2, 3)
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err
