"""Scripted replies of the fake server, its tokenizer and its fault injection."""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "BROKEN_BODY",
    "FAULTS",
    "TOKEN_RE",
    "Reply",
    "Responder",
    "apply_fault",
    "error_payload",
    "tokenize",
]

#: Words, single digits, whitespace runs and any other single character: covers text exactly.
TOKEN_RE = re.compile(r"[^\W\d_]+|\d|\s+|\S")
#: Fault kinds that `error_rate` draws from.
FAULTS: tuple[str, ...] = (
    "429",
    "500",
    "503",
    "timeout",
    "reset",
    "truncated",
    "prose",
    "out_of_range",
    "broken",
)
#: The body of a "broken" fault: a 200 whose JSON stops in the middle.
BROKEN_BODY = '{"id": "chatcmpl-broken", "object": "chat.completion", "choices": [{"index'

_PROSE = "The summary seems reasonable overall, but I would rather not give a structured verdict."
_SCORE_RE = re.compile(r'("score"\s*:\s*)-?\d+(?:\.\d+)?')
_ERROR_KINDS: dict[int, tuple[str, str | None]] = {
    400: ("invalid_request_error", None),
    401: ("invalid_request_error", "invalid_api_key"),
    403: ("permission_denied", None),
    404: ("invalid_request_error", "model_not_found"),
    429: ("requests", "rate_limit_exceeded"),
}


def tokenize(text: str) -> list[str]:
    """Split text into the fake server's tokens; `"".join(tokenize(s)) == s`."""
    return TOKEN_RE.findall(text)


@dataclass(frozen=True)
class Reply:
    """One scripted answer of the fake server; build it with the class-method constructors.

    `logprobs`: `None`/`True` include logprobs when the request asks for them (and the
    server supports them); `False` never includes them.
    """

    kind: Literal["content", "error", "reset", "delay", "broken"]
    content: str = ""
    finish_reason: str = "stop"
    logprobs: bool | None = None
    status: int = 200
    message: str = ""
    error_type: str | None = None
    error_code: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    seconds: float = 0.0
    then: Reply | None = None

    @classmethod
    def json(cls, obj: Any, logprobs: bool | None = None) -> Reply:
        """A completion whose content is `json.dumps(obj)`."""
        return cls("content", content=json.dumps(obj, ensure_ascii=False), logprobs=logprobs)

    @classmethod
    def text(cls, content: str, logprobs: bool | None = None) -> Reply:
        """A completion with arbitrary content (fenced JSON, prose, ...)."""
        return cls("content", content=content, logprobs=logprobs)

    @classmethod
    def truncated(cls, content: str, logprobs: bool | None = None) -> Reply:
        """A completion cut off by the token limit (`finish_reason == "length"`)."""
        return cls("content", content=content, finish_reason="length", logprobs=logprobs)

    @classmethod
    def error(
        cls,
        status: int,
        message: str = "Fake error",
        headers: Mapping[str, str] | None = None,
        *,
        error_type: str | None = None,
        code: str | None = None,
    ) -> Reply:
        """An HTTP error with an OpenAI-shaped body `{"error": {"message", "type", "code"}}`."""
        default_type, default_code = _ERROR_KINDS.get(
            status, ("server_error" if status >= 500 else "invalid_request_error", None)
        )
        return cls(
            "error",
            status=status,
            message=message,
            error_type=error_type or default_type,
            error_code=code if code is not None else default_code,
            headers=dict(headers or {}),
        )

    @classmethod
    def delay(cls, seconds: float, then_reply: Reply | None = None) -> Reply:
        """Wait `seconds` (without blocking the loop), then answer `then_reply` (or default)."""
        return cls("delay", seconds=seconds, then=then_reply)

    @classmethod
    def broken(cls) -> Reply:
        """A 200 whose body is cut in the middle of its JSON (a proxy or server bug)."""
        return cls("broken")

    @classmethod
    def reset(cls) -> Reply:
        """Abort the connection without any response (client sees a connection error)."""
        return cls("reset")


#: A custom answer function: request body -> `Reply` (or an awaitable of one).
Responder = Callable[[dict[str, Any]], "Reply | Awaitable[Reply]"]


def apply_fault(
    reply: Reply, fault: str | None, *, retry_after: float, timeout_sleep: float
) -> Reply:
    """`reply` spoiled by the fault kind `fault` (one of `FAULTS`), or unchanged for `None`.

    Args:
        reply: The answer the responder gave.
        fault: The fault kind drawn for this request, if any.
        retry_after: `Retry-After` header value of a "429" fault.
        timeout_sleep: Seconds a "timeout" fault waits before answering.

    Returns:
        The reply to send instead.
    """
    if fault is None:
        return reply
    if fault == "429":
        headers = {"Retry-After": f"{retry_after:g}"}
        return Reply.error(429, "Rate limit reached (fake)", headers)
    if fault == "500":
        return Reply.error(500, "The server had an error processing your request (fake)")
    if fault == "503":
        return Reply.error(503, "The server is overloaded (fake)")
    if fault == "broken":
        return Reply.broken()
    if fault == "timeout":
        return Reply.delay(timeout_sleep, reply)
    if fault == "reset":
        return Reply.reset()
    if reply.kind != "content":
        return reply
    if fault == "truncated":
        tokens = tokenize(reply.content)
        cut = "".join(tokens[: max(1, len(tokens) // 2)])
        return Reply.truncated(cut, logprobs=reply.logprobs)
    if fault == "prose":
        return Reply.text(_PROSE, logprobs=reply.logprobs)
    content = _SCORE_RE.sub(r"\g<1>7", reply.content)  # "out_of_range"
    return Reply(
        "content", content=content, finish_reason=reply.finish_reason, logprobs=reply.logprobs
    )


def error_payload(reply: Reply) -> dict[str, Any]:
    """The OpenAI error body `{"error": {"message", "type", "param", "code"}}` of `reply`."""
    error = {
        "message": reply.message,
        "type": reply.error_type,
        "param": None,
        "code": reply.error_code,
    }
    return {"error": error}
