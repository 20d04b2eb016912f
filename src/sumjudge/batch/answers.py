"""The judge a batch run's passes talk to: replies already collected, or "pending".

`CollectedJudge` stands where the real judge stood, with the same name and identity (so
the response cache keys are the same). A request whose reply was collected from a batch
is answered with it; any other request is noted as pending and fails with
`PendingError`, which the runner treats as a final failure of this pass (not retried).
The round driver submits what is pending, collects the replies and runs the pass again.

`ReadOnlyCache` lets the passes before the last read the response cache without writing
it: the runner stays its only writer, and writes once, in the last pass, exactly what an
online run would have written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cache import ResponseCache
from ..errors import ProviderError
from ..protocol import Capabilities, Judge, JudgeRequest, JudgeResponse

if TYPE_CHECKING:
    from .collected import CollectedOutcomes

__all__ = ["CollectedJudge", "NotSentError", "PendingError", "ReadOnlyCache"]


class PendingError(ProviderError):
    """The request was not answered yet: it goes into the next batch round."""

    retryable = False


class NotSentError(ProviderError):
    """The request was never sent (max cost, a cancelled job): its item is "not_run".

    `evaluators.records.refused_only` recognises it by its name in a failure's reason, so
    an item whose only failures are these is recorded "not_run", as online, and a
    `--resume` judges it later.
    """

    retryable = False


class CollectedJudge:
    """Answers from collected batch outcomes; notes every other request as pending.

    Args:
        judge: the real judge (its name, identity and capabilities are kept).
        outcomes: custom id (request fingerprint) -> what a batch gave (replies read
            back from disk), shared with the round driver, which fills it in.
        refused: custom id -> the error that answers it instead of going pending
            (`NotSentError` for --max-cost or a cancelled job; a plain `ProviderError`
            for a request that never converged).
    """

    def __init__(
        self,
        judge: Judge,
        outcomes: CollectedOutcomes,
        refused: dict[str, ProviderError] | None = None,
    ) -> None:
        self.inner = judge
        self.name = judge.name
        self.identity = judge.identity
        self.capabilities: Capabilities = judge.capabilities
        self.outcomes = outcomes
        self.refused = refused if refused is not None else {}
        self.pending: dict[str, JudgeRequest] = {}

    async def complete(self, request: JudgeRequest) -> JudgeResponse:
        """The collected reply to `request`, or its error; else `PendingError`."""
        fp = request.fingerprint()
        outcome = self.outcomes.get(fp)
        if outcome is not None and outcome.response is not None:
            return outcome.response
        if outcome is not None and outcome.error is not None:
            raise outcome.error
        if fp in self.refused:
            known = self.refused[fp]  # raised afresh: the runner notes attempts on it
            raise type(known)(str(known), retryable=False)
        self.pending[fp] = request
        raise PendingError("waiting for the batch round that sends this request")

    async def aclose(self) -> None:
        """Nothing to release: the real judge is closed by its owner."""


class ReadOnlyCache(ResponseCache):
    """A view of a `ResponseCache` that reads it and ignores writes and deletes."""

    def __init__(self, inner: ResponseCache) -> None:  # no super(): no database of its own
        self.inner = inner
        self.path = inner.path
        self.hits = self.misses = self.writes = 0

    def get(self, key: str) -> JudgeResponse | None:
        """The stored response, as the real cache has it."""
        return self.inner.get(key)

    def put(self, key: str, response: JudgeResponse, *, identity: str, task: str) -> None:
        """Not stored: only the last pass writes."""

    def delete(self, key: str) -> None:
        """Not deleted: the last pass does it, as an online run would."""

    def flush(self) -> None:
        """Nothing of its own to write (the real cache writes its own)."""

    def __contains__(self, key: object) -> bool:
        return key in self.inner

    def __len__(self) -> int:
        return len(self.inner)

    def close(self) -> None:
        """The real cache is closed by its owner."""
