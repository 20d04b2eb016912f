"""The Anthropic Messages route of the fake server.

Prompt caching follows Anthropic's rule: only the prefix up to a block marked with
`cache_control` is cacheable; reads and writes are reported in `usage`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .replies import Reply, tokenize

if TYPE_CHECKING:
    from .core import ServerCore

__all__ = ["handle", "to_chat"]

_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    429: "rate_limit_error",
    529: "overloaded_error",
}


async def handle(srv: ServerCore, request: web.Request) -> web.Response:
    """Answer `POST /v1/messages` by the script or the responder."""

    def render(body: dict[str, Any], reply: Reply, marked: str) -> web.Response:
        return _response(srv, request.path, body, reply, marked)

    return await srv._serve_scripted(request, to_chat, render, _error_payload)


def to_chat(abody: Mapping[str, Any]) -> tuple[dict[str, Any], str]:
    """(chat-completions body, text up to the last cache_control marker) for a Messages body."""
    messages: list[dict[str, Any]] = []
    seen: list[str] = []
    marked = ""

    def blocks(value: Any) -> str:
        nonlocal marked
        if isinstance(value, str):
            seen.append(value)
            return value
        out = []
        for b in value or []:
            text = str(b.get("text", ""))
            out.append(text)
            seen.append(text)
            if b.get("cache_control"):
                marked = "".join(seen)
        return "".join(out)

    system = blocks(abody.get("system"))
    if system:
        messages.append({"role": "system", "content": system})
    for m in abody.get("messages", []):
        messages.append({"role": m.get("role", "user"), "content": blocks(m.get("content"))})
    body: dict[str, Any] = {"model": str(abody.get("model", "claude")), "messages": messages}
    fmt = ((abody.get("output_config") or {}).get("format")) or {}
    if isinstance(fmt.get("schema"), dict):
        body["response_format"] = {"type": "json_schema", "json_schema": {"schema": fmt["schema"]}}
    if abody.get("max_tokens"):
        body["max_completion_tokens"] = abody["max_tokens"]
    return body, marked


def _response(
    srv: ServerCore, path: str, body: dict[str, Any], reply: Reply, marked: str
) -> web.Response:
    tokens = tokenize(reply.content)
    prompt = srv._prompt_tokens(body)
    cacheable = tokenize(marked) if marked else []
    read = srv._prefix_cache.lookup(str(body["model"]), cacheable) if cacheable else 0
    written = len(cacheable) - read if cacheable else 0
    srv._count(path, prompt_tokens=len(prompt), cached_tokens=read, completion_tokens=len(tokens))
    data = {
        "id": "msg_fake",
        "type": "message",
        "role": "assistant",
        "model": body["model"],
        "content": [{"type": "text", "text": reply.content}],
        "stop_reason": "max_tokens" if reply.finish_reason == "length" else "end_turn",
        "stop_sequence": None,
        "usage": {
            "input_tokens": len(prompt) - read - written,
            "output_tokens": len(tokens),
            "cache_read_input_tokens": read,
            "cache_creation_input_tokens": written,
        },
    }
    return web.json_response(data, headers={"request-id": "req_fake"})


def _error_payload(reply: Reply) -> dict[str, Any]:
    error = {"type": _ERROR_TYPES.get(reply.status, "api_error"), "message": reply.message}
    return {"type": "error", "error": error}
