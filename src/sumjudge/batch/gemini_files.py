"""Gemini batch mode with an uploaded JSONL file, for batches over the 20 MB inline limit.

The input file has one `{"key": custom id, "request": GenerateContentRequest}` line per
request, in the REST form the SDK itself sends for an inline request (its own converter,
`batches._InlinedRequest_to_mldev`, so the request is byte for byte what inline mode
sends). It is written to a temporary file and uploaded with `client.aio.files.upload`
(the SDK's resumable upload, 8 MB per chunk), then `batches.create(src="files/...")`.
The ended job names its `dest.file_name`: a JSONL file of `{"key", "response"}` or
`{"key", "error"}` lines, downloaded with `client.aio.files.download` into a temporary
file and read line by line, so neither file is ever held whole in memory.

The Gemini Developer API's `GenerateContentResponse` JSON is turned into the SDK's type by
the SDK's own converter (`models._GenerateContentResponse_from_mldev`), as online.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from typing import IO, Any

__all__ = ["input_line", "read_lines", "response_of", "upload_jsonl"]


def input_line(client: Any, custom_id: str, inline: Any) -> bytes:
    """One line of the input file: the inline request in its REST form, keyed."""
    from google.genai import batches

    rest = batches._InlinedRequest_to_mldev(client._api_client, inline)
    line = {"key": custom_id, "request": rest.get("request", {})}
    return json.dumps(line, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


async def upload_jsonl(client: Any, lines: Iterator[bytes], display_name: str) -> str:
    """Write `lines` to a temporary file, upload it, and return its name ("files/...")."""
    with tempfile.TemporaryFile(prefix="sumjudge-gemini-") as spool:
        for line in lines:
            spool.write(line)
            spool.write(b"\n")
        spool.seek(0)
        uploaded = await client.aio.files.upload(
            file=spool, config={"mime_type": "jsonl", "display_name": display_name}
        )
    return str(uploaded.name)


def read_lines(spool: IO[bytes]) -> Iterator[dict[str, Any]]:
    """The JSON objects of a downloaded results file, one line at a time."""
    spool.seek(0)
    for raw in spool:
        if raw.strip():
            value = json.loads(raw)
            if isinstance(value, dict):
                yield value


def response_of(client: Any, body: dict[str, Any]) -> Any:
    """A results line's `response` JSON as the SDK's `GenerateContentResponse`."""
    from google.genai import models, types

    converted = models._GenerateContentResponse_from_mldev(body)
    return types.GenerateContentResponse._from_response(response=converted, kwargs={})
