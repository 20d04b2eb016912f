"""A batch run as rounds of an ordinary run: pass, submit what is pending, collect, repeat.

Each pass runs the evaluator over every item exactly as online, with the judge replaced
by a `CollectedJudge` and the response cache by a read-only view. The requests it could
not answer are pending: they go to the provider's batch endpoint (split by the provider's
per-batch limits), the driver waits for the batches, reads their outcomes, and runs the
pass again, which now gets further (a repair re-ask, the questions after their rubric,
relevance after the chunk notes) or finishes. A pass is the evaluator's online run
(`online_records`) given a caller of its own: the evaluator itself is never changed. The
pass that finds nothing pending is followed by the last pass, which `run.BatchRun` runs
with `final_caller`: it writes the response cache and produces parsing, repair, rules,
records and output exactly as an online run would, at the batch price.

Per-request errors are sent again in the next round while the retry policy allows;
requests an expired, cancelled or failed batch did not run are sent again; `max_cost` is
checked before each round is submitted. A job manifest (`manifest.py`) records every
batch before it is created, so a rerun (or a resume after a kill) collects the batches
already submitted instead of submitting their requests again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Container, Iterable
from typing import Any, Protocol

from ..accounting import RunSummary
from ..cache import safe_identity
from ..cost import CostEstimate, Price
from ..errors import ProviderError, RequestError
from ..protocol import Judge, JudgeRequest
from ..runner import JudgeCaller
from .answers import CollectedJudge, NotSentError, ReadOnlyCache
from .backends import backend_for
from .collected import CollectedOutcomes
from .manifest import DEAD, BatchEntry, Job, JobStore, job_id_for
from .options import BatchOptions, BatchReport
from .provider import BatchBackend, LostBatch, Outcome

__all__ = ["BatchRounds", "BatchTarget", "materialise"]


class BatchTarget(Protocol):
    """What a batch run needs of an evaluator: read, never written (`Evaluator` has it)."""

    @property
    def judge(self) -> Judge:
        """The real judge (its batch endpoint, name and identity)."""
        ...

    @property
    def caller(self) -> JudgeCaller:
        """The evaluator's own caller: its retry policy and response cache."""
        ...

    @property
    def price(self) -> Price | None:
        """The batch price."""
        ...

    def online_records(
        self,
        items: Iterable[Any],
        *,
        caller: JudgeCaller,
        concurrency: int = 8,
        skip: Container[int] | None = None,
        summary: RunSummary | None = None,
    ) -> AsyncIterator[Any]:
        """The evaluator's online run with every request through `caller`."""
        ...


class BatchRounds:
    """Drives the rounds of one batch run of one evaluator over one list of items.

    Args:
        evaluator: the evaluator; each pass is its online run through a pass's caller.
        options: see `BatchOptions`.
        max_cost: USD the run may spend; checked before each round is submitted.
        backend: the provider's batch endpoint (default: the judge's provider's).
    """

    def __init__(
        self,
        evaluator: BatchTarget,
        options: BatchOptions | None = None,
        *,
        max_cost: float | None = None,
        backend: BatchBackend | None = None,
    ) -> None:
        self.evaluator = evaluator
        self.options = options or BatchOptions()
        self.max_cost = max_cost
        self.backend = backend or backend_for(evaluator.judge)
        self.store = JobStore(self.options.jobs_dir)
        self.outcomes = CollectedOutcomes()  # replies on disk until the last pass
        self.refused: dict[str, ProviderError] = {}
        self.report = BatchReport()
        self._errors: dict[str, int] = {}
        self._collected: set[str] = set()
        self._job: Job | None = None
        self._spent = 0.0
        self._opened = 0.0

    # -- the passes -----------------------------------------------------------------------------
    def _caller(self, judge: Judge, *, final: bool) -> JudgeCaller:
        base = self.evaluator.caller
        cache = base.cache
        if cache is not None and not final:
            cache = ReadOnlyCache(cache)
        return JudgeCaller(judge, base.policy, cache=cache, price=self.evaluator.price)

    async def _pass(self, items: list[Any], concurrency: int, skip: Any) -> dict[str, JudgeRequest]:
        judge = CollectedJudge(self.evaluator.judge, self.outcomes, self.refused)
        caller = self._caller(judge, final=False)
        started = time.perf_counter()
        try:
            passing = self.evaluator.online_records(
                items, caller=caller, concurrency=concurrency, skip=skip
            )
            async for _ in passing:
                pass
        finally:
            self.report.passes_s += time.perf_counter() - started
        return judge.pending

    def final_caller(self) -> JudgeCaller:
        """The caller of the last pass: collected replies, the real (writable) cache."""
        judge = CollectedJudge(self.evaluator.judge, self.outcomes, self.refused)
        return self._caller(judge, final=True)

    async def run(
        self, items: list[Any], *, concurrency: int = 64, skip: Any = None
    ) -> BatchReport:
        """Rounds until no request is pending (or, without waiting, one round submitted)."""
        concurrency = max(concurrency, 64)  # a pass makes no network call: go wide
        for round_no in range(1, self.options.max_rounds + 2):
            pending = await self._pass(items, concurrency, skip)
            if not pending:
                break
            if round_no > self.options.max_rounds:
                reason = f"still unanswered after {self.options.max_rounds} rounds"
                self._refuse(pending, ProviderError(reason, retryable=False))
                continue
            job = self._open_job(pending)
            self.report.rounds = round_no
            batches = await self._batches_for(job, round_no, pending)
            if not batches:
                continue  # everything was refused: the next pass fails those requests
            if not self.options.wait and not await self._all_ended(batches):
                self.report.waiting = True
                self._save(job)
                return self.report
            await self._wait(batches)
            for entry in batches:
                await self._collect(entry, pending)
            self._cancelled(job, pending)
        if self._job is not None and not self.report.waiting and self._job.state != "cancelled":
            self._job.state = "done"
            self._job.cost_usd = self._spent
            self._save(self._job)
        self.report.cost_usd = self._spent
        return self.report

    # -- the job and its batches --------------------------------------------------------------
    def _open_job(self, pending: dict[str, JudgeRequest]) -> Job:
        if self._job is not None:
            return self._job
        identity = self.evaluator.judge.identity
        job_id = job_id_for(identity, pending)
        job = self.store.load(job_id)
        if job is None:
            job = Job(id=job_id, provider=self.backend.provider, judge=safe_identity(identity))
        job.state = "running"  # a rerun of a cancelled job starts it again
        # URLs lose any user-info or query string (they may hold keys), as in the cache
        job.command = safe_identity(self.options.command) or job.command
        self._job = job
        self.report.job_id = job_id
        self.store.save(job)
        self._opened = job.updated
        return job

    def _save(self, job: Job) -> None:
        """Write the manifest, keeping a cancel that `sumjudge jobs cancel` wrote meanwhile."""
        on_disk = self.store.load(job.id)
        if on_disk is not None and on_disk.state == "cancelled" and on_disk.updated > self._opened:
            job.state = "cancelled"
        self.store.save(job)

    async def _batches_for(
        self, job: Job, round_no: int, pending: dict[str, JudgeRequest]
    ) -> list[BatchEntry]:
        """The live batches that hold pending requests, after submitting the rest."""
        await self._recover(job)
        # Every created batch not yet read by this process, dead ones included: an expired
        # or cancelled batch still holds the replies it gave before it stopped, and
        # reading them is what keeps a rerun from sending those requests a second time.
        covering = [
            b
            for b in job.batches
            if b.batch_id is not None
            and b.key not in self._collected
            and any(fp in pending for fp in b.requests)
        ]
        covered = {fp for b in covering for fp in b.requests}
        new = [fp for fp in pending if fp not in covered and fp not in self.refused]
        if new and self.max_cost is not None:
            estimate = CostEstimate(price=self.evaluator.price)
            estimate.add_requests([pending[fp] for fp in new], [False] * len(new))
            cost = estimate.cost(prompt_caching=False) or 0.0
            if self._spent + cost > self.max_cost:
                reason = (
                    f"not sent: max cost ${self.max_cost:g} would be passed by batch round "
                    f"{round_no} (${self._spent:.4f} spent, ~${cost:.4f} more)"
                )
                self.report.stopped = reason
                self._refuse({fp: pending[fp] for fp in new}, NotSentError(reason))
                new = []
        for part, chunk in enumerate(self._split([(fp, pending[fp]) for fp in new])):
            covering.append(await self._submit(job, round_no, part, chunk))
        return covering

    def _split(
        self, entries: list[tuple[str, JudgeRequest]]
    ) -> list[list[tuple[str, JudgeRequest]]]:
        chunks: list[list[tuple[str, JudgeRequest]]] = []
        size = 0
        for entry in entries:
            grow = self.backend.size(*entry)
            if (
                not chunks
                or len(chunks[-1]) >= self.backend.max_requests
                or size + grow > self.backend.max_bytes
            ):
                chunks.append([])
                size = 0
            chunks[-1].append(entry)
            size += grow
        return chunks

    async def _submit(
        self, job: Job, round_no: int, part: int, chunk: list[tuple[str, JudgeRequest]]
    ) -> BatchEntry:
        key = f"{job.id}-r{round_no}-{len(job.batches)}-{part}"
        entry = BatchEntry(key=key, round=round_no, requests=[fp for fp, _ in chunk])
        job.batches.append(entry)
        self._save(job)  # before the provider knows it: a kill now is recovered by tag
        entry.batch_id = await self.backend.submit(chunk, self._tag(job, entry))
        entry.state = "submitted"
        job.rounds = max(job.rounds, round_no)
        self._save(job)
        self.report.batches += 1
        self.report.submitted += len(chunk)
        return entry

    @staticmethod
    def _tag(job: Job, entry: BatchEntry) -> dict[str, str]:
        return {"sumjudge_job": job.id, "sumjudge_batch": entry.key}

    async def _recover(self, job: Job) -> None:
        """Batches a killed process wrote down but may not have created: find them by tag."""
        for entry in job.batches:
            if entry.state == "submitting":
                taken = {b.batch_id for b in job.batches if b.batch_id is not None}
                tag = self._tag(job, entry)
                lost = LostBatch(tag, since=entry.submitted, count=len(entry.requests), taken=taken)
                found = await self.backend.find(lost)
                entry.batch_id = found
                entry.state = "submitted" if found else "lost"
        self._save(job)

    # -- waiting and collecting ---------------------------------------------------------------
    async def _all_ended(self, batches: list[BatchEntry]) -> bool:
        for entry in batches:
            if entry.batch_id is None:
                continue
            status = await self.backend.status(entry.batch_id)
            entry.state, entry.done, entry.failed = status.state, status.done, status.failed
            if not status.ended:
                return False
        return True

    async def _wait(self, batches: list[BatchEntry]) -> None:
        started = time.perf_counter()
        delay = min(1.0, self.options.poll_interval)
        waiting = [b for b in batches if b.batch_id is not None]
        shown: dict[str, str] = {}
        while True:
            ended = True
            for n, entry in enumerate(waiting, 1):
                assert entry.batch_id is not None
                status = await self.backend.status(entry.batch_id)
                entry.state, entry.done, entry.failed = status.state, status.done, status.failed
                ended = ended and status.ended
                if status.ended and entry.ended is None:
                    entry.ended = time.time()
                line = (
                    f"batch {n}/{len(waiting)} ({entry.batch_id}, round {entry.round}): "
                    f"{status.done}/{len(entry.requests)} done, {status.failed} failed, "
                    f"{status.state}"
                )
                if shown.get(entry.key) != line:  # a line when something changed, not per poll
                    shown[entry.key] = line
                    self._say(f"{line}; waited {time.perf_counter() - started:.0f} s")
            if ended:
                break
            if self._job is not None:
                self._save(self._job)
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.options.poll_interval)
        self.report.waited_s += time.perf_counter() - started

    async def _collect(self, entry: BatchEntry, pending: dict[str, JudgeRequest]) -> None:
        """Read an ended batch's outcomes one by one into `self.outcomes` (replies to disk)."""
        self._collected.add(entry.key)
        if entry.batch_id is None:
            return
        mine = {fp: pending[fp] for fp in entry.requests if fp in pending}
        status = await self.backend.status(entry.batch_id)
        if status.problem is not None:
            failed = Outcome(error=RequestError(f"the batch failed: {status.problem}"))
            for fp in mine:
                self._take(fp, failed)
        else:
            async for fp, outcome in self.backend.results(entry.batch_id, mine):
                if fp in mine:
                    self._take(fp, outcome)
        entry.state = "collected" if entry.state not in DEAD else entry.state

    def _take(self, fp: str, outcome: Outcome) -> None:
        """One request's outcome: a reply is kept, an error is final or sent again."""
        if self.outcomes.answered(fp):
            return  # another batch answered it already: a success wins
        if outcome.response is None and outcome.error is None:
            return  # not run (expired, cancelled): pending again, sent again
        if outcome.response is not None:
            self.outcomes.put(fp, outcome)
            self.report.collected += 1
            if self.evaluator.price is not None:
                self._spent += self.evaluator.price.cost(outcome.response.usage)
            return
        assert outcome.error is not None
        self._errors[fp] = self._errors.get(fp, 0) + 1
        tries = self._errors[fp]
        if (outcome.free and tries < 3) or (
            outcome.error.retryable and tries < self.evaluator.caller.policy.max_attempts
        ):
            self.outcomes.forget(fp)
            return  # sent again in the next round
        self.outcomes.put(fp, Outcome(error=_final(outcome.error, tries)))

    def close(self) -> None:
        """Delete the collected replies' spill file (after the last pass)."""
        self.outcomes.close()

    def _cancelled(self, job: Job, pending: dict[str, JudgeRequest]) -> bool:
        """Whether `sumjudge jobs cancel` stopped the job meanwhile (then nothing more goes)."""
        self._save(job)
        if job.state != "cancelled":
            return False
        reason = f"not sent: job {job.id} was cancelled"
        self.report.stopped = reason
        unanswered = {fp: r for fp, r in pending.items() if fp not in self.outcomes}
        self._refuse(unanswered, NotSentError(reason))
        self._save(job)
        return True

    def _refuse(self, requests: dict[str, JudgeRequest], error: ProviderError) -> None:
        for fp in requests:
            self.refused[fp] = error

    def _say(self, line: str) -> None:
        if self.options.progress is not None:
            self.options.progress(line)


def _final(error: ProviderError, tries: int) -> ProviderError:
    """The error as the last pass raises it: not retried by the runner, tries named."""
    note = f" (in {tries} batch{'es' if tries != 1 else ''})" if tries > 1 else ""
    try:
        final = type(error)(f"{error}{note}", status=error.status, retryable=False)
    except TypeError:  # an error type with its own constructor: keep it as it is
        final = error
    final.retryable = False
    return final


def materialise(items: Iterable[Any]) -> list[Any]:
    """The items as a list: every pass reads them again."""
    return items if isinstance(items, list) else list(items)
