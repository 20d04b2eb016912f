"""The steps every provider's batch backend takes the same way.

`openai.py`, `anthropic.py` and `gemini.py` differ in their SDK calls and result shapes;
what they do with an SDK error and with one request's result is the same: an SDK error
becomes the online adapter's own error, a reply is read by the adapter (an unreadable one
is a transient error, sent again), and a per-request error status maps as online.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ..errors import ProviderError, TransientProviderError
from ..judges._http import status_error
from ..protocol import JudgeResponse
from .provider import Outcome

__all__ = ["read_reply", "rejected", "sdk_errors", "unreadable"]


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
