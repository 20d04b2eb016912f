"""Anthropic's Message Batches through the anthropic SDK (`client.messages.batches`).

A batch is `messages.batches.create(requests=[{"custom_id", "params"}])`, where `params`
is exactly what the online adapter sends (`AnthropicJudge._kwargs`, prompt-cache
breakpoints included); `retrieve` reports `processing_status` and the request counts;
`results` streams one `{"custom_id", "result"}` per request once the batch has ended,
and a succeeded result's message is read by the adapter's own `_to_response`.

Limits (Anthropic's "Batch processing" and "Create a Message Batch" docs): 100,000
requests or 256 MB per batch, whichever comes first; custom ids of 1-64 characters of
`[a-zA-Z0-9_-]`.

Message batches carry no metadata, so `find` cannot recognise a batch by its tag. A
process killed between the provider creating a batch and the manifest recording its id
left the batch's intent in the manifest (written before `create`, with its time and
request count), so the rerun adopts the batch that matches it: listed by
`messages.batches.list` (newest first), created at or after the intent (less
`CLOCK_SKEW` seconds), with the same number of requests (`request_counts`, summed), and
not already an entry of the job. What is still doubtful: another batch of the same
workspace (another process or person) with the same count, created in that window, is
indistinguishable before it ends (the API shows no custom ids until the results). A
wrong adoption costs a wait, not a wrong reply: its results carry none of our custom ids,
so our requests come back as unanswered and go into a new batch, while the batch the
killed process did create is then paid for and never read.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from typing import Any

from ..judges.anthropic import AnthropicJudge
from ..protocol import JudgeRequest
from .backend_steps import SDKBackend, read_reply, rejected
from .provider import BatchStatus, LostBatch, Outcome

__all__ = ["AnthropicBatches"]

# Anthropic's error types -> the HTTP status its online API answers them with.
CLOCK_SKEW = 10.0
"""Seconds by which Anthropic's clock may run behind ours when matching an intent."""

_ERROR_STATUS = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "permission_error": 403,
    "not_found_error": 404,
    "request_too_large": 413,
    "rate_limit_error": 429,
    "api_error": 500,
    "overloaded_error": 529,
}


class AnthropicBatches(SDKBackend[AnthropicJudge]):
    """The `BatchBackend` of an `AnthropicJudge`, on the judge's own client."""

    provider = "anthropic"
    max_requests = 100_000
    max_bytes = 250 * 1024 * 1024  # under the 256 MB limit, with room for framing

    def __init__(self, judge: AnthropicJudge) -> None:
        super().__init__(judge, judge._anthropic.APIError)

    def _entry(self, custom_id: str, request: JudgeRequest) -> dict[str, Any]:
        return {"custom_id": custom_id, "params": self.judge._kwargs(request)}

    def size(self, custom_id: str, request: JudgeRequest) -> int:
        """The request's JSON size in bytes (with a separator)."""
        return len(json.dumps(self._entry(custom_id, request)).encode("utf-8")) + 1

    async def submit(self, entries: list[tuple[str, JudgeRequest]], tag: Mapping[str, str]) -> str:
        """`messages.batches.create` with every request; the batch id."""
        with self._sdk_errors():
            batch = await self._client.messages.batches.create(
                requests=[self._entry(cid, r) for cid, r in entries]
            )
        return str(batch.id)

    async def find(self, lost: LostBatch) -> str | None:
        """The oldest batch created since the intent with `count` requests, not `taken`.

        No tag to match (a message batch has no metadata): see the module's docstring.
        The list is newest first, so it is read until a batch older than the intent.
        """
        if lost.count <= 0:
            return None
        found: str | None = None
        with self._sdk_errors():
            async for batch in self._client.messages.batches.list(limit=100):
                if batch.created_at.timestamp() < lost.since - CLOCK_SKEW:
                    break
                c = batch.request_counts
                total = c.processing + c.succeeded + c.errored + c.canceled + c.expired
                if total == lost.count and batch.id not in lost.taken:
                    found = str(batch.id)  # keep going: the oldest match is ours
        return found

    async def status(self, batch_id: str) -> BatchStatus:
        """`messages.batches.retrieve`: processing status and request counts."""
        with self._sdk_errors():
            batch = await self._client.messages.batches.retrieve(batch_id)
        return _status(batch)

    async def cancel(self, batch_id: str) -> BatchStatus:
        """`messages.batches.cancel` (the batch goes through "canceling" to "ended")."""
        with self._sdk_errors():
            batch = await self._client.messages.batches.cancel(batch_id)
        return _status(batch)

    async def results(
        self, batch_id: str, requests: Mapping[str, JudgeRequest]
    ) -> AsyncIterator[tuple[str, Outcome]]:
        """`messages.batches.results` (the SDK streams the JSONL): each request's outcome."""
        with self._sdk_errors():
            async for item in await self._client.messages.batches.results(batch_id):
                request = requests.get(item.custom_id)
                if request is not None:
                    yield item.custom_id, self._outcome(item.result, request)

    def _outcome(self, result: Any, request: JudgeRequest) -> Outcome:
        if result.type == "succeeded":
            return read_reply(lambda: self.judge._to_response(result.message, request, 0.0))
        if result.type == "errored":
            inner = getattr(result.error, "error", None)
            kind = str(getattr(inner, "type", "api_error"))
            message = str(getattr(inner, "message", "") or kind)[:300]
            return Outcome(error=rejected(_ERROR_STATUS.get(kind, 500), message, "Anthropic"))
        return Outcome()  # canceled or expired before it ran: sent again


def _status(batch: Any) -> BatchStatus:
    counts = batch.request_counts
    failed = counts.errored
    total = counts.processing + counts.succeeded + counts.errored + counts.canceled + counts.expired
    return BatchStatus(
        state=str(batch.processing_status),
        ended=batch.processing_status == "ended",
        done=total - counts.processing,
        failed=failed,
        total=total,
    )
