"""The evaluator's side of a batch run: `batch_api=` and `evaluate_batch` in rounds.

`setup_batch` is all `Evaluator.__init__` calls: it checks the judge, makes the price the
batch price and routes the evaluator's `evaluate_batch` through `batch_records`, which
runs the rounds (`rounds.BatchRounds`) over the online `evaluate_batch` and then yields
the last pass's records.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from typing import Any

from ..errors import ConfigError
from .backends import backend_for
from .options import BatchOptions, BatchReport
from .rounds import BatchRounds, Stream, materialise

__all__ = ["BatchOptions", "BatchReport", "batch_records", "setup_batch"]


def setup_batch(evaluator: Any, batch_api: bool | BatchOptions) -> BatchOptions | None:
    """Make `evaluator.evaluate_batch` go through the batch endpoint; its options or None.

    The evaluator's price becomes the batch price (so the dry run, the records, the
    summary and `max_cost` use it) and its `evaluate_batch` becomes `batch_records` over
    the online one, which the passes and the last pass run. Raises `ConfigError` for a
    judge without a batch endpoint, or a judge panel.
    """
    evaluator.last_batch = None
    if not batch_api:
        return None
    if getattr(evaluator, "members", None):
        raise ConfigError("--batch-api takes one judge, not a panel")
    backend_for(evaluator.judge)  # fails now for a judge without a batch endpoint
    evaluator.price = evaluator.models.batch_price(evaluator.judge_name, evaluator.price)
    options = batch_api if isinstance(batch_api, BatchOptions) else BatchOptions()
    online = evaluator.evaluate_batch

    def evaluate_batch(items: Iterable[Any], **kwargs: Any) -> AsyncIterator[Any]:
        return batch_records(evaluator, online, options, items, **kwargs)

    evaluator.evaluate_batch = evaluate_batch
    return options


async def batch_records(
    evaluator: Any,
    online: Stream,
    options: BatchOptions,
    items: Iterable[Any],
    *,
    concurrency: int = 8,
    max_cost: float | None = None,
    skip: Any = None,
    summary: Any = None,
    **_rates: Any,
) -> AsyncIterator[Any]:
    """`evaluate_batch` through the batch endpoint: the rounds, then the last pass's records.

    The items are read into a list (every pass reads them again); nothing is yielded until
    the last round is collected, and nothing at all without waiting while batches run.
    `evaluator.last_batch` says what the rounds did. Rate limits do not apply: the
    provider schedules a batch itself.
    """
    listed = materialise(items)
    saved = evaluator.caller
    rounds = BatchRounds(evaluator, online, options, max_cost=max_cost)
    try:
        report = evaluator.last_batch = await rounds.run(listed, concurrency=concurrency, skip=skip)
        if report.waiting:
            return
        evaluator.caller = rounds.final_caller()
        async for record in online(
            listed, concurrency=max(concurrency, 64), skip=skip, summary=summary
        ):
            yield record
        if evaluator.last_summary is not None and report.stopped:
            evaluator.last_summary.stopped = report.stopped
    finally:
        evaluator.caller = saved
        rounds.close()  # the collected replies are in the response cache now
