"""The Anthropic Message Batches routes of the fake server, for `messages.batches`.

`POST /v1/messages/batches` (`{"requests": [{"custom_id", "params"}]}`), `GET
/v1/messages/batches` (list, newest first, `limit`, `after_id`), `GET
/v1/messages/batches/{id}`, `POST /v1/messages/batches/{id}/cancel` and `GET
/v1/messages/batches/{id}/results` (JSONL of `{"custom_id", "result": {"type":
"succeeded" | "errored" | "canceled" | "expired", ...}}`), answered by the same script
and responder as `POST /v1/messages`.
"""

from __future__ import annotations

import json
from functools import partial
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .batch_routes import JobRoutes, fail
from .batches import BatchJob, iso_utc
from .replies import Reply
from .route_anthropic import _error_payload, _response, to_chat

if TYPE_CHECKING:
    from .core import ServerCore

__all__ = ["add_routes"]

_MAX_REQUESTS = 100_000  # Anthropic's documented per-batch limit
_BASE = "/v1/messages/batches"


def add_routes(app: web.Application, srv: ServerCore) -> None:
    """Serve the Message Batches endpoints from `srv.batches`."""
    app.router.add_post(_BASE, partial(_create, srv))
    app.router.add_get(_BASE, partial(_list, srv))
    jobs = JobRoutes(srv, "anthropic", missing=lambda i: _fail(404, f"no message batch {i}"))
    app.router.add_get(_BASE + "/{batch_id}", jobs.handler(_BASE + "/{id}", _show))
    app.router.add_post(_BASE + "/{batch_id}/cancel", jobs.cancel(_BASE + "/{id}/cancel", _show))
    ended = JobRoutes(srv, "anthropic", missing=lambda _: _not_ended())
    app.router.add_get(
        _BASE + "/{batch_id}/results", ended.handler(_BASE + "/{id}/results", _results)
    )


_fail = partial(fail, _error_payload)


def _render(srv: ServerCore, marked: dict[int, str], body: dict[str, Any], reply: Reply) -> Any:
    response = _response(srv, "/batch", body, reply, marked.get(id(body), ""))
    assert response.text is not None
    return json.loads(response.text)


async def _create(srv: ServerCore, request: web.Request) -> web.Response:
    srv._count(request.path, requests=1)
    payload = await request.json()
    entries = payload.get("requests") if isinstance(payload, dict) else None
    if not isinstance(entries, list) or not entries:
        return _fail(400, "requests: at least one request is required")
    if len(entries) > _MAX_REQUESTS:
        return _fail(400, f"requests: at most {_MAX_REQUESTS} per batch")
    requests: list[tuple[str, dict[str, Any]]] = []
    marked: dict[int, str] = {}
    seen: set[str] = set()
    for n, entry in enumerate(entries):
        custom_id = entry.get("custom_id") if isinstance(entry, dict) else None
        if not isinstance(custom_id, str) or not custom_id or custom_id in seen:
            return _fail(400, f"requests.{n}.custom_id: missing or repeated")
        seen.add(custom_id)
        body, cacheable = to_chat(entry.get("params") or {})
        marked[id(body)] = cacheable
        requests.append((custom_id, body))
    job = srv.batches.create("anthropic", requests, partial(_render, srv, marked))
    return web.json_response(_batch_object(job, request))


def _batch_object(job: BatchJob, request: web.Request) -> dict[str, Any]:
    counts = {"processing": 0, "succeeded": 0, "errored": 0, "canceled": 0, "expired": 0}
    for custom_id, _ in job.requests:
        result = job.results.get(custom_id)
        if result is None:
            counts["processing"] += 1
        else:
            counts[_result_type(result[0])] += 1
    ended = job.status in ("completed", "expired", "cancelled")
    status = "ended" if ended else ("canceling" if job.status == "cancelling" else "in_progress")
    base = f"{request.scheme}://{request.host}{_BASE}/{job.id}"
    return {
        "id": job.id,
        "type": "message_batch",
        "processing_status": status,
        "request_counts": counts,
        "created_at": iso_utc(job.created),
        "expires_at": iso_utc(job.created + 86400),
        "ended_at": iso_utc(job.ended) if ended else None,
        "cancel_initiated_at": None,
        "archived_at": None,
        "results_url": f"{base}/results" if ended else None,
    }


def _result_type(kind: str) -> str:
    return {"ok": "succeeded", "error": "errored", "cancelled": "canceled"}.get(kind, kind)


def _show(job: BatchJob, request: web.Request) -> web.Response:
    return web.json_response(_batch_object(job, request))


def _not_ended() -> web.Response:
    # Anthropic answers an unknown and a running batch's results alike: nothing to read yet.
    return _fail(404, "the batch has not ended: no results yet")


def _results(job: BatchJob, _request: web.Request) -> web.Response:
    if job.ended is None:
        return _not_ended()
    lines = []
    for custom_id, _ in job.requests:
        kind, _, payload = job.results[custom_id]
        result: dict[str, Any] = {"type": _result_type(kind)}
        if kind == "ok":
            result["message"] = payload
        elif kind == "error":
            status = job.results[custom_id][1]
            error = _error_payload(Reply.error(status, payload["error"]["message"]))
            result["error"] = error
        lines.append(json.dumps({"custom_id": custom_id, "result": result}))
    body = ("\n".join(lines) + "\n").encode("utf-8")
    return web.Response(body=body, content_type="application/binary")


async def _list(srv: ServerCore, request: web.Request) -> web.Response:
    srv._count(_BASE, requests=1)
    limit = int(request.query.get("limit", "20"))
    jobs, more = srv.batches.page("anthropic", request.query.get("after_id"), limit)
    data = [_batch_object(j, request) for j in jobs]
    return web.json_response(
        {
            "data": data,
            "has_more": more,
            "first_id": data[0]["id"] if data else None,
            "last_id": data[-1]["id"] if data else None,
        }
    )
