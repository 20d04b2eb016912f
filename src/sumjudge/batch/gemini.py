"""Gemini batch mode through google-genai (`client.aio.batches`), with inline requests.

A batch is `batches.create(model=..., src=[InlinedRequest...], config={"display_name"})`,
each inline request built from exactly what the online adapter sends
(`GoogleJudge._contents` and `_config`) with our custom id in its `metadata`; `get`
reports the job's state; an ended job carries `dest.inlined_responses`, each with the
request's `metadata` and either a `GenerateContentResponse` (read by the adapter's own
`_to_response`) or an error.

Limits (ai.google.dev "Batch API"): inline requests while the whole batch request stays
under 20 MB (larger runs would use an uploaded JSONL file, which this backend does not
do: it splits into several inline batches instead); target turnaround 24 h; 50% of the
standard price. No request-count limit is documented for inline batches. The job's
`display_name` carries our batch label, so `find` recognises a batch a killed process
created.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from typing import Any

from ..errors import ProviderError, TransientProviderError
from ..judges._http import status_error
from ..judges.google import GoogleJudge
from ..protocol import JudgeRequest
from .provider import BatchStatus, Outcome

__all__ = ["GeminiBatches"]

_ENDED = {
    "JOB_STATE_SUCCEEDED",
    "JOB_STATE_FAILED",
    "JOB_STATE_CANCELLED",
    "JOB_STATE_EXPIRED",
    "JOB_STATE_PARTIALLY_SUCCEEDED",
}


class GeminiBatches:
    """The `BatchBackend` of a `GoogleJudge`, on the judge's own client."""

    provider = "google"
    max_requests = 100_000  # none documented for inline batches; keeps one batch reasonable
    max_bytes = 19 * 1024 * 1024  # under the 20 MB inline limit

    def __init__(self, judge: GoogleJudge) -> None:
        self.judge = judge
        self._client = judge._client
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
        """`batches.create` with the requests inline; the job's name ("batches/...")."""
        try:
            job = await self._client.aio.batches.create(
                model=self.judge.model,
                src=[self._inline(cid, r) for cid, r in entries],
                config={"display_name": tag.get("sumjudge_batch", "sumjudge")},
            )
        except Exception as exc:
            raise self.judge._map_error(exc) from exc
        return str(job.name)

    async def find(self, tag: Mapping[str, str]) -> str | None:
        """The newest job whose display name is our batch label."""
        wanted = tag.get("sumjudge_batch")
        try:
            pager = await self._client.aio.batches.list(config={"page_size": 100})
            async for job in pager:
                if job.display_name == wanted:
                    return str(job.name)
        except Exception as exc:
            raise self.judge._map_error(exc) from exc
        return None

    async def status(self, batch_id: str) -> BatchStatus:
        """`batches.get`: the job's state (the Gemini API reports no per-request counts)."""
        try:
            job = await self._client.aio.batches.get(name=batch_id)
        except Exception as exc:
            raise self.judge._map_error(exc) from exc
        return _status(job)

    async def cancel(self, batch_id: str) -> BatchStatus:
        """`batches.cancel`, then the job as it is now."""
        try:
            await self._client.aio.batches.cancel(name=batch_id)
        except Exception as exc:
            raise self.judge._map_error(exc) from exc
        return await self.status(batch_id)

    async def results(
        self, batch_id: str, requests: Mapping[str, JudgeRequest]
    ) -> AsyncIterator[tuple[str, Outcome]]:
        """The inline responses of the ended job, matched by their metadata."""
        try:
            job = await self._client.aio.batches.get(name=batch_id)
        except Exception as exc:
            raise self.judge._map_error(exc) from exc
        responses = (job.dest.inlined_responses if job.dest is not None else None) or []
        for item in responses:
            custom_id = (item.metadata or {}).get("custom_id")
            request = requests.get(str(custom_id))
            if request is not None:
                yield str(custom_id), self._outcome(item, request)

    def _outcome(self, item: Any, request: JudgeRequest) -> Outcome:
        if item.response is not None:
            try:
                return Outcome(response=self.judge._to_response(item.response, request, 0.0))
            except ProviderError as exc:
                return Outcome(error=exc)
            except (AttributeError, TypeError, ValueError) as exc:
                error = TransientProviderError(f"the batch returned an unreadable reply: {exc}")
                return Outcome(error=error)
        if item.error is not None:
            code = int(getattr(item.error, "code", None) or 500)
            message = str(getattr(item.error, "message", None) or "error")[:300]
            rejected = status_error(
                code,
                message,
                retry_after=None,
                refused="Google refused the credentials (HTTP {status}): {detail}",
            )
            return Outcome(error=rejected)
        return Outcome()


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
