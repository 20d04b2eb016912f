"""The OpenAI chat-completions route of the fake server, with latency and fault injection."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .replies import Reply, apply_fault, error_payload, tokenize

if TYPE_CHECKING:
    from .core import ServerCore

__all__ = ["add_routes", "error_payload", "handle_not_found"]

# Stands in for the logprobs list in the reply's JSON until the memoised text is spliced in.
_MARKER = f"logprobs-{secrets.token_hex(8)}"


def add_routes(app: web.Application, srv: ServerCore) -> None:
    """Serve `POST /v1/chat/completions` and `GET /v1/models` from `srv`."""
    app.router.add_post("/v1/chat/completions", partial(_handle_chat, srv))
    app.router.add_get("/v1/models", partial(_handle_models, srv))


async def handle_not_found(request: web.Request) -> web.Response:
    """An OpenAI-shaped 404 for any other path (not counted in the stats)."""
    reply = Reply.error(404, f"Unknown path {request.method} {request.path}", code=None)
    return web.json_response(error_payload(reply), status=reply.status, headers=reply.headers)


async def _handle_models(srv: ServerCore, request: web.Request) -> web.Response:
    srv._record(request, None)
    srv._count(request.path, requests=1)
    model = {"id": srv.model, "object": "model", "created": 0, "owned_by": "sumjudge"}
    return web.json_response({"object": "list", "data": [model]})


async def _handle_chat(srv: ServerCore, request: web.Request) -> web.StreamResponse:
    path = request.path
    body = await srv._receive(request)
    if not isinstance(body, dict):
        not_json = Reply.error(400, "Request body must be a JSON object")
        return srv._error(path, not_json, error_payload)
    # Script, fault and jitter are drawn in arrival order, before the latency sleep, so a
    # seeded run is reproducible and scripted replies match the order requests were sent.
    reply = srv.capability_rejection(body)
    fault: str | None = None
    if reply is None:
        reply = srv._pop_scripted()
        if reply is None and srv.error_rate > 0 and srv._fault_rng.random() < srv.error_rate:
            fault = srv._fault_rng.choice(srv.faults)
    delay = srv.latency
    if srv.jitter:
        delay += srv._latency_rng.uniform(-srv.jitter, srv.jitter)
    if delay > 0:
        await asyncio.sleep(delay)
    if reply is None:
        reply = apply_fault(
            await srv._respond(body),
            fault,
            retry_after=srv.retry_after,
            timeout_sleep=srv.timeout_sleep,
        )
    reply = await srv._settle(reply, body)
    failed = srv._failure(request, reply, error_payload)
    return failed if failed is not None else _completion(srv, path, body, reply)


def _completion(srv: ServerCore, path: str, body: Mapping[str, Any], reply: Reply) -> web.Response:
    content, finish = reply.content, reply.finish_reason
    tokens = tokenize(content)
    limit = body.get("max_completion_tokens") or body.get("max_tokens")
    if isinstance(limit, int) and 0 < limit < len(tokens) and finish == "stop":
        tokens = tokens[:limit]
        content, finish = "".join(tokens), "length"
    prompt = srv._prompt_tokens(body)
    model = str(body.get("model", srv.model))
    cached = srv._prefix_cache.lookup(model, prompt)
    srv._count(path, prompt_tokens=len(prompt), cached_tokens=cached, completion_tokens=len(tokens))
    logprobs: dict[str, Any] | None = None
    lp_json = ""
    wants = body.get("logprobs") is True
    if wants and srv.logprobs_support is True and reply.logprobs is not False:
        top_n = body.get("top_logprobs")
        top_n = max(0, min(20, top_n)) if isinstance(top_n, int) else 0
        lp_json = srv._logprobs.json_list(tokens, top_n)
        logprobs = {"content": _MARKER, "refusal": None}
    n = srv._next_id()
    choice = {
        "index": 0,
        "message": {"role": "assistant", "content": content, "refusal": None},
        "logprobs": logprobs,
        "finish_reason": finish,
    }
    usage = {
        "prompt_tokens": len(prompt),
        "completion_tokens": len(tokens),
        "total_tokens": len(prompt) + len(tokens),
        "prompt_tokens_details": {"cached_tokens": cached},
        "completion_tokens_details": {"reasoning_tokens": 0},
    }
    data = {
        "id": f"chatcmpl-fake{n}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [choice],
        "usage": usage,
        "system_fingerprint": "fp_fake",
    }
    text = json.dumps(data, ensure_ascii=False)
    if lp_json:
        text = text.replace(f'"{_MARKER}"', lp_json, 1)
    return web.Response(
        text=text, content_type="application/json", headers={"x-request-id": f"req_fake{n}"}
    )
