"""The Gemini `generateContent` route of the fake server.

It lets tests run the google-genai SDK (the specification's default judge) against the
fake server. Latency and fault injection apply to the OpenAI route only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .replies import Reply, tokenize

if TYPE_CHECKING:
    from .core import ServerCore

__all__ = ["handle", "to_chat"]

_STATUS_NAMES = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
}


async def handle(srv: ServerCore, request: web.Request) -> web.Response:
    """Answer `POST /{version}/models/{model}:generateContent` by the script or responder."""
    model = request.match_info["model"]

    def render(body: dict[str, Any], reply: Reply, _: None) -> web.Response:
        return _response(srv, request.path, model, body, reply)

    return await srv._serve_scripted(
        request, lambda gbody: (to_chat(gbody, model), None), render, _error_payload
    )


def to_chat(gbody: Mapping[str, Any], model: str) -> dict[str, Any]:
    """A chat-completions body equivalent to a Gemini request, for the shared responder."""
    messages: list[dict[str, Any]] = []
    system = gbody.get("systemInstruction") or {}
    sys_text = "".join(p.get("text", "") for p in system.get("parts", []))
    if sys_text:
        messages.append({"role": "system", "content": sys_text})
    for c in gbody.get("contents", []):
        text = "".join(p.get("text", "") for p in c.get("parts", []))
        messages.append(
            {"role": "assistant" if c.get("role") == "model" else "user", "content": text}
        )
    cfg = gbody.get("generationConfig") or {}
    body: dict[str, Any] = {"model": model, "messages": messages}
    schema = cfg.get("responseJsonSchema") or cfg.get("responseSchema")
    if isinstance(schema, dict):
        body["response_format"] = {"type": "json_schema", "json_schema": {"schema": schema}}
    if cfg.get("responseLogprobs"):
        body["logprobs"] = True
        body["top_logprobs"] = cfg.get("logprobs", 0)
    if cfg.get("maxOutputTokens"):
        body["max_completion_tokens"] = cfg["maxOutputTokens"]
    return body


def _response(
    srv: ServerCore, path: str, model: str, body: dict[str, Any], reply: Reply
) -> web.Response:
    tokens = tokenize(reply.content)
    prompt = srv._prompt_tokens(body)
    srv._count(path, prompt_tokens=len(prompt), completion_tokens=len(tokens))
    candidate: dict[str, Any] = {
        "content": {"parts": [{"text": reply.content}], "role": "model"},
        "finishReason": "MAX_TOKENS" if reply.finish_reason == "length" else "STOP",
        "index": 0,
    }
    if body.get("logprobs") and reply.logprobs is not False:
        top_n = int(body.get("top_logprobs") or 0)
        entries = [srv._logprobs.entry(t, top_n) for t in tokens]
        candidate["logprobsResult"] = {
            "chosenCandidates": [
                {"token": e["token"], "logProbability": e["logprob"]} for e in entries
            ],
            "topCandidates": [
                {
                    "candidates": [
                        {"token": a["token"], "logProbability": a["logprob"]}
                        for a in e["top_logprobs"]
                    ]
                }
                for e in entries
            ],
        }
    data = {
        "candidates": [candidate],
        "usageMetadata": {
            "promptTokenCount": len(prompt),
            "candidatesTokenCount": len(tokens),
            "totalTokenCount": len(prompt) + len(tokens),
        },
        "modelVersion": model,
    }
    return web.json_response(data)


def _error_payload(reply: Reply) -> dict[str, Any]:
    error = {
        "code": reply.status,
        "message": reply.message,
        "status": _STATUS_NAMES.get(reply.status, "UNKNOWN"),
    }
    return {"error": error}
