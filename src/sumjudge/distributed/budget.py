"""One global budget split across the workers of a distributed job.

Every worker runs its own evaluator with its own rate limiter, so a job stays under the
global figures when each worker gets a share of them:

- `rpm`, `tpm`: global / W, where W is the number of workers that run at once (Spark:
  the task slots the job can use, Ray: the actors of `concurrency=`). W workers at
  rate / W each add up to the global rate.
- `concurrency`: max(1, global // W) items in flight per worker. Below W the floor of
  one per worker wins, so the job then has W items in flight (said in the docs).
- `calls_in_flight`: max(1, global // W) judge calls in flight per worker, the same way.
- `max_cost`: global / S, where S is the number of budget holders that can spend: Spark's
  partitions (each task is one holder; tasks run one after another on a slot), Ray's
  actors (an actor keeps its evaluator, and its spend, across batches). Every holder stops
  starting items at its share, so the job spends at most the global figure plus the items
  in flight when a share was reached. The job's summary adds the holders' spend.

The shares go into each worker's `Evaluator.evaluate_batch` arguments; the limiter
itself (`ratelimit.py`) is the one a local run uses.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ConfigError

__all__ = ["Budget", "WorkerShare"]


@dataclass(frozen=True)
class WorkerShare:
    """What one worker may use: its evaluator's batch arguments."""

    concurrency: int
    rpm: float | None
    tpm: float | None
    max_cost: float | None
    calls_in_flight: int | None = None


@dataclass(frozen=True)
class Budget:
    """The job's global limits (None: no cap), as a local run's flags give them.

    Example:
        >>> Budget(concurrency=32, rpm=600).share(workers=4, holders=4)
        WorkerShare(concurrency=8, rpm=150.0, tpm=None, max_cost=None, calls_in_flight=None)
    """

    concurrency: int = 8
    rpm: float | None = None
    tpm: float | None = None
    max_cost: float | None = None
    calls_in_flight: int | None = None

    def __post_init__(self) -> None:
        """Reject limits no worker could keep."""
        if self.concurrency < 1:
            raise ConfigError(f"concurrency must be at least 1 (got {self.concurrency})")
        if self.calls_in_flight is not None and self.calls_in_flight < 1:
            raise ConfigError(f"calls_in_flight must be at least 1 (got {self.calls_in_flight})")
        for name in ("rpm", "tpm"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ConfigError(f"{name} must be positive (got {value})")
        if self.max_cost is not None and self.max_cost < 0:
            raise ConfigError(f"max_cost must not be negative (got {self.max_cost})")

    def share(self, *, workers: int, holders: int) -> WorkerShare:
        """One worker's share: rates over `workers`, the cost cap over `holders`."""
        if workers < 1 or holders < 1:
            raise ConfigError(f"a job needs at least one worker (got {workers}, {holders})")
        return WorkerShare(
            concurrency=max(1, self.concurrency // workers),
            rpm=None if self.rpm is None else self.rpm / workers,
            tpm=None if self.tpm is None else self.tpm / workers,
            max_cost=None if self.max_cost is None else self.max_cost / holders,
            calls_in_flight=None
            if self.calls_in_flight is None
            else max(1, self.calls_in_flight // workers),
        )
