"""Gemini batch mode through google-genai (`client.aio.batches`): inline or from a file.

A batch is `batches.create(model=..., src=[InlinedRequest...], config={"display_name"})`,
each inline request built from exactly what the online adapter sends
(`GoogleJudge._contents` and `_config`) with our custom id in its `metadata`; `get`
reports the job's state; an ended job carries `dest.inlined_responses`, each with the
request's `metadata` and either a `GenerateContentResponse` (read by the adapter's own
`_to_response`) or an error. A batch whose requests pass the inline limit goes as an
uploaded JSONL file instead (`gemini_files.py`: `files.upload`, `src="files/..."`, the
results file downloaded from `dest.file_name`), the same requests keyed by custom id.

Limits (ai.google.dev "Batch API"): inline requests while the whole batch request stays
under 20 MB, else a JSONL input file (the Files API takes files up to 2 GB; sumjudge
splits a round at 190 MB per file); target turnaround 24 h; 50% of the standard price.
The job's `display_name` carries our batch label, so `find` recognises a batch a killed
process created. Progress: the SDK's `BatchJob` for the Gemini Developer API carries no
per-request counts (its `completion_stats` is filled for Vertex AI only), so a job shows
0 done until it ends.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import AsyncIterator, Mapping
from typing import Any

from ..judges.google import GoogleJudge
from ..protocol import JudgeRequest
from .backend_steps import SDKBackend, read_reply, rejected, unreadable
from .gemini_files import input_line, read_lines, response_of, upload_jsonl
from .provider import BatchStatus, LostBatch, Outcome

__all__ = ["GeminiBatches"]

_ENDED = {
    "JOB_STATE_SUCCEEDED",
    "JOB_STATE_FAILED",
    "JOB_STATE_CANCELLED",
    "JOB_STATE_EXPIRED",
    "JOB_STATE_PARTIALLY_SUCCEEDED",
}


class GeminiBatches(SDKBackend[GoogleJudge]):
    """The `BatchBackend` of a `GoogleJudge`, on the judge's own client."""

    provider = "google"
    max_requests = 100_000  # none documented; keeps one batch reasonable
    max_bytes = 190 * 1024 * 1024  # one input file (the Files API takes up to 2 GB)
    inline_limit = 19 * 1024 * 1024  # under the 20 MB inline limit; above it, a file

    def __init__(self, judge: GoogleJudge) -> None:
        # google-genai raises errors of several roots: all go to the adapter's mapping.
        super().__init__(judge, Exception)
        self._types = judge._types

    def _inline(self, custom_id: str, request: JudgeRequest) -> Any:
        return self._types.InlinedRequest(
            model=self.judge.model,
            contents=self.judge._contents(request),
            config=self.judge._config(request),
            metadata={"custom_id": custom_id},
        )

    def size(self, custom_id: str, request: JudgeRequest) -> int:
        """The inline request's JSON size in bytes (with a separator)."""
        dumped = self._inline(custom_id, request).model_dump(mode="json", exclude_none=True)
        return len(json.dumps(dumped).encode("utf-8")) + 1

    async def submit(self, entries: list[tuple[str, JudgeRequest]], tag: Mapping[str, str]) -> str:
        """`batches.create`, inline under the 20 MB limit, else from an uploaded file."""
        label = tag.get("sumjudge_batch", "sumjudge")
        inline = sum(self.size(cid, r) for cid, r in entries) <= self.inline_limit
        with self._sdk_errors():
            if inline:
                src: Any = [self._inline(cid, r) for cid, r in entries]
            else:
                lines = (input_line(self._client, c, self._inline(c, r)) for c, r in entries)
                src = await upload_jsonl(self._client, lines, label)
            job = await self._client.aio.batches.create(
                model=self.judge.model, src=src, config={"display_name": label}
            )
        return str(job.name)

    async def find(self, lost: LostBatch) -> str | None:
        """The newest job whose display name is our batch label."""
        wanted = lost.tag.get("sumjudge_batch")
        with self._sdk_errors():
            pager = await self._client.aio.batches.list(config={"page_size": 100})
            async for job in pager:
                if job.display_name == wanted:
                    return str(job.name)
        return None

    async def status(self, batch_id: str) -> BatchStatus:
        """`batches.get`: the job's state (the Gemini API reports no per-request counts)."""
        with self._sdk_errors():
            job = await self._client.aio.batches.get(name=batch_id)
        return _status(job)

    async def cancel(self, batch_id: str) -> BatchStatus:
        """`batches.cancel`, then the job as it is now."""
        with self._sdk_errors():
            await self._client.aio.batches.cancel(name=batch_id)
        return await self.status(batch_id)

    async def results(
        self, batch_id: str, requests: Mapping[str, JudgeRequest]
    ) -> AsyncIterator[tuple[str, Outcome]]:
        """The ended job's responses: inline (by metadata) or its results file (by key)."""
        with self._sdk_errors():
            job = await self._client.aio.batches.get(name=batch_id)
        results_file = job.dest.file_name if job.dest is not None else None
        if results_file:
            async for pair in self._file_results(str(results_file), requests):
                yield pair
            return
        responses = (job.dest.inlined_responses if job.dest is not None else None) or []
        for item in responses:
            custom_id = (item.metadata or {}).get("custom_id")
            request = requests.get(str(custom_id))
            if request is not None:
                yield str(custom_id), self._outcome(item, request)

    async def _file_results(
        self, name: str, requests: Mapping[str, JudgeRequest]
    ) -> AsyncIterator[tuple[str, Outcome]]:
        with tempfile.TemporaryFile(prefix="sumjudge-gemini-") as spool:
            with self._sdk_errors():
                await self._client.aio.files.download(file=name, destination=spool)
            for line in read_lines(spool):
                custom_id = str(line.get("key"))
                request = requests.get(custom_id)
                if request is None:
                    continue
                body, problem = line.get("response"), line.get("error") or line.get("status")
                try:
                    response = response_of(self._client, body) if body else None
                except (TypeError, ValueError) as exc:  # pydantic's errors are ValueErrors
                    yield custom_id, unreadable(exc)
                    continue
                item = _Line(response, _Problem(problem) if isinstance(problem, dict) else None)
                yield custom_id, self._outcome(item, request)

    def _outcome(self, item: Any, request: JudgeRequest) -> Outcome:
        if item.response is not None:
            return read_reply(lambda: self.judge._to_response(item.response, request, 0.0))
        if item.error is not None:
            code = int(getattr(item.error, "code", None) or 500)
            message = str(getattr(item.error, "message", None) or "error")[:300]
            return Outcome(error=rejected(code, message, "Google"))
        return Outcome()


class _Problem:
    """A results-file error (`{"code", "message"}`) read like an inline response's."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.code = data.get("code")
        self.message = data.get("message")


class _Line:
    """A results-file line read like an inline response (`response`, `error`)."""

    def __init__(self, response: Any, error: _Problem | None) -> None:
        self.response = response
        self.error = error


def _status(job: Any) -> BatchStatus:
    state = str(getattr(job.state, "value", job.state) or "JOB_STATE_UNSPECIFIED")
    ended = state in _ENDED
    done = 0
    if ended and job.dest is not None and job.dest.inlined_responses:
        done = len(job.dest.inlined_responses)
    problem = None
    if state == "JOB_STATE_FAILED":
        problem = str(getattr(job.error, "message", None) or "the job failed")
    return BatchStatus(state=state, ended=ended, done=done, problem=problem)
