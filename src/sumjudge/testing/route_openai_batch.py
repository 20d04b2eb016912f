"""The OpenAI Files and Batch routes of the fake server, for the openai SDK's batch calls.

`POST /v1/files` (multipart upload), `GET /v1/files/{id}` and `/v1/files/{id}/content`;
`POST /v1/batches`, `GET /v1/batches` (list, newest first, `after` and `limit`),
`GET /v1/batches/{id}`, `POST /v1/batches/{id}/cancel`. A batch's input is a JSONL file
of `{"custom_id", "method", "url", "body"}` lines for `/v1/chat/completions`; its output
file holds the successes and its error file the failures, in OpenAI's line format
(expired and cancelled requests come back in the error file, as OpenAI documents).
"""

from __future__ import annotations

import json
from functools import partial
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .batch_routes import JobRoutes, fail
from .batches import BatchJob
from .replies import Reply
from .route_openai import error_payload

if TYPE_CHECKING:
    from .core import ServerCore

__all__ = ["add_routes"]

_MAX_REQUESTS = 50_000  # OpenAI's documented per-batch limit, enforced the same way here


def add_routes(app: web.Application, srv: ServerCore) -> None:
    """Serve the Files and Batch endpoints from `srv.batches`."""
    app.router.add_post("/v1/files", partial(_upload, srv))
    app.router.add_get("/v1/files/{file_id}", partial(_file, srv))
    app.router.add_get("/v1/files/{file_id}/content", partial(_content, srv))
    app.router.add_post("/v1/batches", partial(_create, srv))
    app.router.add_get("/v1/batches", partial(_list, srv))
    jobs = JobRoutes(srv, "openai", missing=lambda i: _fail(404, f"No batch found with id '{i}'"))
    app.router.add_get("/v1/batches/{batch_id}", jobs.handler("/v1/batches/{id}", _show))
    app.router.add_post(
        "/v1/batches/{batch_id}/cancel", jobs.cancel("/v1/batches/{id}/cancel", _show)
    )


_fail = partial(fail, error_payload)


def _file_object(file_id: str, purpose: str, filename: str, data: bytes) -> dict[str, Any]:
    return {
        "id": file_id,
        "object": "file",
        "bytes": len(data),
        "created_at": 0,
        "filename": filename,
        "purpose": purpose,
        "status": "processed",
    }


async def _upload(srv: ServerCore, request: web.Request) -> web.Response:
    srv._count(request.path, requests=1)
    form = await request.post()
    purpose = str(form.get("purpose", ""))
    upload = form.get("file")
    if not isinstance(upload, web.FileField):
        return _fail(400, "'file' is required (multipart upload)")
    data = upload.file.read()
    file_id = srv.batches.add_file(purpose, upload.filename or "upload.jsonl", data)
    return web.json_response(_file_object(file_id, purpose, upload.filename or "", data))


async def _file(srv: ServerCore, request: web.Request) -> web.Response:
    file_id = request.match_info["file_id"]
    found = srv.batches.files.get(file_id)
    if found is None:
        return _fail(404, f"No such File object: {file_id}")
    return web.json_response(_file_object(file_id, *found))


async def _content(srv: ServerCore, request: web.Request) -> web.Response:
    srv._count(request.path.rsplit("/", 2)[0] + "/content", requests=1)
    found = srv.batches.files.get(request.match_info["file_id"])
    if found is None:
        return _fail(404, f"No such File object: {request.match_info['file_id']}")
    return web.Response(body=found[2], content_type="application/octet-stream")


def _parse_input(data: bytes) -> tuple[list[tuple[str, dict[str, Any]]], str | None]:
    requests: list[tuple[str, dict[str, Any]]] = []
    seen: set[str] = set()
    for n, line in enumerate(data.decode("utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            return [], f"line {n} is not JSON"
        custom_id = entry.get("custom_id") if isinstance(entry, dict) else None
        if not isinstance(custom_id, str) or not custom_id:
            return [], f"line {n} has no custom_id"
        if custom_id in seen:
            return [], f"line {n}: duplicate custom_id {custom_id}"
        if entry.get("url") != "/v1/chat/completions" or not isinstance(entry.get("body"), dict):
            return [], f"line {n}: url must be /v1/chat/completions with a body"
        seen.add(custom_id)
        requests.append((custom_id, entry["body"]))
    if len(requests) > _MAX_REQUESTS:
        return [], f"{len(requests)} requests: at most {_MAX_REQUESTS} per batch"
    return requests, None


async def _create(srv: ServerCore, request: web.Request) -> web.Response:
    srv._count(request.path, requests=1)
    body = await request.json()
    found = srv.batches.files.get(str(body.get("input_file_id")))
    if found is None:
        return _fail(404, f"No such File object: {body.get('input_file_id')}")
    if body.get("endpoint") != "/v1/chat/completions":
        return _fail(400, "only /v1/chat/completions is served by FakeOpenAIServer")
    requests, problem = _parse_input(found[2])
    if problem is not None:
        return _fail(400, f"invalid batch input: {problem}")

    def finish(job: BatchJob) -> None:
        _write_files(srv, job)

    job = srv.batches.create(
        "openai",
        requests,
        partial(_completion_text, srv),
        metadata=body.get("metadata") or {},
        extra={"input_file_id": body["input_file_id"]},
        finish=finish,
    )
    return web.json_response(_batch_object(job))


def _write_files(srv: ServerCore, job: BatchJob) -> None:
    ok: list[str] = []
    bad: list[str] = []
    for n, (custom_id, _) in enumerate(job.requests):
        kind, status, payload = job.results[custom_id]
        line: dict[str, Any] = {"id": f"batch_req_{job.id}_{n}", "custom_id": custom_id}
        if kind == "ok":  # the completion's JSON text, spliced in (a large job stays small)
            line["response"] = {"status_code": 200, "request_id": f"req_{n}", "body": _SLOT}
            line["error"] = None
            ok.append(json.dumps(line).replace(f'"{_SLOT}"', payload["text"], 1))
        elif kind == "error":
            line["response"] = {"status_code": status, "request_id": f"req_{n}", "body": payload}
            line["error"] = None
            bad.append(json.dumps(line))
        else:  # expired or cancelled before it was run
            code = "batch_expired" if kind == "expired" else "batch_cancelled"
            line["response"] = None
            line["error"] = {
                "code": code,
                "message": f"This request could not be executed ({kind}).",
            }
            bad.append(json.dumps(line))
    if ok:
        job.output_file_id = srv.batches.add_file("batch_output", "output.jsonl", _lines(ok))
    if bad:
        job.error_file_id = srv.batches.add_file("batch_output", "errors.jsonl", _lines(bad))


_SLOT = "completion-body-slot"


def _completion_text(srv: ServerCore, body: dict[str, Any], reply: Reply) -> dict[str, Any]:
    """The online route's completion for `body`, kept as its JSON text."""
    from .route_openai import _completion

    text = _completion(srv, "/batch", body, reply).text
    assert text is not None  # _completion always sends a text body
    return {"text": text}


def _lines(lines: list[str]) -> bytes:
    return ("\n".join(lines) + "\n").encode("utf-8")


def _batch_object(job: BatchJob) -> dict[str, Any]:
    status = job.status
    ended = int(job.ended) if job.ended is not None else None
    return {
        "id": job.id,
        "object": "batch",
        "endpoint": "/v1/chat/completions",
        "errors": None,
        "input_file_id": job.extra.get("input_file_id", ""),
        "completion_window": "24h",
        "status": status,
        "output_file_id": job.output_file_id,
        "error_file_id": job.error_file_id,
        "created_at": int(job.created),
        "in_progress_at": int(job.created),
        "expires_at": int(job.created) + 86400,
        "completed_at": ended if status == "completed" else None,
        "expired_at": ended if status == "expired" else None,
        "cancelled_at": ended if status == "cancelled" else None,
        "cancelling_at": None,
        "failed_at": None,
        "finalizing_at": None,
        "request_counts": {
            "total": len(job.requests),
            "completed": job.done - job.failed,
            "failed": job.failed,
        },
        "metadata": job.metadata or None,
    }


def _show(job: BatchJob, _: web.Request) -> web.Response:
    return web.json_response(_batch_object(job))


async def _list(srv: ServerCore, request: web.Request) -> web.Response:
    srv._count(request.path, requests=1)
    limit = int(request.query.get("limit", "20"))
    jobs, more = srv.batches.page("openai", request.query.get("after"), limit)
    data = [_batch_object(j) for j in jobs]
    return web.json_response(
        {
            "object": "list",
            "data": data,
            "first_id": data[0]["id"] if data else None,
            "last_id": data[-1]["id"] if data else None,
            "has_more": more,
        }
    )
