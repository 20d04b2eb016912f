"""The steps every provider's batch backend takes the same way.

`openai.py`, `anthropic.py` and `gemini.py` differ in their SDK calls and result shapes;
what they keep and what they do with an SDK error and with one request's result is the
same: each works on its online adapter (`SDKBackend`: the adapter builds and reads the
requests, its client sends them), an SDK error becomes the adapter's own error, a reply is
read by the adapter (an unreadable one is a transient error, sent again), and a
per-request error status maps as online.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Generic, Protocol, TypeVar

from ..errors import ProviderError, TransientProviderError
from ..judges._http import status_error
from ..protocol import JudgeResponse
from .provider import Outcome

__all__ = ["AdapterJudge", "SDKBackend", "read_reply", "rejected", "sdk_errors", "unreadable"]


class AdapterJudge(Protocol):
    """What a batch backend uses of every online adapter: its SDK client, its error mapping."""

    @property
    def _client(self) -> Any: ...  # an attribute, or built on first use (OpenAIJudge)

    def _map_error(self, exc: Exception) -> ProviderError: ...


JudgeT = TypeVar("JudgeT", bound=AdapterJudge)


class SDKBackend(Generic[JudgeT]):
    """A batch backend's base: the online adapter `judge`, its client, its SDK's errors.

    Args:
        judge: The online adapter whose requests the batches carry and whose reader and
            error mapping read what comes back.
        error_kinds: The SDK's exception classes that `_sdk_errors` maps.
    """

    def __init__(self, judge: JudgeT, *error_kinds: type[Exception]) -> None:
        self.judge = judge
        self._client = judge._client
        self._error_kinds = error_kinds

    def _sdk_errors(self) -> AbstractContextManager[None]:
        """A block whose SDK errors are raised as the adapter maps them online."""
        return sdk_errors(self.judge._map_error, *self._error_kinds)


@contextmanager
def sdk_errors(
    map_error: Callable[[Exception], ProviderError], *kinds: type[Exception]
) -> Iterator[None]:
    """Raise an SDK error of `kinds` as `map_error` maps it (the adapter's online mapping)."""
    try:
        yield
    except kinds as exc:
        raise map_error(exc) from exc


def unreadable(exc: Exception) -> Outcome:
    """A reply the batch returned that cannot be read: a transient error, so it is re-sent."""
    return Outcome(error=TransientProviderError(f"the batch returned an unreadable reply: {exc}"))


def read_reply(read: Callable[[], JudgeResponse]) -> Outcome:
    """The outcome of `read`ing one reply with the adapter: its response or its error."""
    try:
        return Outcome(response=read())
    except ProviderError as exc:  # what the adapter raises for a reply (e.g. a refusal)
        return Outcome(error=exc)
    except (AttributeError, KeyError, TypeError, ValueError) as exc:  # a malformed reply
        return unreadable(exc)


def rejected(status: int, detail: str, provider: str) -> ProviderError:
    """The error a request's HTTP `status` means, as online (a batch gives no Retry-After)."""
    return status_error(
        status,
        detail,
        retry_after=None,
        refused=provider + " refused the credentials (HTTP {status}): {detail}",
    )
