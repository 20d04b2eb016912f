"""One contract, every judge adapter: replies, usage and the error mapping.

The OpenAI, Google and Anthropic adapters run through their real SDKs against the local
server (which speaks all three protocols); the OpenAI adapter also runs on its direct
HTTP path ("openai-direct", `judges/openai_direct.py`), which must behave exactly as its
SDK path; the scripted judge runs in process.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from sumjudge import (
    AuthError,
    RateLimitError,
    RequestError,
    ScriptedJudge,
    TransientProviderError,
    TruncatedResponseError,
)
from sumjudge.judges import Judge, get_judge
from sumjudge.metrics import SUMMARY_METRICS
from sumjudge.runner import JudgeCaller, RetryPolicy
from sumjudge.testing.openai_server import FakeOpenAIServer, Reply

PROVIDERS = ["openai-sdk", "openai-direct", "google", "anthropic"]
REQUEST = SUMMARY_METRICS["coherence"].build_request(
    "Rina: we ship on Friday. " * 80, "They ship Friday.", logprobs=True
)


def make(provider: str, srv: FakeOpenAIServer) -> Judge:
    if provider.startswith("openai-"):
        path = provider.removeprefix("openai-")
        judge = get_judge("openai/fake", base_url=srv.base_url, http_client=path)
        assert getattr(judge, "http_client", None) == path
        return judge
    if provider == "google":
        return get_judge("google/gemini-fake", api_key="k", base_url=srv.url)
    return get_judge("anthropic/claude-fake", api_key="k", base_url=srv.url)


@pytest.fixture
async def server() -> AsyncIterator[FakeOpenAIServer]:
    async with FakeOpenAIServer() as srv:
        yield srv


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_valid_reply_and_usage(provider: str, server: FakeOpenAIServer) -> None:
    judge = make(provider, server)
    try:
        resp = await judge.complete(REQUEST)
    finally:
        await judge.aclose()
    data = json.loads(resp.text)
    assert set(data) == {"explanation", "score"} and data["score"] in (1, 2, 3)
    assert resp.usage.prompt_tokens > 0 and resp.usage.completion_tokens > 0
    if provider == "anthropic":
        assert resp.logprobs is None and resp.logprobs_note
    else:
        assert resp.logprobs and "".join(t.token for t in resp.logprobs) == resp.text


ERRORS: list[tuple[Callable[[], Reply], type[Exception], Callable[[Any], bool]]] = [
    (
        lambda: Reply.error(429, "slow", headers={"Retry-After": "7"}),
        RateLimitError,
        lambda e: e.retry_after == 7.0 and e.retryable,
    ),
    (lambda: Reply.error(500, "boom"), TransientProviderError, lambda e: e.retryable),
    (lambda: Reply.error(503, "busy"), TransientProviderError, lambda e: e.status == 503),
    (lambda: Reply.error(401, "who"), AuthError, lambda e: not e.retryable),
    (lambda: Reply.error(400, "bad"), RequestError, lambda e: not e.retryable),
    (lambda: Reply.reset(), TransientProviderError, lambda e: e.retryable),
]


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize(("reply", "error", "check"), ERRORS)
async def test_error_mapping(
    provider: str,
    reply: Callable[[], Reply],
    error: type[Exception],
    check: Callable[[Any], bool],
    server: FakeOpenAIServer,
) -> None:
    server.enqueue(reply())
    judge = make(provider, server)
    try:
        with pytest.raises(error) as info:
            await judge.complete(REQUEST)
    finally:
        await judge.aclose()
    assert check(info.value)


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_cut_reply_is_truncated_for_the_runner(
    provider: str, server: FakeOpenAIServer
) -> None:
    """An adapter reports the finish reason of a cut reply; the runner raises it, once."""
    server.enqueue(Reply.truncated('{"explanation": "cut'))
    judge = make(provider, server)
    try:
        cut = await judge.complete(REQUEST)
        server.enqueue(Reply.truncated('{"explanation": "cut'))
        with pytest.raises(TruncatedResponseError) as info:
            await JudgeCaller(judge, RetryPolicy(max_attempts=1)).call(REQUEST)
    finally:
        await judge.aclose()
    assert cut.finish_reason in ("length", "max_tokens")
    assert not info.value.retryable and info.value.usage is not None  # billed all the same
    assert info.value.usage.completion_tokens == cut.usage.completion_tokens > 0
    assert f"({REQUEST.max_tokens})" in str(info.value)


async def test_scripted_judge_contract() -> None:
    judge = ScriptedJudge([{"explanation": "x", "score": 2}, RateLimitError("r", retry_after=1)])
    resp = await judge.complete(REQUEST)
    assert json.loads(resp.text)["score"] == 2 and resp.usage.prompt_tokens > 0
    with pytest.raises(RateLimitError):
        await judge.complete(REQUEST)
    with pytest.raises(Exception, match="no reply left"):
        await judge.complete(REQUEST)
    assert len(judge.requests) == 3


async def test_anthropic_cache_breakpoint_on_the_shared_prefix(server: FakeOpenAIServer) -> None:
    judge = make("anthropic", server)
    try:
        first = await judge.complete(REQUEST)
        other = SUMMARY_METRICS["fluency"].build_request(
            "Rina: we ship on Friday. " * 80, "They ship Friday."
        )
        second = await judge.complete(other)
    finally:
        await judge.aclose()
    body = server.requests[0]["body"]
    user_blocks = body["messages"][0]["content"]
    assert "cache_control" in user_blocks[0] and "cache_control" not in user_blocks[-1]
    assert "temperature" not in body  # removed from the anthropic SDK
    assert first.usage.cache_write_tokens > 0 and first.usage.cached_prompt_tokens == 0
    assert second.usage.cached_prompt_tokens > 0


async def _outcome(path: str, reply: Reply) -> tuple[Any, dict[str, Any]]:
    # a server of its own: the second request to one server would hit its prefix cache
    async with FakeOpenAIServer() as srv:
        srv.enqueue(reply)
        judge = make(f"openai-{path}", srv)
        try:
            outcome: Any = await judge.complete(REQUEST)
        except Exception as exc:
            outcome = exc
        finally:
            await judge.aclose()
        return outcome, srv.requests[-1]


@pytest.mark.parametrize(
    "reply",
    [
        lambda: Reply.error(429, "slow", headers={"Retry-After": "7"}),
        lambda: Reply.error(429, "slow", headers={"Retry-After-Ms": "1500"}),
        lambda: Reply.error(503, "busy", headers={"Retry-After": "2"}),
        lambda: Reply.error(401, "who"),
        lambda: Reply.error(403, "no"),
        lambda: Reply.error(404, "no such model"),
        lambda: Reply.error(422, "bad schema"),
        lambda: Reply.truncated('{"explanation": "cut'),
        lambda: Reply.json({"explanation": "x", "score": 2}, logprobs=False),
        lambda: Reply.json({"explanation": "x", "score": 2}),
        lambda: Reply.broken(),
        lambda: Reply.reset(),
    ],
)
async def test_sdk_and_direct_paths_agree(reply: Callable[[], Reply]) -> None:
    """Same body and headers sent; same reply read, or the same error raised, on both paths."""
    sdk, sdk_sent = await _outcome("sdk", reply())
    direct, direct_sent = await _outcome("direct", reply())
    assert sdk_sent["body"] == direct_sent["body"]
    for header in ("authorization", "content-type"):
        assert sdk_sent["headers"][header] == direct_sent["headers"][header]
    assert type(sdk) is type(direct)
    if isinstance(sdk, Exception):
        for field in ("status", "retry_after", "retryable", "usage"):
            assert getattr(sdk, field, None) == getattr(direct, field, None), field
        if not str(sdk).startswith("connection failed"):  # the cause is the library's words
            assert str(sdk) == str(direct)
    else:
        assert (sdk.text, sdk.usage, sdk.logprobs, sdk.logprobs_note, sdk.finish_reason) == (
            direct.text,
            direct.usage,
            direct.logprobs,
            direct.logprobs_note,
            direct.finish_reason,
        )
