"""The Gemini batch-mode routes of the fake server, for google-genai's `client.batches`.

`POST /{version}/models/{model}:batchGenerateContent` with inline requests
(`{"batch": {"displayName", "inputConfig": {"requests": {"requests": [{"request",
"metadata"}]}}}}`) or an uploaded JSONL file (`"inputConfig": {"fileName": "files/..."}`,
lines `{"key", "request"}`; `route_gemini_files.py` serves the upload and download),
`GET /{version}/batches` (list), `GET /{version}/batches/{id}` and
`POST /{version}/batches/{id}:cancel`. An ended job carries its inline responses (each
with the request's metadata and a `GenerateContentResponse` or an error) in
`metadata.output`, as the Gemini API does, or, for a file job, `responsesFile`: a JSONL
file of `{"key", "response"}` / `{"key", "error"}` lines. Requests an expired or
cancelled job never ran have no response.
"""

from __future__ import annotations

import json
from functools import partial
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .batch_routes import JobRoutes, fail
from .batches import BatchJob, iso_utc
from .replies import Reply
from .route_gemini import _error_payload, _response, to_chat
from .route_gemini_files import add_routes as add_file_routes

if TYPE_CHECKING:
    from .core import ServerCore

__all__ = ["add_routes"]

_STATES = {
    "in_progress": "BATCH_STATE_RUNNING",
    "cancelling": "BATCH_STATE_RUNNING",
    "completed": "BATCH_STATE_SUCCEEDED",
    "expired": "BATCH_STATE_EXPIRED",
    "cancelled": "BATCH_STATE_CANCELLED",
}


def add_routes(app: web.Application, srv: ServerCore) -> None:
    """Serve the batch-mode endpoints from `srv.batches`."""
    app.router.add_post("/{version}/models/{model}:batchGenerateContent", partial(_create, srv))
    app.router.add_get("/{version}/batches", partial(_list, srv))
    jobs = JobRoutes(
        srv, "gemini", missing=lambda i: _fail(404, f"batch {i} not found"), id_prefix="batches/"
    )
    app.router.add_get("/{version}/batches/{batch_id}", jobs.handler("/batches/{id}", _show))
    app.router.add_post(
        "/{version}/batches/{batch_id}:cancel",
        jobs.cancel("/batches/{id}:cancel", lambda _job, _request: web.json_response({})),
    )
    add_file_routes(app, srv)


_fail = partial(fail, _error_payload)


def _render(srv: ServerCore, model: str, body: dict[str, Any], reply: Reply) -> Any:
    response = _response(srv, "/batch", model, body, reply)
    assert response.text is not None
    return json.loads(response.text)


async def _create(srv: ServerCore, request: web.Request) -> web.Response:
    srv._count("/models:batchGenerateContent", requests=1)
    model = request.match_info["model"]
    payload = await request.json()
    batch = payload.get("batch") if isinstance(payload, dict) else None
    config = (batch or {}).get("inputConfig") or {}
    requests: list[tuple[str, dict[str, Any]]] = []
    metadata: dict[str, Any] = {}
    file_name = config.get("fileName")
    if file_name:
        stored = srv.batches.files.get(str(file_name).removeprefix("files/"))
        if stored is None:
            return _fail(404, f"file {file_name} not found")
        for raw in stored[2].splitlines():
            if raw.strip():
                line = json.loads(raw)
                requests.append((str(line["key"]), to_chat(line.get("request") or {}, model)))
    else:
        entries = (config.get("requests") or {}).get("requests")
        if not isinstance(entries, list) or not entries:
            return _fail(400, "batch.inputConfig.requests.requests: at least one request")
        for n, entry in enumerate(entries):
            key = f"{n}"
            metadata[key] = entry.get("metadata") or {}
            requests.append((key, to_chat(entry.get("request") or {}, model)))
    if not requests:
        return _fail(400, "batch.inputConfig: at least one request")
    job = srv.batches.create(
        "gemini",
        requests,
        partial(_render, srv, model),
        metadata={"displayName": (batch or {}).get("displayName", "")},
        extra={"model": model, "request_metadata": metadata, "from_file": bool(file_name)},
        finish=partial(_write_results_file, srv) if file_name else None,
    )
    return web.json_response(_job_object(job))


def _write_results_file(srv: ServerCore, job: BatchJob) -> None:
    """A file job's results, one JSONL line per request that ran, in request order."""
    lines = []
    for key, _ in job.requests:
        kind, status, payload = job.results[key]
        if kind == "ok":
            lines.append({"key": key, "response": payload})
        elif kind == "error":
            lines.append({"key": key, "error": {"code": status, "message": _message(payload)}})
    data = "".join(json.dumps(line) + "\n" for line in lines).encode("utf-8")
    job.output_file_id = srv.batches.add_file("gemini-results", f"{job.id}-results", data)


def _message(payload: dict[str, Any]) -> str:
    return str((payload.get("error") or {}).get("message", "error"))


def _job_object(job: BatchJob) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "@type": "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch",
        "model": f"models/{job.extra['model']}",
        "displayName": job.metadata.get("displayName", ""),
        "state": _STATES[job.status],
        "createTime": iso_utc(job.created),
        "updateTime": iso_utc(job.ended or job.created),
    }
    if job.ended is not None and job.extra.get("from_file"):
        meta["endTime"] = iso_utc(job.ended)
        meta["output"] = {"responsesFile": f"files/{job.output_file_id}"}
    elif job.ended is not None:
        meta["endTime"] = iso_utc(job.ended)
        responses = []
        for custom_id, _ in job.requests:
            kind, status, payload = job.results[custom_id]
            entry: dict[str, Any] = {"metadata": job.extra["request_metadata"][custom_id]}
            if kind == "ok":
                entry["response"] = payload
            elif kind == "error":
                entry["error"] = {"code": status, "message": _message(payload)}
            else:
                continue  # never ran: no response
            responses.append(entry)
        meta["output"] = {"inlinedResponses": {"inlinedResponses": responses}}
    return {"name": job.id, "metadata": meta, "done": job.ended is not None}


def _show(job: BatchJob, _: web.Request) -> web.Response:
    return web.json_response(_job_object(job))


async def _list(srv: ServerCore, request: web.Request) -> web.Response:
    srv._count("/batches", requests=1)
    jobs = [j for j in reversed(list(srv.batches.jobs.values())) if j.kind == "gemini"]
    size = int(request.query.get("pageSize", "50"))
    start = int(request.query.get("pageToken") or 0)
    page = jobs[start : start + size]
    out: dict[str, Any] = {"operations": [_job_object(j) for j in page]}
    if start + size < len(jobs):
        out["nextPageToken"] = str(start + size)
    return web.json_response(out)
