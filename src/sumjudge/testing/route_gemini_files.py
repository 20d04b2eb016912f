"""The fake server's Gemini Files API, as google-genai's `files.upload` / `download` use it.

Upload is the resumable protocol: `POST /upload/{version}/files` with
`X-Goog-Upload-Command: start` answers with an `X-Goog-Upload-URL`; the client then posts
the bytes there in chunks (`upload`, the last one `upload, finalize`, each with its
`X-Goog-Upload-Offset`), and every answer says `X-Goog-Upload-Status` (`active`, then
`final` with the file's JSON). `GET /{version}/files/{id}:download?alt=media` (also under
`/download/`) returns a file's bytes. Files live in the batch store (`srv.batches.files`),
where batch mode reads its input file and leaves its results file.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .batch_routes import fail
from .route_gemini import _error_payload

if TYPE_CHECKING:
    from .core import ServerCore

__all__ = ["add_routes", "file_object"]

# upload id -> [display name, mime type, bytes so far] of the uploads not finalized yet
_UPLOADS = web.AppKey("gemini_uploads", dict)


def add_routes(app: web.Application, srv: ServerCore) -> None:
    """Serve the upload and download endpoints from `srv.batches.files`."""
    app[_UPLOADS] = {}
    app.router.add_post("/upload/{version}/files", partial(_upload, srv))
    app.router.add_get("/{version}/files/{file_id}:download", partial(_download, srv))
    app.router.add_get("/download/{version}/files/{file_id}:download", partial(_download, srv))


def file_object(file_id: str, size: int, mime_type: str, display_name: str) -> dict[str, Any]:
    """The Files API's JSON for one stored file."""
    return {
        "name": f"files/{file_id}",
        "displayName": display_name,
        "mimeType": mime_type,
        "sizeBytes": str(size),
        "state": "ACTIVE",
        "source": "UPLOADED",
    }


_fail = partial(fail, _error_payload)


async def _upload(srv: ServerCore, request: web.Request) -> web.Response:
    uploads: dict[str, list[Any]] = request.app[_UPLOADS]  # one server thread: no lock
    command = request.headers.get("X-Goog-Upload-Command", "")
    if "start" in command:
        srv._count("/upload/files", requests=1)
        payload = await request.json()
        meta = (payload or {}).get("file") or {}
        upload_id = srv.batches.new_id("upload-")
        uploads[upload_id] = [meta.get("displayName", ""), meta.get("mimeType", ""), b""]
        url = f"{request.scheme}://{request.host}{request.path}?upload_id={upload_id}"
        return web.json_response({}, headers={"X-Goog-Upload-URL": url})
    upload_id = request.query.get("upload_id", "")
    state = uploads.get(upload_id)
    if state is None:
        return _fail(404, f"upload {upload_id!r} not found")
    offset = int(request.headers.get("X-Goog-Upload-Offset", "0"))
    if offset != len(state[2]):
        return _fail(400, f"upload offset {offset}, expected {len(state[2])}")
    state[2] += await request.read()
    if "finalize" not in command:
        return web.json_response({}, headers={"X-Goog-Upload-Status": "active"})
    del uploads[upload_id]
    display, mime, data = state
    file_id = srv.batches.add_file("gemini", display, data)
    body = {"file": file_object(file_id, len(data), mime, display)}
    return web.json_response(body, headers={"X-Goog-Upload-Status": "final"})


async def _download(srv: ServerCore, request: web.Request) -> web.Response:
    srv._count("/files:download", requests=1)
    stored = srv.batches.files.get(request.match_info["file_id"])
    if stored is None:
        return _fail(404, f"file {request.match_info['file_id']} not found")
    return web.Response(body=stored[2], content_type="application/octet-stream")
