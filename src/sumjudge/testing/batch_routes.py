"""What every protocol's batch routes share: the error answer and the routes on one job.

Each batch module (`route_openai_batch`, `route_anthropic_batch`, `route_gemini_batch`)
keeps its own JSON shapes. A route on one job (retrieve, cancel, results) takes the same
steps in all of them: count the call, find the job among the protocol's own (a protocol
never sees another's jobs), answer the protocol's 404 when there is none, else act on it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .batches import BatchJob
from .replies import Reply

if TYPE_CHECKING:
    from .core import ServerCore

__all__ = ["JobAction", "JobRoutes", "fail"]

JobAction = Callable[[BatchJob, web.Request], web.Response]
"""What a route does with the job it found: (job, request) -> the response."""


def fail(payload: Callable[[Reply], dict[str, Any]], status: int, message: str) -> web.Response:
    """An error answer: `message` at `status` in the protocol's error body (`payload`)."""
    return web.json_response(payload(Reply.error(status, message)), status=status)


@dataclass(frozen=True)
class JobRoutes:
    """Handlers for the routes on one batch job (`{batch_id}` in the path) of one protocol.

    Attributes:
        srv: The server whose job store is read.
        kind: The protocol whose jobs the routes see ("openai", "anthropic", "gemini").
        missing: The protocol's answer for an id it does not know (gets the id).
        id_prefix: What the store's job ids carry before the path's id (Gemini's "batches/").
    """

    srv: ServerCore
    kind: str
    missing: Callable[[str], web.Response]
    id_prefix: str = ""

    def handler(
        self, counted_as: str, action: JobAction
    ) -> Callable[[web.Request], Awaitable[web.Response]]:
        """A handler that counts the call under `counted_as`, finds the job, then `action`."""

        async def handle(request: web.Request) -> web.Response:
            self.srv._count(counted_as, requests=1)
            batch_id = request.match_info["batch_id"]
            job = self.srv.batches.find(self.id_prefix + batch_id, self.kind)
            if job is None:
                return self.missing(batch_id)
            return action(job, request)

        return handle

    def cancel(
        self, counted_as: str, answer: JobAction
    ) -> Callable[[web.Request], Awaitable[web.Response]]:
        """A cancel handler: asks the job to stop, then `answer`s (what it did so far stays)."""

        def stop(job: BatchJob, request: web.Request) -> web.Response:
            self.srv.batches.cancel(job)
            return answer(job, request)

        return self.handler(counted_as, stop)
