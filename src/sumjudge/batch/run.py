"""A batch run as one object: `BatchRun(evaluator, options).records(items)`, then its `report`.

The evaluator asks `batch_options` once, when it is built with `batch_api=` (the judge
must have a batch endpoint; a panel is refused), and prices its run at the batch price
itself. `Evaluator.evaluate_batch` then hands its items to a `BatchRun`, and the CLI
builds one itself to hold the report. The run reads the evaluator (`rounds.BatchTarget`)
and never changes it: each pass and the last pass are the evaluator's online run
(`online_records`) through a caller the run made for it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Container, Iterable
from typing import Any

from ..accounting import RunSummary
from ..errors import ConfigError
from ..protocol import Judge
from .backends import backend_for
from .options import BatchOptions, BatchReport
from .provider import BatchBackend
from .rounds import BatchRounds, BatchTarget, materialise

__all__ = ["BatchRun", "batch_options"]


def batch_options(batch_api: bool | BatchOptions, judge: Judge, *, panel: bool) -> BatchOptions:
    """The options of a `batch_api=True` / `BatchOptions` argument, once the judge is checked.

    Raises:
        ConfigError: a judge panel, or a judge without a batch endpoint.
    """
    if panel:
        raise ConfigError("--batch-api takes one judge, not a panel")
    backend_for(judge)  # fails now for a judge without a batch endpoint
    return batch_api if isinstance(batch_api, BatchOptions) else BatchOptions()


class BatchRun:
    """One batch run of an evaluator: the rounds, then the last pass's records.

    Args:
        evaluator: what is run (`rounds.BatchTarget`: read, never written).
        options: see `BatchOptions`.
        max_cost: USD the run may spend; checked before each round is submitted.
        backend: the provider's batch endpoint (default: the judge's provider's).

    Attributes:
        report: what the rounds did (`BatchReport`), filled as they go; `waiting` when
            `--no-wait` left batches running (then no record is yielded).
    """

    def __init__(
        self,
        evaluator: BatchTarget,
        options: BatchOptions,
        *,
        max_cost: float | None = None,
        backend: BatchBackend | None = None,
    ) -> None:
        self.evaluator = evaluator
        self.options = options
        self._rounds = BatchRounds(evaluator, options, max_cost=max_cost, backend=backend)
        self.report: BatchReport = self._rounds.report

    async def records(
        self,
        items: Iterable[Any],
        *,
        concurrency: int = 8,
        skip: Container[int] | None = None,
        summary: RunSummary | None = None,
    ) -> AsyncIterator[Any]:
        """The records of the last pass, once every round is collected.

        The items are read into a list (every pass reads them again); nothing is yielded
        until the last round is collected, and nothing at all without waiting while
        batches run. Rate limits do not apply: the provider schedules a batch itself.
        `summary` is filled by the last pass (and says why the rounds stopped, if they did).
        """
        listed = materialise(items)
        try:
            await self._rounds.run(listed, concurrency=concurrency, skip=skip)
            if self.report.waiting:
                return
            run = summary if summary is not None else RunSummary()
            async for record in self.evaluator.online_records(
                listed,
                caller=self._rounds.final_caller(),
                concurrency=max(concurrency, 64),
                skip=skip,
                summary=run,
            ):
                yield record
            if self.report.stopped:
                run.stopped = self.report.stopped
        finally:
            self._rounds.close()  # the collected replies are in the response cache now
