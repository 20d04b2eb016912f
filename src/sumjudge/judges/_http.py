"""Helpers shared by the HTTP-based adapters: the constructor, keys and the error mapping."""

from __future__ import annotations

import email.utils
import os
import time
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from ..errors import (
    AuthError,
    ConnectionFailedError,
    MissingCredentialsError,
    ProviderError,
    RateLimitError,
    RequestError,
    TransientProviderError,
)
from ..protocol import LLM_CAPABILITIES, Capabilities
from ..redaction import redact, remember_key

__all__ = [
    "SDKJudge",
    "provider_text",
    "resolve_key",
    "retry_after_seconds",
    "sdk_error",
    "status_error",
]


class SDKJudge:
    """Base of the adapters that call a provider through its official SDK.

    Subclasses set `provider` and `env_var` and open their client in `_connect`.

    Attributes:
        provider: The name prefix, e.g. "openai" in "openai/gpt-4o".
        env_var: The environment variable holding the API key.
        model: The model name as the provider knows it.
        name: "provider/model".
        identity: The name, plus "@base_url" for a custom endpoint.
        capabilities: An LLM's: judges every task, replies cached.
    """

    capabilities: Capabilities = LLM_CAPABILITIES
    provider: ClassVar[str]
    env_var: ClassVar[str]
    _client: Any

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float = 120.0,
    ) -> None:
        """Open the provider's client.

        Args:
            model: The model name (without the "provider/" prefix).
            api_key: The key; defaults to the environment variable `env_var`.
            base_url: Another endpoint speaking the provider's API (tests, proxies).
            timeout: Seconds per call.
        """
        self.model = model
        self.name = f"{self.provider}/{model}"
        endpoint = self._connect(api_key, base_url, timeout)
        self.identity = f"{self.name}@{endpoint}" if endpoint else self.name

    def _connect(self, api_key: str | None, base_url: str | None, timeout: float) -> str | None:
        """Import the SDK, resolve the key and create the client; return the custom endpoint."""
        raise NotImplementedError

    async def aclose(self) -> None:
        """Release the client's connections."""
        await self._client.close()


def provider_text(text: object, limit: int = 300) -> str:
    """A provider's message as we keep it: keys removed first (`redaction`), then shortened.

    In that order: a key cut in two by the shortening would survive as a fragment.
    """
    return redact(str(text))[:limit]


def retry_after_seconds(headers: Mapping[str, Any] | None) -> float | None:
    """Seconds to wait from `Retry-After-Ms` or `Retry-After` (delta or HTTP date).

    Returns None when the header is absent or unreadable.
    """
    if headers is None:
        return None
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            return max(0.0, float(value) * scale)
        except (TypeError, ValueError):
            if name == "retry-after" and (t := email.utils.parsedate_tz(str(value))) is not None:
                return max(0.0, email.utils.mktime_tz(t) - time.time())
    return None


def resolve_key(explicit: str | None, env_var: str, provider: str, *, required: bool = True) -> str:
    """The API key from the argument, else the environment; never logged."""
    if explicit:
        remember_key(explicit)  # from now on redacted wherever text enters (`redaction`)
        return explicit
    value = os.environ.get(env_var, "")
    if value:
        remember_key(value)
        return value
    if required:
        raise MissingCredentialsError(provider, env_var)
    return ""


def status_error(
    status: int, detail: str, *, retry_after: float | None, refused: str
) -> ProviderError:
    """The error for an HTTP error status, mapped the same way for every provider.

    429 is a `RateLimitError`, 401/403 an `AuthError`, 408/409 and 5xx a
    `TransientProviderError`, any other status a `RequestError`.

    Args:
        status: The HTTP status code.
        detail: The provider's message, already shortened.
        retry_after: Seconds the provider asked us to wait, if it said so.
        refused: The `AuthError` message; `{status}` and `{detail}` are filled in.

    Returns:
        The error to raise.
    """
    if status == 429:
        return RateLimitError(
            f"rate limited (HTTP 429): {detail}", retry_after=retry_after, status=status
        )
    if status in (401, 403):
        return AuthError(refused.format(status=status, detail=detail), status=status)
    if status in (408, 409) or status >= 500:
        return TransientProviderError(
            f"server error (HTTP {status}): {detail}", retry_after=retry_after, status=status
        )
    return RequestError(f"request rejected (HTTP {status}): {detail}", status=status)


def sdk_error(
    sdk: Any, exc: Exception, *, detail: Callable[[Any], str], refused: str, label: str
) -> ProviderError:
    """Map an exception of the `openai` or `anthropic` SDK, which share one error hierarchy.

    Args:
        sdk: The SDK module (`openai` or `anthropic`).
        exc: What the SDK raised.
        detail: The provider's message from an `APIStatusError`, shortened.
        refused: The `AuthError` message template (see `status_error`).
        label: The SDK's name in the message for an unexpected error.

    Returns:
        The error to raise.
    """
    if isinstance(exc, sdk.APITimeoutError):
        return TransientProviderError("the request timed out")
    if isinstance(exc, sdk.APIConnectionError):
        return ConnectionFailedError(f"connection failed: {exc.__cause__ or exc}")
    if isinstance(exc, sdk.APIStatusError):
        return status_error(
            exc.status_code,
            detail(exc),
            retry_after=retry_after_seconds(exc.response.headers),
            refused=refused,
        )
    return ProviderError(f"unexpected {label} SDK error: {exc}")
