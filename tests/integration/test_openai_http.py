"""SummarizationEvaluator end to end through the OpenAI adapter and a local HTTP server.

Every test runs on both of the adapter's paths (`http_client`): the real openai SDK and the
direct aiohttp path, which must behave the same (retries, Retry-After, truncation,
capability fallbacks).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from sumjudge import RetryPolicy, SummarizationEvaluator, SummaryData
from sumjudge.testing.openai_server import FakeOpenAIServer, Reply

FAST = RetryPolicy(initial_delay=0.01, max_delay=0.02, timeout=10)
DATA = SummaryData(
    input="Rina: the launch moves to 14 March. Budi: budget stays at 40 million rupiah.",
    summary="The launch moves to 14 March and the budget stays at 40 million rupiah.",
)


_OPEN: list[SummarizationEvaluator] = []


@pytest.fixture(autouse=True, params=["sdk", "direct"])
def http_client(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The adapter's path for the whole test, through the documented environment variable."""
    path: str = request.param
    monkeypatch.setenv("SUMJUDGE_HTTP_CLIENT", path)
    return path


@pytest.fixture(autouse=True)
async def _close_evaluators() -> AsyncIterator[None]:
    yield
    while _OPEN:
        await _OPEN.pop().aclose()


def ev(
    srv: FakeOpenAIServer, metrics: list[str] | None = None, **kw: Any
) -> SummarizationEvaluator:
    evaluator = SummarizationEvaluator(
        "openai/fake-model",
        base_url=srv.base_url,
        enabled_metrics=metrics,
        retry_policy=kw.pop("retry_policy", FAST),
        **kw,
    )
    _OPEN.append(evaluator)
    return evaluator


def v(score: int) -> dict[str, Any]:
    return {"explanation": "Checked against the source.", "score": score}


async def test_valid_json_with_logprobs(server: FakeOpenAIServer) -> None:
    out = (await ev(server).evaluate(DATA))["summary"]
    for m in ("coherence", "consistency", "relevance", "fluency"):
        assert out[m]["score"] in (1, 2, 3)
        assert out[m]["score_mode"] == "logprob_weighted"
        assert 1.0 <= out[m]["weighted_score"] <= 3.0
        # the server puts most mass on the chosen digit
        assert abs(out[m]["weighted_score"] - out[m]["score"]) < 0.6
    body = server.requests[0]["body"]
    assert body["response_format"]["type"] == "json_schema"
    assert body["logprobs"] is True and body["top_logprobs"] == 5
    assert body["temperature"] == 0
    assert server.requests[0]["headers"]["authorization"] == "Bearer sk-no-key-needed"


async def test_the_chosen_path_is_used(server: FakeOpenAIServer, http_client: str) -> None:
    evaluator = ev(server, ["fluency"])
    await evaluator.evaluate(DATA)
    assert evaluator.caller is not None
    assert getattr(evaluator.caller.judge, "http_client", None) == http_client
    agent = server.requests[0]["headers"].get("user-agent", "")
    assert agent.startswith("sumjudge/") == (http_client == "direct")


async def test_fenced_json_and_prose_with_json(server: FakeOpenAIServer) -> None:
    server.enqueue(
        Reply.text('```json\n{"explanation": "Good flow.", "score": 3}\n```'),
        Reply.text('Let me think. The verdict: {"explanation": "Ok.", "score": 2} Done.'),
    )
    out = (await ev(server, ["coherence"]).evaluate(DATA))["summary"]
    assert out["coherence"]["score"] == 3
    out = (await ev(server, ["fluency"]).evaluate(DATA))["summary"]
    assert out["fluency"]["score"] == 2


async def test_prose_gets_a_repair_re_ask(server: FakeOpenAIServer) -> None:
    server.enqueue(Reply.text("It is a decent summary."), Reply.json(v(3)))
    out = (await ev(server, ["coherence"]).evaluate(DATA))["summary"]
    assert out["coherence"]["score"] == 3
    assert len(server.requests) == 2
    assert server.requests[1]["body"]["messages"][-2]["role"] == "assistant"


async def test_logprobs_absent_is_reported(server: FakeOpenAIServer) -> None:
    server.enqueue(Reply.json(v(2), logprobs=False))
    out = (await ev(server, ["fluency"]).evaluate(DATA))["summary"]
    assert out["fluency"]["score"] == 2
    assert out["fluency"]["score_mode"] == "parsed"
    assert out["fluency"]["score_mode_note"] == "the server returned no logprobs"


async def test_429_with_retry_after_is_honoured(server: FakeOpenAIServer) -> None:
    server.enqueue(Reply.error(429, "slow down", headers={"Retry-After": "1"}), Reply.json(v(3)))
    started = time.monotonic()
    out = (await ev(server, ["fluency"]).evaluate(DATA))["summary"]
    assert time.monotonic() - started >= 0.95
    assert out["fluency"]["score"] == 3 and len(server.requests) == 2


async def test_500_then_success(server: FakeOpenAIServer) -> None:
    server.enqueue(Reply.error(500, "boom"), Reply.error(503, "busy"), Reply.json(v(1)))
    evaluator = ev(server, ["consistency"])
    out = (await evaluator.evaluate(DATA))["summary"]
    assert out["consistency"]["score"] == 1 and out["relevancy_rating"] == "bad"
    assert evaluator.caller is not None and evaluator.caller.stats.retries == 2


async def test_truncation_is_an_error_before_parsing(server: FakeOpenAIServer) -> None:
    """A cut reply is asked again once with more room; cut again, it is an error."""
    server.enqueue(
        Reply.truncated('{"explanation": "The summary is'),
        Reply.truncated('{"explanation": "The summary is'),
    )
    out = (await ev(server, ["coherence"]).evaluate(DATA))["summary"]
    assert out["coherence"]["score"] is None
    assert "TruncatedResponseError" in out["coherence"]["error"]
    assert out["relevancy_rating"] is None
    assert len(server.requests) == 2


async def test_truncated_reply_is_recovered_with_more_room(server: FakeOpenAIServer) -> None:
    server.enqueue(Reply.truncated('{"explanation": "The summary is'), Reply.json(v(3)))
    evaluator = ev(server, ["coherence"])
    out = (await evaluator.evaluate(DATA))["summary"]
    assert out["coherence"]["score"] == 3 and len(server.requests) == 2
    assert evaluator.caller is not None and evaluator.caller.stats.attempts == 2


async def test_connection_reset_is_retried(server: FakeOpenAIServer) -> None:
    server.enqueue(Reply.reset(), Reply.json(v(3)))
    out = (await ev(server, ["fluency"]).evaluate(DATA))["summary"]
    assert out["fluency"]["score"] == 3


async def test_timeout_is_retried(server: FakeOpenAIServer) -> None:
    server.enqueue(Reply.delay(2.0, Reply.json(v(1))), Reply.json(v(3)))
    policy = RetryPolicy(initial_delay=0.01, max_delay=0.02, timeout=0.5)
    out = (await ev(server, ["fluency"], retry_policy=policy).evaluate(DATA))["summary"]
    assert out["fluency"]["score"] == 3


async def test_auth_error_names_the_setting() -> None:
    with FakeOpenAIServer() as srv:
        srv.enqueue(*(Reply.error(401, "bad key") for _ in range(4)))
        out = (await ev(srv, ["fluency"]).evaluate(DATA))["summary"]
    assert "AuthError" in out["fluency"]["error"] and "OPENAI_API_KEY" in out["fluency"]["error"]


async def test_llamacpp_like_server_capability_detection() -> None:
    with FakeOpenAIServer(json_schema_support="reject_500", raw_newlines_in_strings=True) as srv:
        evaluator = ev(srv)
        out = (await evaluator.evaluate(DATA))["summary"]
        again = (await evaluator.evaluate(DATA))["summary"]
        formats = [r["body"].get("response_format", {}).get("type") for r in srv.requests]
    for body in (out, again):
        assert all(body[m]["score"] in (1, 2, 3) for m in ("coherence", "fluency"))
    # the first rejection downgrades once; later calls go straight to json_object + schema
    assert formats[0] == "json_schema"
    assert formats.count("json_schema") <= 4  # concurrent first calls may all try it
    assert formats[-1] == "json_object"
    assert "schema" in srv.requests[-1]["body"]["response_format"]


async def test_server_that_rejects_logprobs() -> None:
    with FakeOpenAIServer(logprobs_support="reject_400") as srv:
        out = (await ev(srv, ["fluency"]).evaluate(DATA))["summary"]
        last = srv.requests[-1]["body"]
    assert out["fluency"]["score"] in (1, 2, 3)
    assert out["fluency"]["score_mode"] == "parsed"
    assert "logprobs" in out["fluency"]["score_mode_note"]
    assert "logprobs" not in last


async def test_out_of_range_score_fails_after_repair(server: FakeOpenAIServer) -> None:
    server.enqueue(Reply.json(v(7)), Reply.json(v(5)), Reply.json(v(9)))
    out = (await ev(server, ["fluency"]).evaluate(DATA))["summary"]
    assert out["fluency"]["score"] is None and "outside the scale" in out["fluency"]["error"]


@pytest.mark.parametrize("metrics", [["coherence", "fluency"], None])
async def test_spec_shape_against_the_server(server: FakeOpenAIServer, metrics: Any) -> None:
    out = await ev(server, metrics).evaluate(DATA)
    body = out["summary"]
    head = [
        "global_explanation",
        "relevancy_rating",
        "score",
        "possible_issues",
        "binary_score",
        "avg_score",
    ]
    assert list(body)[:6] == head
    names = metrics or ["coherence", "consistency", "relevance", "fluency"]
    assert list(body)[6:] == [*names, "rating_confidence", "uncertain"]


async def test_server_rejecting_both_length_fields_drops_max_tokens(
    server: FakeOpenAIServer,
) -> None:
    server.enqueue(
        Reply.error(
            400,
            "Setting 'max_tokens' and 'max_completion_tokens' at the same time is not supported",
        )
    )
    out = (await ev(server, ["fluency"]).evaluate(DATA))["summary"]
    assert out["fluency"]["score"] in (1, 2, 3)
    first, second = (r["body"] for r in server.requests)
    assert "max_tokens" in first and "max_completion_tokens" in first
    assert "max_tokens" not in second and second["max_completion_tokens"] == 1024


async def test_a_plain_400_is_not_masked_by_capability_detection(
    server: FakeOpenAIServer,
) -> None:
    server.enqueue(Reply.error(400, "context length exceeded"))
    out = (await ev(server, ["fluency"]).evaluate(DATA))["summary"]
    assert "RequestError" in out["fluency"]["error"]
    assert len(server.requests) == 1
