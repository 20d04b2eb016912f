"""Judge a Ray Dataset where it lives: `evaluate_ray` and `autoeval_ray`.

`Dataset.map_batches` with a callable class: each actor builds one evaluator (the
package's own, async) and reuses it for every batch it is given; `concurrency=` actors
(`workers`) run at once. Ray schedules, retries and restarts them; nothing here schedules
anything. The arguments are `sumjudge.distributed.face.EngineFace`'s, and Ray's own:
`workers` (actors, Ray's `concurrency=`; default 2), `batch_size` (rows per batch; default
64, whole blocks with a rate cap) and `num_cpus` (per actor, default 1).

Example:
    >>> from sumjudge.ray import evaluate_ray
    >>> out = evaluate_ray(ds, model="openai/gpt-4o-mini", rpm=600, workers=8,
    ...                    cache_dir="/mnt/shared/sumjudge")
    >>> out.write_parquet("s3://bucket/judged/")

Needs `pip install 'sumjudge[ray]'` on the driver and on the workers (a KubeRay image, or
`runtime_env={"pip": ["sumjudge"]}`). See docs/distributed.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .distributed.face import EngineFace, JobRequest
from .distributed.task import BatchJudge, JobSpec
from .errors import MissingDependencyError

if TYPE_CHECKING:
    import pandas as pd
    from ray.data import Dataset

__all__ = ["RayBatchJudge", "autoeval_ray", "evaluate_ray"]


class RayBatchJudge:
    """The callable class `map_batches` runs: one evaluator per actor, for all its batches.

    Args:
        spec: the job (no key in it: the actor reads its key from its environment).
    """

    def __init__(self, spec: JobSpec) -> None:
        import ray

        # A restarted actor gets a new name, hence a new file; it still reads the dead
        # actor's answers from that one's file (`WorkerCache` reads its siblings).
        worker = f"ray-{ray.get_runtime_context().get_actor_id() or 'driver'}"
        self.judge = BatchJudge(spec, worker)

    def __call__(self, batch: pd.DataFrame) -> pd.DataFrame:
        """The batch with the result columns added."""
        return self.judge.judge(batch)

    def __del__(self) -> None:
        judge = getattr(self, "judge", None)
        if judge is not None:
            judge.close()


class _Ray(EngineFace["Dataset"]):
    """The two functions on Ray: `map_batches` with `RayBatchJudge` actors."""

    def ready(self) -> None:
        try:
            import ray.data  # noqa: F401
        except ImportError as exc:
            raise MissingDependencyError("ray[data]", "ray") from exc

    def run(self, data: Dataset, job: JobRequest) -> Dataset:
        workers = job.workers or 2
        # An actor's limiter lives for one batch run: with a rate cap, whole blocks per
        # call (fewer limiter starts); see docs/distributed.md.
        rate_capped = job.budget.rpm is not None or job.budget.tpm is not None
        batch_size: int | None = job.take("batch_size") or (None if rate_capped else 64)
        num_cpus = float(job.take("num_cpus") or 1)
        # Actors keep their evaluator (and its spend) across batches: each holds a share.
        spec = job.spec(data.columns(), workers=workers, holders=workers)
        return data.map_batches(
            RayBatchJudge,
            fn_constructor_kwargs={"spec": spec},
            concurrency=workers,
            batch_size=batch_size,
            batch_format="pandas",
            num_cpus=num_cpus,
        )


_RAY = _Ray()
evaluate_ray = _RAY.evaluate
autoeval_ray = _RAY.autoeval
