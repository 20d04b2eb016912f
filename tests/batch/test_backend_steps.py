"""The steps every batch backend shares: SDK errors, one reply read, a per-request status."""

from __future__ import annotations

import pytest

from sumjudge.batch.backend_steps import read_reply, rejected, sdk_errors
from sumjudge.errors import (
    AuthError,
    ProviderError,
    RateLimitError,
    RequestError,
    TransientProviderError,
    TruncatedResponseError,
)
from sumjudge.protocol import JudgeResponse


class _SDKError(Exception):
    pass


def _mapped(exc: Exception) -> ProviderError:
    return RequestError(f"mapped: {exc}")


def test_sdk_errors_of_the_named_kinds_become_the_adapters() -> None:
    with (
        pytest.raises(RequestError, match="mapped: boom") as caught,
        sdk_errors(_mapped, _SDKError),
    ):
        raise _SDKError("boom")
    assert isinstance(caught.value.__cause__, _SDKError)
    # not an SDK error: not the adapter's to map
    with pytest.raises(KeyError), sdk_errors(_mapped, _SDKError):
        raise KeyError("x")


def test_a_reply_read_gives_its_response_or_the_adapters_error() -> None:
    response = JudgeResponse(text="{}")
    assert read_reply(lambda: response).response is response

    def cut() -> JudgeResponse:
        raise TruncatedResponseError("cut")

    outcome = read_reply(cut)
    assert isinstance(outcome.error, TruncatedResponseError) and outcome.response is None


@pytest.mark.parametrize("kind", [AttributeError, KeyError, TypeError, ValueError])
def test_a_malformed_reply_is_transient_so_it_is_sent_again(kind: type[Exception]) -> None:
    def broken() -> JudgeResponse:
        raise kind("no choices")

    outcome = read_reply(broken)
    assert isinstance(outcome.error, TransientProviderError)
    assert "the batch returned an unreadable reply" in str(outcome.error)


def test_a_request_status_maps_as_online_with_the_providers_name() -> None:
    refused = rejected(401, "bad key", "Anthropic")
    assert isinstance(refused, AuthError)
    assert "Anthropic refused the credentials (HTTP 401): bad key" in str(refused)
    assert isinstance(rejected(429, "slow", "Google"), RateLimitError)
    assert isinstance(rejected(500, "oops", "Google"), TransientProviderError)
    assert isinstance(rejected(400, "bad", "the server"), RequestError)
