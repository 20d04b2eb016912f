"""OpenAI's Batch API (and compatible servers, e.g. vLLM) through the openai SDK.

A batch is a JSONL file of `{"custom_id", "method", "url", "body"}` lines uploaded with
purpose "batch", then `batches.create` on `/v1/chat/completions` with a 24 h window. The
body of each line is exactly what the online adapter would send (`OpenAIJudge._kwargs`),
and each answer is read by the adapter's own `_to_response` (a cut reply is raised by the
runner in the pass that reads it), so truncation, usage, logprobs and the capability
fallbacks behave as online. Results come in two files: the output file (successes) and
the error file (per-request errors, and the requests an expired or cancelled batch never
ran).

Limits (openai SDK docs of `batches.create` and `files.create`): 50,000 requests and
200 MB per input file.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from typing import Any

from ..judges.openai import OpenAIJudge, _error_detail
from ..protocol import JudgeRequest
from .backend_steps import SDKBackend, read_reply, rejected
from .provider import BatchStatus, LostBatch, Outcome

__all__ = ["OpenAIBatches"]

_ENDED = {"completed", "expired", "cancelled", "failed"}
# Seconds for one batch file upload or download: up to 200 MB, far above one judge call.
_FILE_TIMEOUT = 1800.0
_URL = "/v1/chat/completions"


class OpenAIBatches(SDKBackend[OpenAIJudge]):
    """The `BatchBackend` of an `OpenAIJudge`, on the judge's own client."""

    provider = "openai"
    max_requests = 50_000
    max_bytes = 190 * 1024 * 1024  # under the 200 MB file limit, with room for framing

    def __init__(self, judge: OpenAIJudge) -> None:
        super().__init__(judge, judge._openai.APIError)

    def _line(self, custom_id: str, request: JudgeRequest) -> bytes:
        body = self.judge._kwargs(request)
        line = {"custom_id": custom_id, "method": "POST", "url": _URL, "body": body}
        return json.dumps(line, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    def size(self, custom_id: str, request: JudgeRequest) -> int:
        """The request's JSONL line length in bytes (with its newline)."""
        return len(self._line(custom_id, request)) + 1

    async def submit(self, entries: list[tuple[str, JudgeRequest]], tag: Mapping[str, str]) -> str:
        """Upload the requests as one JSONL file and create a batch on it."""
        data = b"\n".join(self._line(cid, r) for cid, r in entries) + b"\n"
        with self._sdk_errors():
            upload = await self._client.files.create(
                file=(f"sumjudge-{tag.get('sumjudge_batch', 'batch')}.jsonl", data),
                purpose="batch",
                timeout=_FILE_TIMEOUT,
            )
            batch = await self._client.batches.create(
                input_file_id=upload.id,
                endpoint=_URL,
                completion_window="24h",
                metadata=dict(tag),
            )
        return str(batch.id)

    async def find(self, lost: LostBatch) -> str | None:
        """The newest batch whose metadata holds `lost.tag` (the provider lists newest first)."""
        with self._sdk_errors():
            async for batch in self._client.batches.list(limit=100):
                meta = batch.metadata or {}
                if all(meta.get(k) == v for k, v in lost.tag.items()):
                    return str(batch.id)
        return None

    async def status(self, batch_id: str) -> BatchStatus:
        """`batches.retrieve`: status and request counts."""
        with self._sdk_errors():
            batch = await self._client.batches.retrieve(batch_id)
        return _status(batch)

    async def cancel(self, batch_id: str) -> BatchStatus:
        """`batches.cancel` (the batch goes through "cancelling" to "cancelled")."""
        with self._sdk_errors():
            batch = await self._client.batches.cancel(batch_id)
        return _status(batch)

    async def results(
        self, batch_id: str, requests: Mapping[str, JudgeRequest]
    ) -> AsyncIterator[tuple[str, Outcome]]:
        """Stream the output and error files and read each line for its request.

        The files are read line by line as they download (the SDK's streaming response),
        never whole: an output file of 50,000 replies with logprobs is gigabytes.
        """
        with self._sdk_errors():
            batch = await self._client.batches.retrieve(batch_id)
            for file_id in (batch.output_file_id, batch.error_file_id):
                if not file_id:
                    continue
                streaming = self._client.files.with_streaming_response.content
                async with streaming(file_id, timeout=_FILE_TIMEOUT) as content:
                    async for raw in content.iter_lines():
                        if raw.strip():
                            custom_id, outcome = self._outcome(json.loads(raw), requests)
                            if custom_id is not None:
                                yield custom_id, outcome

    def _outcome(
        self, line: dict[str, Any], requests: Mapping[str, JudgeRequest]
    ) -> tuple[str | None, Outcome]:
        custom_id = line.get("custom_id")
        request = requests.get(str(custom_id))
        if request is None:
            return None, Outcome()  # not one of ours (or from an older plan): ignored
        response = line.get("response")
        if not isinstance(response, dict):  # expired or cancelled before it ran
            return str(custom_id), Outcome()
        status = int(response.get("status_code") or 0)
        body = response.get("body")
        if status != 200:
            error = rejected(status, _body_detail(body), "the server")
            kwargs = self.judge._kwargs(request)
            free = self.judge._downgrade_for(error, kwargs, self.judge._schema_mode)
            return str(custom_id), Outcome(error=error, free=free)
        judge = self.judge
        read = read_reply(lambda: judge._to_response(body, request, judge._kwargs(request), 0.0))
        return str(custom_id), read


def _body_detail(body: Any) -> str:
    class _Body:  # _error_detail reads an SDK exception's `body`
        def __init__(self, value: Any) -> None:
            self.body = value

    return _error_detail(_Body(body))


def _status(batch: Any) -> BatchStatus:
    counts = batch.request_counts
    done = (counts.completed + counts.failed) if counts is not None else 0
    problem = None
    if batch.status == "failed" and batch.errors is not None:
        problem = "; ".join(str(e.message) for e in (batch.errors.data or []))
    return BatchStatus(
        state=str(batch.status),
        ended=batch.status in _ENDED,
        done=done,
        failed=counts.failed if counts is not None else 0,
        total=counts.total if counts is not None else 0,
        problem=problem or (f"batch {batch.status}" if batch.status == "failed" else None),
    )
