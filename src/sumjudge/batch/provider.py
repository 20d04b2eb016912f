"""What a provider's batch endpoint must do for a batch run, whatever the provider.

A `BatchBackend` submits a list of (custom id, request) as one provider batch, reports its
progress, reads its results back as `Outcome`s and cancels it. The round driver
(`rounds.py`) needs nothing else, so OpenAI (and compatible servers), Anthropic and
Gemini differ only in their backend module.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Collection, Mapping
from dataclasses import dataclass
from typing import Protocol

from ..errors import ProviderError
from ..protocol import JudgeRequest, JudgeResponse

__all__ = ["BatchBackend", "BatchStatus", "LostBatch", "Outcome"]


@dataclass(frozen=True)
class BatchStatus:
    """Where one provider batch is.

    Attributes:
        state: the provider's own word ("in_progress", "ended", "JOB_STATE_RUNNING", ...).
        ended: whether it will change no more (completed, expired, cancelled or failed).
        done: requests answered so far (successes and errors).
        failed: requests that ended in an error.
        total: requests in the batch.
        problem: why the whole batch failed, when it did.
    """

    state: str
    ended: bool
    done: int = 0
    failed: int = 0
    total: int = 0
    problem: str | None = None


@dataclass(frozen=True)
class Outcome:
    """What a batch gave for one request.

    Exactly one of `response` (a reply), `error` (the provider's error for this request)
    or neither (not run: the batch expired or was cancelled first). `free` marks an error
    that does not count as an attempt (the request was adapted and is worth sending again,
    e.g. a server that refused a feature).
    """

    response: JudgeResponse | None = None
    error: ProviderError | None = None
    free: bool = False


@dataclass(frozen=True)
class LostBatch:
    """A batch a killed process may have created: what the manifest says to find it by.

    Attributes:
        tag: what the batch was to be created with.
        since: when the intent was written (before the create call).
        count: the requests the batch was to hold.
        taken: the job's batch ids already known, which are not this one.
    """

    tag: Mapping[str, str]
    since: float = 0.0
    count: int = 0
    taken: Collection[str] = ()


class BatchBackend(Protocol):
    """One provider's batch endpoint, through its official SDK.

    Attributes:
        provider: "openai", "anthropic" or "google".
        max_requests: requests one batch may hold.
        max_bytes: size one batch's requests may have, as this backend encodes them.
    """

    provider: str
    max_requests: int
    max_bytes: int

    def size(self, custom_id: str, request: JudgeRequest) -> int:
        """The encoded size of one request, for splitting a round into batches."""
        ...

    async def submit(self, entries: list[tuple[str, JudgeRequest]], tag: Mapping[str, str]) -> str:
        """Create one batch of `entries`, labelled with `tag`; its id."""
        ...

    async def find(self, lost: LostBatch) -> str | None:
        """The id of the batch a killed process created for an intent (kill recovery).

        A provider whose batches carry a tag finds it by `lost.tag`; one whose batches
        carry none (Anthropic) matches the intent's time `since`, its request `count` and
        skips the job's batch ids already `taken`.
        """
        ...

    async def status(self, batch_id: str) -> BatchStatus:
        """The batch's progress."""
        ...

    def results(
        self, batch_id: str, requests: Mapping[str, JudgeRequest]
    ) -> AsyncIterator[tuple[str, Outcome]]:
        """(custom id, outcome) of an ended batch's requests in `requests`, one at a time.

        An async generator: a batch's results are read as they stream in, not all held
        (a batch of 50,000 replies with logprobs is gigabytes).
        """
        ...

    async def cancel(self, batch_id: str) -> BatchStatus:
        """Ask the provider to stop the batch."""
        ...
