"""Judge adapter for OpenAI and OpenAI-compatible servers (vLLM, Ollama, llama.cpp server).

Capability detection: servers differ in what they accept. We start with the richest
request (native `json_schema` structured output, token logprobs) and, when a server
rejects a feature, retry the same call once without it and remember the downgrade for
this judge. The downgrade order for structured output is
`json_schema` -> `json_object` with the schema (llama.cpp) -> `json_object` -> plain text.

The reply-length cap: OpenAI's own API takes `max_completion_tokens` (and rejects the
deprecated `max_tokens` for some models, and the two together), while some compatible
servers silently ignore `max_completion_tokens` (llama-cpp-python 0.3 then generates until
its context is full). So a custom `base_url` gets both fields, and whichever one the server
rejects by name is dropped for this judge.

Two ways to send (`http_client`, `docs/http.md`): "sdk", the official SDK (the default for
OpenAI's own API), and "direct", a plain aiohttp POST (`openai_direct`, the default for a
custom `base_url`, where the SDK's per-call CPU caps throughput). Both send the same body,
and everything after the HTTP answer (errors, Retry-After, usage, logprobs, the
capability fallbacks) is the code below, shared by the two. A reply cut at the token
limit comes back with its `finish_reason` ("length"); the runner raises it as
`TruncatedResponseError`, for every backend alike.
"""

from __future__ import annotations

import importlib.util
import os
import time
from collections.abc import Mapping
from typing import Any

from .. import fastjson
from ..errors import (
    ConfigError,
    MissingDependencyError,
    ProviderError,
    TransientProviderError,
)
from ..protocol import JudgeRequest, JudgeResponse
from ._http import (
    SDKJudge,
    provider_text,
    resolve_key,
    retry_after_seconds,
    sdk_error,
    status_error,
)
from .openai_direct import DirectChat, error_body
from .openai_reply import ChatReply, read_bytes, read_dict

__all__ = ["HTTP_CLIENTS", "OpenAIJudge", "choose_http_client"]

HTTP_CLIENTS = ("sdk", "direct")
"""The ways `OpenAIJudge` can send a request (`http_client=`, `--http-client`)."""

# What `chat.completions.create` asks of the client besides the body: bearer-token auth
# (`security` is a key of the SDK's public `RequestOptions`).
_AUTH: dict[str, Any] = {"security": {"bearer_auth": True}}

_SCHEMA_MODES = ("json_schema", "json_object_schema", "json_object", "none")
_FEATURE_WORDS = ("response_format", "json_schema", "schema", "grammar", "logprob", "unsupported")
_UNKNOWN_FIELD = ("extra", "unknown", "unrecognized", "unexpected", "not permitted", "support")


class OpenAIJudge(SDKJudge):
    """Judge through the official `openai` SDK's chat-completions API.

    Args:
        model: the model name as the server knows it (without the "openai/" prefix).
        api_key: the key; defaults to $OPENAI_API_KEY. Not needed for a custom `base_url`.
        base_url: an OpenAI-compatible server, e.g. "http://127.0.0.1:8000/v1"; defaults
            to $SUMJUDGE_BASE_URL, then the SDK's own default.
        timeout: seconds per call.
        http_client: "sdk" or "direct" (see `choose_http_client`); defaults to
            $SUMJUDGE_HTTP_CLIENT, then "direct" for a custom `base_url` and "sdk" otherwise.
    """

    provider = "openai"
    env_var = "OPENAI_API_KEY"

    def __init__(self, model: str, *, http_client: str | None = None, **connection: Any) -> None:
        # `connection`: SDKJudge's api_key, base_url and timeout
        self._http_choice = http_client
        super().__init__(model, **connection)

    def _connect(self, api_key: str | None, base_url: str | None, timeout: float) -> str | None:
        self.base_url = base_url or os.environ.get("SUMJUDGE_BASE_URL") or None
        self.http_client = choose_http_client(self._http_choice, self.base_url)
        _require("openai", *(("aiohttp",) if self.http_client == "direct" else ()), name=self.name)
        key = resolve_key(api_key, self.env_var, "OpenAI", required=self.base_url is None)
        # Local servers often need no key, but the SDK insists on a non-empty one.
        self._key = key or "sk-no-key-needed"
        self._timeout = timeout
        self._sdk: tuple[Any, Any] | None = None
        self._direct: DirectChat | None = None
        if self.http_client == "direct":
            # A custom server's URL as given. Without one, the SDK's client says where
            # OpenAI's API is (it reads the environment and the data residency).
            url = self.base_url or str(self._client.base_url)
            self._direct = DirectChat(url, self._key, timeout)
        self._schema_mode = 0
        self._schema_confirmed = False
        self._logprobs_ok = True
        # the OpenAI API wants max_completion_tokens; compatible servers may only know max_tokens
        self._limit_fields: tuple[str, ...] = (
            ("max_completion_tokens",)
            if self.base_url is None
            else ("max_completion_tokens", "max_tokens")
        )
        self.capability_notes: list[str] = []
        return self.base_url

    @property
    def _client(self) -> Any:
        """The SDK's client, built when first needed: the SDK path and the batch API use it.

        The direct path never needs it for a custom server, so there it is neither
        imported nor built: importing the SDK costs ~0.5 s of CPU and doubles the
        objects every full garbage collection walks during a run.
        """
        return self._sdk_parts()[1]

    @property
    def _openai(self) -> Any:
        """The `openai` module (its error types), imported with the client."""
        return self._sdk_parts()[0]

    def _sdk_parts(self) -> tuple[Any, Any]:
        if self._sdk is None:
            import openai

            client = openai.AsyncOpenAI(
                api_key=self._key,
                base_url=self.base_url,
                timeout=self._timeout,
                max_retries=0,  # retries are the runner's job, one policy for all providers
            )
            self._sdk = (openai, client)
        return self._sdk

    def _kwargs(self, request: JudgeRequest) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": m.role, "content": m.content} for m in request.messages],
            "temperature": request.temperature,
        }
        for name in self._limit_fields:
            kwargs[name] = request.max_tokens
        mode = _SCHEMA_MODES[self._schema_mode]
        if request.schema is not None:
            if mode == "json_schema":
                kwargs["response_format"] = {
                    "type": "json_schema",
                    "json_schema": {
                        "name": request.schema_name,
                        "schema": request.schema,
                        "strict": True,
                    },
                }
            elif mode == "json_object_schema":
                kwargs["response_format"] = {"type": "json_object", "schema": request.schema}
            elif mode == "json_object":
                kwargs["response_format"] = {"type": "json_object"}
        if request.logprobs and self._logprobs_ok:
            kwargs["logprobs"] = True
            kwargs["top_logprobs"] = request.top_logprobs
        return kwargs

    def _downgrade_for(self, error: ProviderError, kwargs: dict[str, Any], mode: int) -> bool:
        """After a rejection of `kwargs`, drop the feature the server most likely refused.

        `mode` is the structured-output mode `kwargs` were built with (an index of
        `_SCHEMA_MODES`): a concurrent call may have downgraded since. Returns True when
        something was dropped and the call is worth repeating.
        """
        message = str(error).lower()
        status = error.status or 0
        if status not in (400, 404, 415, 422, 500, 501):
            return False
        if self._drop_limit_field(message, kwargs, status):
            return True
        # Only a rejection that names the feature counts: a 5xx is usually transient and a
        # 400 may be about something else entirely (llama.cpp answers json_schema with
        # HTTP 500 and says so).
        if not any(k in message for k in _FEATURE_WORDS):
            return False
        if "logprobs" in kwargs and "logprob" in message:
            if not self._logprobs_ok:
                return True  # a concurrent call already dropped them
            self._logprobs_ok = False
            self.capability_notes.append(f"server rejected logprobs (HTTP {status})")
            return True
        if "response_format" in kwargs and not self._schema_confirmed:
            if mode != self._schema_mode:
                return True  # a concurrent call already downgraded; just repeat
            if self._schema_mode >= len(_SCHEMA_MODES) - 1:
                return False
            old = _SCHEMA_MODES[self._schema_mode]
            self._schema_mode += 1
            self.capability_notes.append(
                f"server rejected response_format {old} (HTTP {status}); "
                f"using {_SCHEMA_MODES[self._schema_mode]}"
            )
            return True
        return False

    def _drop_limit_field(self, message: str, kwargs: dict[str, Any], status: int) -> bool:
        """Both length caps were sent and the server refused one of them by name."""
        if "max_tokens" not in kwargs or "max_completion_tokens" not in kwargs:
            return False
        # "max_completion_tokens" does not contain "max_tokens". OpenAI names both: "'max_tokens'
        # is not supported with this model. Use 'max_completion_tokens'", "Setting 'max_tokens'
        # and 'max_completion_tokens' at the same time is not supported".
        if "max_tokens" in message and "max_completion_tokens" in message:
            drop = "max_tokens"
        elif "max_completion_tokens" in message and any(w in message for w in _UNKNOWN_FIELD):
            drop = "max_completion_tokens"  # a server that forbids fields it does not know
        else:
            return False
        if drop in self._limit_fields:  # else a concurrent call already dropped it
            self._limit_fields = tuple(f for f in self._limit_fields if f != drop)
            self.capability_notes.append(f"server rejected {drop} (HTTP {status})")
        return True

    async def complete(self, request: JudgeRequest) -> JudgeResponse:
        """Make one chat-completions call (repeated once per feature the server refuses)."""
        while True:
            kwargs = self._kwargs(request)
            mode = self._schema_mode
            started = time.perf_counter()
            try:
                content = await self._send(kwargs)
                # msgspec's typed reading when installed and the reply fits it, else dicts
                reply = read_bytes(content, request.logprobs)
                data = fastjson.loads(content) if reply is None else None
            except ProviderError as error:
                if self._downgrade_for(error, kwargs, mode):
                    continue
                raise
            except ValueError as exc:  # not JSON: a proxy or server bug
                raise TransientProviderError(f"the server sent a non-JSON reply: {exc}") from exc
            if "response_format" in kwargs:
                self._schema_confirmed = True
            if reply is None:
                reply = read_dict(data, request.logprobs)
            return self._response(reply, request, kwargs, time.perf_counter() - started)

    async def _send(self, body: dict[str, Any]) -> bytes:
        """POST one body on this judge's path; the 2xx reply's bytes, else the mapped error."""
        if self._direct is not None:
            status, headers, content = await self._direct.post(body)
            if status >= 400:  # what the SDK raises as APIStatusError (3xx are followed)
                detail, message = error_body(status, content)
                raise self._status_error(status, error_detail(detail, message), headers)
            return content
        try:
            # `post` with the body as built skips the SDK's per-call walk of the request's
            # TypedDict annotations (half its CPU; it changes nothing in our bodies, which
            # tests/unit/test_openai_paths.py pins), and an httpx2.Response as the result
            # skips its pydantic models: we read the few fields we need ourselves.
            import httpx2  # imported with the SDK, which depends on it

            raw = await self._client.post(
                "/chat/completions", body=body, cast_to=httpx2.Response, options=_AUTH
            )
        except self._openai.APIError as exc:
            raise self._map_error(exc) from exc
        reply: bytes = raw.content
        return reply

    def _to_response(
        self, data: Any, request: JudgeRequest, kwargs: dict[str, Any], latency: float
    ) -> JudgeResponse:
        """A reply decoded as JSON (a batch's answers too) as our response."""
        return self._response(read_dict(data, request.logprobs), request, kwargs, latency)

    def _response(
        self, reply: ChatReply, request: JudgeRequest, kwargs: dict[str, Any], latency: float
    ) -> JudgeResponse:
        note: str | None = None
        if request.logprobs and reply.logprobs is None:
            if "logprobs" not in kwargs:
                note = "; ".join(self.capability_notes) or "logprobs disabled for this server"
            else:
                note = "the server returned no logprobs"
        return JudgeResponse(
            text=reply.text,
            parsed=None,
            finish_reason=reply.finish_reason,
            usage=reply.usage,
            logprobs=reply.logprobs,
            logprobs_note=note,
            latency_s=latency,
            model=str(reply.model or self.model),
        )

    def _map_error(self, exc: Exception) -> ProviderError:
        return sdk_error(
            self._openai, exc, detail=_error_detail, refused=self._refused, label="OpenAI"
        )

    def _status_error(self, status: int, detail: str, headers: Mapping[str, str]) -> ProviderError:
        """The direct path's error for an HTTP error status: `sdk_error`'s own mapping."""
        return status_error(
            status, detail, retry_after=retry_after_seconds(headers), refused=self._refused
        )

    @property
    def _refused(self) -> str:
        return (
            "the server refused the credentials (HTTP {status}): {detail}. "
            f"Check {self.env_var} or model_credentials."
        )

    async def aclose(self) -> None:
        """Release the connections of both clients."""
        if self._direct is not None:
            await self._direct.aclose()
        if self._sdk is not None:
            await self._sdk[1].close()


def _require(*packages: str, name: str) -> None:
    """Raise `MissingDependencyError` (the `openai` extra) unless every package is installed.

    Looked up, not imported: the direct path imports aiohttp when it first sends, and the
    SDK only if it is used (`OpenAIJudge._client`).
    """
    for package in packages:
        try:
            found = importlib.util.find_spec(package) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            raise MissingDependencyError(package, "openai", feature=f"judging with {name}")


def choose_http_client(explicit: str | None, base_url: str | None) -> str:
    """Which path an OpenAI judge sends on: the argument, $SUMJUDGE_HTTP_CLIENT, else the default.

    The default keeps the official SDK for OpenAI's own API and takes the direct path for a
    custom `base_url` (an OpenAI-compatible server).

    Raises:
        ConfigError: the choice is not one of `HTTP_CLIENTS`.
    """
    choice = explicit or os.environ.get("SUMJUDGE_HTTP_CLIENT") or None
    if choice is None:
        return "direct" if base_url else "sdk"
    if choice not in HTTP_CLIENTS:
        raise ConfigError(
            f"http_client must be one of {', '.join(HTTP_CLIENTS)}, not {choice!r}"
            + ("" if explicit else " (from $SUMJUDGE_HTTP_CLIENT)")
        )
    return choice


def _error_detail(exc: Any) -> str:
    return error_detail(getattr(exc, "body", None), getattr(exc, "message", exc))


def error_detail(body: object, message: object) -> str:
    """The server's message from an error body (as `error_body` or the SDK keeps it)."""
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return provider_text(inner["message"])
        return provider_text(inner)
    if isinstance(body, str):
        return provider_text(body)
    return provider_text(message)
