"""The fake server's batch jobs: uploaded files, jobs, their processing, expiry and cancel.

One store serves every protocol's batch routes (`route_openai_batch`, `route_batch_other`):
a job is a list of (custom id, chat-completions body) answered by the same script and
responder as the online routes, after the store's simulated delay. Tests steer it with
`delay` (seconds a job waits before it is processed), `expire_next` (the next N jobs
expire after `expire_after` requests: the rest come back as expired) and by scripting
error replies (`Reply.error`) for the per-request failures.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Protocol

from .replies import Reply, error_payload


class BatchServer(Protocol):
    """What the job store needs of the server it belongs to (`core.ServerCore`)."""

    def _count(self, path: str, **deltas: int) -> None: ...

    def _pop_scripted(self) -> Reply | None: ...

    async def _settle(self, reply: Reply | None, body: dict[str, Any]) -> Reply: ...

    def capability_rejection(self, body: Mapping[str, Any]) -> Reply | None: ...


__all__ = ["BatchJob", "BatchStore", "Result", "iso_utc"]

Result = tuple[str, int, dict[str, Any]]
"""("ok" | "error" | "expired" | "cancelled", HTTP status, chat completion or error body)."""

Render = Callable[[dict[str, Any], Reply], dict[str, Any]]
"""(chat body, content reply) -> the chat completion's JSON (the online route's answer)."""


def iso_utc(stamp: float | None) -> str | None:
    """A time stamp as the providers write it (ISO 8601 in UTC, "Z"); None stays None."""
    if stamp is None:
        return None
    return datetime.fromtimestamp(stamp, tz=timezone.utc).isoformat().replace("+00:00", "Z")


@dataclass
class BatchJob:
    """One job: its requests, its state and, once processed, one result per request."""

    id: str
    kind: str  # "openai", "anthropic", "gemini": whose routes created it
    requests: list[tuple[str, dict[str, Any]]]
    metadata: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    status: str = "in_progress"  # then "completed", "expired", "cancelling", "cancelled"
    created: float = field(default_factory=time.time)
    ended: float | None = None
    results: dict[str, Result] = field(default_factory=dict)
    output_file_id: str | None = None
    error_file_id: str | None = None

    @property
    def done(self) -> int:
        """Requests answered so far (success or error)."""
        return len(self.results)

    @property
    def failed(self) -> int:
        """Requests whose result is not a success."""
        return sum(1 for r in self.results.values() if r[0] != "ok")


class BatchStore:
    """Files and batch jobs of one fake server (state lives on the server's thread)."""

    def __init__(self, srv: BatchServer) -> None:
        self.srv = srv
        self.files: dict[str, tuple[str, str, bytes]] = {}  # id -> (purpose, filename, data)
        self.jobs: dict[str, BatchJob] = {}
        self.delay = 0.0
        self.expire_next = 0
        self.expire_after = 0
        self.created = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._counter = 0

    def new_id(self, prefix: str) -> str:
        """A fresh id with `prefix` ("file-", "batch_", ...)."""
        self._counter += 1
        return f"{prefix}fake{self._counter:06d}"

    def add_file(self, purpose: str, filename: str, data: bytes) -> str:
        """Keep an uploaded (or generated) file; its id."""
        file_id = self.new_id("file-")
        self.files[file_id] = (purpose, filename, data)
        return file_id

    def create(
        self,
        kind: str,
        requests: list[tuple[str, dict[str, Any]]],
        render: Render,
        *,
        metadata: Mapping[str, Any] | None = None,
        extra: Mapping[str, Any] | None = None,
        finish: Callable[[BatchJob], None] | None = None,
    ) -> BatchJob:
        """A new job, processed in the background after `delay` seconds."""
        job = BatchJob(
            id=self.new_id({"anthropic": "msgbatch_", "gemini": "batches/"}.get(kind, "batch_")),
            kind=kind,
            requests=requests,
            metadata=dict(metadata or {}),
            extra=dict(extra or {}),
        )
        self.jobs[job.id] = job
        self.created += 1
        limit: int | None = None
        if self.expire_next > 0:
            self.expire_next -= 1
            limit = self.expire_after
        task = asyncio.ensure_future(self._process(job, render, limit, finish))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return job

    def find(self, job_id: str, kind: str) -> BatchJob | None:
        """The job `job_id`, if it is one of protocol `kind`'s (each sees only its own)."""
        job = self.jobs.get(job_id)
        return job if job is not None and job.kind == kind else None

    def page(self, kind: str, after: str | None, limit: int) -> tuple[list[BatchJob], bool]:
        """`kind`'s jobs, newest first, after the job `after`: at most `limit`, and more?

        The list routes' paging: the page, and whether more jobs follow it.
        """
        jobs = [j for j in reversed(list(self.jobs.values())) if j.kind == kind]
        if after:
            ids = [j.id for j in jobs]
            jobs = jobs[ids.index(after) + 1 :] if after in ids else []
        return jobs[:limit], len(jobs) > limit

    def cancel(self, job: BatchJob) -> None:
        """Ask a running job to stop; what it answered so far stays."""
        if job.status == "in_progress":
            job.status = "cancelling"

    async def _process(
        self,
        job: BatchJob,
        render: Render,
        limit: int | None,
        finish: Callable[[BatchJob], None] | None,
    ) -> None:
        waited = 0.0
        while waited < self.delay and job.status == "in_progress":
            step = min(0.05, self.delay - waited)
            await asyncio.sleep(step)
            waited += step
        for n, (custom_id, body) in enumerate(job.requests):
            if job.status == "cancelling":
                break
            if limit is not None and n >= limit:
                break
            job.results[custom_id] = await self._answer(body, render)
            if n % 200 == 199:
                await asyncio.sleep(0)  # let status requests in while a large job runs
        ended = "completed"
        if job.status == "cancelling":
            ended = "cancelled"
        elif limit is not None and limit < len(job.requests):
            ended = "expired"
        for custom_id, _ in job.requests:
            if custom_id not in job.results:
                job.results[custom_id] = (ended, 0, {"error": {"message": f"batch {ended}"}})
        job.status = ended
        job.ended = time.time()
        if finish is not None:
            finish(job)

    async def _answer(self, body: dict[str, Any], render: Render) -> Result:
        srv = self.srv
        srv._count("/batch", requests=1)  # each request of a job, as the online routes count

        reply = srv.capability_rejection(body) or srv._pop_scripted()
        reply = await srv._settle(reply, body)
        if reply.kind == "reset":
            reply = Reply.error(500, "The server had an error processing your request (fake)")
        if reply.kind == "error":
            srv._count("/batch", errors=1)
            return ("error", reply.status, error_payload(reply))
        return ("ok", 200, render(body, reply))
