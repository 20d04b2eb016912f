"""Judge a Ray Dataset where it lives: `evaluate_ray` and `autoeval_ray`.

`Dataset.map_batches` with a callable class: each actor builds one evaluator (the
package's own, async) and reuses it for every batch it is given; `concurrency=` actors
(`workers`) run at once. Ray schedules, retries and restarts them; nothing here schedules
anything. The arguments are `sumjudge.distributed.face.EngineFace`'s, and Ray's own:
`workers` (actors; default 2), `batch_size` (rows per batch; default: `batch_rows`, about
a second of the judge's work) and `num_cpus` (per actor, default 1). Any Dataset, lazy
or materialized, is cut into blocks of at most `batch_size` rows first, each block one
batch (`cut_in_batches`), so the actors share the rows whatever the input's blocks were.
With `rpm` or `tpm`,
one named actor per job holds the job's rate limiter (`distributed/limiter.py`) and every
actor's requests wait on it.

Example:
    >>> from sumjudge.ray import evaluate_ray
    >>> out = evaluate_ray(ds, model="openai/gpt-4o-mini", rpm=600, workers=8,
    ...                    cache_dir="/mnt/shared/sumjudge")
    >>> out.write_parquet("s3://bucket/judged/")

Needs `pip install 'sumjudge[ray]'` on the driver and on the workers (a KubeRay image, or
`runtime_env={"pip": ["sumjudge"]}`). See docs/distributed.md.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
import uuid
from typing import TYPE_CHECKING, Any

from .distributed.face import EngineFace, JobRequest
from .distributed.limiter import LimiterHost
from .distributed.task import BatchJudge, JobSpec
from .errors import ConfigError, MissingDependencyError

if TYPE_CHECKING:
    import pyarrow as pa
    from ray.data import Dataset

__all__ = [
    "DEFAULT_WORKERS",
    "RayBatchJudge",
    "autoeval_ray",
    "batch_rows",
    "batches_in_flight",
    "cut_in_batches",
    "evaluate_ray",
    "rows_per_block",
    "spare_cpus",
]

# Rows per batch by judge. A batch is the unit an actor takes, so the job ends at most a
# batch or two of work after the first actor runs out: a batch should be about a second of
# an actor's work, long beside Ray's own cost per batch (tens of milliseconds: Arrow to
# pandas and back, the hand-over) and short beside the job. The offline judges are
# CPU-bound per row: `local-lexical` about 15 ms a row, `local` (embeddings) seconds. An
# LLM judge's batch is one window of concurrent requests that drains at its end, so it
# stays long.
_OFFLINE_BATCH_ROWS = {"local-lexical": 64, "local": 4}
_LLM_BATCH_ROWS = 256


def batch_rows(model: str | list[str]) -> int:
    """The default rows per batch for the judge `model`.

    A panel with an LLM member takes the LLM's (its window); a panel of offline judges
    the costliest member's.
    """
    names = [model] if isinstance(model, str) else list(model)
    if not names or any(n not in _OFFLINE_BATCH_ROWS for n in names):
        return _LLM_BATCH_ROWS
    return min(_OFFLINE_BATCH_ROWS[n] for n in names)


def batches_in_flight(batch_size: int) -> int:
    """Batches an actor holds at once: two when a batch is short, else one.

    With a second batch waiting at the actor, it never idles while the driver (busy
    serving the other actors) hands over the next one: with one, two `local-lexical`
    actors waited 9% of their time for it, with two 2%. But an actor ready first takes
    that many batches before its slower-starting siblings get any, which long batches (an
    LLM's window) would leave them without.
    """
    return 2 if batch_size < _LLM_BATCH_ROWS else 1


# Actors when `workers` is not given.
DEFAULT_WORKERS = 2

# At most this many blocks (one task each) per actor. Ray's cost per block was 22-32 ms of
# a job's wall time (2 actors, 2 busy cores) plus 3-7 ms to cut it: a trivial map over 1M
# tiny rows in 15,625 blocks of 64 took 6-7 minutes, in 2,000 blocks 77 s
# (`benchmarks/ray_planning.py`, docs/distributed.md). Past 1,000 blocks an actor
# (128,000 rows at 64 a batch on 2 actors) the batches grow instead: such a job is long
# beside its last batch, the only time the larger batches can leave an actor idle.
BLOCKS_PER_ACTOR = 1000


def rows_per_block(rows: int, batch_size: int, actors: int) -> int:
    """Rows of each block for a job of `rows` rows.

    ceil(rows / batch_size) blocks of equal size, but at most `BLOCKS_PER_ACTOR` x
    `actors` blocks (then larger ones).
    """
    blocks = min(math.ceil(rows / batch_size), BLOCKS_PER_ACTOR * max(1, actors))
    return max(1, math.ceil(rows / max(1, blocks)))


def cut_in_batches(data: Dataset, batch_size: int, actors: int, actor_cpus: float) -> Dataset:
    """`data` in blocks of at most `batch_size` rows, each block one batch of one actor.

    An actor is given whole blocks and cuts each into batches itself, so a Dataset of a
    few big blocks (one Parquet file is one) would leave most of the rows to one actor.
    Cut first, every block is one task: the actors share the job batch by batch,
    whatever the input's blocks were. The cut is Ray's streaming repartition
    (`target_num_rows_per_block`, strict where Ray has it: small blocks are joined up to
    the size too), which keeps neighbouring rows together and in order and holds only
    the blocks in flight. A materialized Dataset's row count is known without running
    anything, so its blocks are of equal size and bounded in number (`rows_per_block`); a
    lazy one's is not (counting a JSON or CSV input reads it), so it is cut at
    `batch_size` (the command line counts a Parquet file from its footer and passes a
    bounded `batch_size`).

    The cut is a stage of Ray tasks of one CPU each, like the input's own stages (a
    lazy read). When the actors (`actor_cpus` in all) leave the cluster a CPU, those run
    beside the judging and nothing is held but the blocks in flight. When they leave
    none, a stage started with the job would wait for a CPU forever: the cut is then
    made (and the input read) before the actors start, and the cut blocks are the one
    copy of the input in the object store (a materialized input the caller keeps is a
    second).

    Args:
        data: the rows to judge, lazy or materialized.
        batch_size: rows per batch at most (below the block bound).
        actors: the job's actors.
        actor_cpus: the CPUs they take (actors x CPUs per actor).

    Returns:
        The Dataset to give to `map_batches` with `batch_size=None` (a block is a batch).
    """
    from ray.data.dataset import MaterializedDataset

    rows = batch_size
    if isinstance(data, MaterializedDataset):
        rows = rows_per_block(data.count(), batch_size, actors)
    options = inspect.signature(data.repartition).parameters
    if "target_num_rows_per_block" not in options:  # Ray before 2.43
        raise ConfigError(
            "sumjudge.ray needs a Ray whose Dataset.repartition takes "
            "target_num_rows_per_block (2.43 or later): pip install -U 'ray[data]'"
        )
    strict: dict[str, Any] = {"strict": True} if "strict" in options else {}
    cut = data.repartition(target_num_rows_per_block=rows, **strict)
    return cut if spare_cpus(actor_cpus) >= 1 else cut.materialize()


def spare_cpus(actor_cpus: float) -> float:
    """The cluster's CPUs the job's actors leave to other tasks (starting Ray if needed)."""
    import ray

    if not ray.is_initialized():
        ray.init()  # what Ray Data would start for the job anyway
    cpus = ray.cluster_resources().get("CPU", 0.0)  # type: ignore[no-untyped-call]
    return float(cpus) - actor_cpus


# The added columns' Arrow types (`distributed/columns.py` names them; Spark's are in
# `sumjudge.spark`).
_ARROW_TYPES = {"int": "int64", "double": "float64", "string": "string"}


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
        # Built now, not at the first batch: Ray gives batches to actors whose constructor
        # has returned, so a batch never waits behind an evaluator's build.
        _ = self.judge.evaluator

    def __call__(self, batch: pa.Table) -> pa.Table:
        """The batch with the result columns added, each of its fixed Arrow type.

        The input's columns go back as they came, in Arrow; the added ones get the types
        of `distributed/columns.py`, not what Arrow would infer from pandas: in a batch
        whose `error` values are all missing that column would be of type null, and the
        part files of one output would disagree on its type (pyarrow refuses to read such
        a directory as one table).
        """
        import pyarrow as pa

        out = self.judge.judge(batch.to_pandas())
        for name, kind in self.judge.spec.columns:
            column = pa.Array.from_pandas(out[name], type=pa.type_for_alias(_ARROW_TYPES[kind]))
            batch = batch.append_column(name, column)
        return batch

    def __del__(self) -> None:
        judge = getattr(self, "judge", None)
        if judge is not None:
            judge.close()


class RayLimits:
    """The way from an actor to the job's limiter actor (a `LimitsClient`; it pickles).

    Args:
        actor: the handle of the named `LimiterHost` actor.
    """

    def __init__(self, actor: Any) -> None:
        self.actor = actor

    async def acquire(self, key: str, tokens: int) -> int:
        """Wait for the host's go-ahead; the ticket's number."""
        return int(await self.actor.acquire.remote(key, tokens))

    def settle(self, key: str, ticket: int | None, extra_tokens: int) -> None:
        """Send a token correction (not waited for)."""
        self.actor.settle.remote(key, ticket, extra_tokens)

    def pause(self, key: str, seconds: float) -> None:
        """Send a pause for every worker (not waited for)."""
        self.actor.pause.remote(key, seconds)


def limiter_actor(rpm: float | None, tpm: float | None) -> RayLimits:
    """Start the job's named limiter actor (no CPU of its own) and return the way to it.

    It lives as long as the returned object is referenced: the job's Dataset holds it.
    """
    import ray

    host = ray.remote(num_cpus=0)(LimiterHost)
    name = f"sumjudge-limiter-{uuid.uuid4().hex[:12]}"
    return RayLimits(host.options(name=name).remote(rpm, tpm))


class _Ray(EngineFace["Dataset"]):
    """The two functions on Ray: `map_batches` with `RayBatchJudge` actors."""

    def ready(self) -> None:
        try:
            import ray.data  # noqa: F401
        except ImportError as exc:
            raise MissingDependencyError("ray[data]", "ray") from exc

    def run(self, data: Dataset, job: JobRequest) -> Dataset:
        workers = job.workers or DEFAULT_WORKERS
        batch_size: int = job.take("batch_size") or batch_rows(job.model)
        num_cpus = float(job.take("num_cpus") or 1)
        limits = None
        if job.budget.rpm is not None or job.budget.tpm is not None:
            # One limiter for the job (a named actor), not one per actor and batch: the
            # actors' runs have no rpm / tpm of their own and wait on it instead.
            limits = limiter_actor(job.budget.rpm, job.budget.tpm)
            job = dataclasses.replace(
                job, budget=dataclasses.replace(job.budget, rpm=None, tpm=None)
            )
        # Actors keep their evaluator (and its spend) across batches: each holds a share.
        spec = job.spec(data.columns(), workers=workers, holders=workers)
        if limits is not None:
            spec = dataclasses.replace(spec, limits=limits)
        from ray.data import ActorPoolStrategy

        pool = ActorPoolStrategy(
            size=workers, max_tasks_in_flight_per_actor=batches_in_flight(batch_size)
        )
        data = cut_in_batches(data, batch_size, workers, actor_cpus=workers * num_cpus)
        return data.map_batches(
            RayBatchJudge,
            fn_constructor_kwargs={"spec": spec},
            compute=pool,
            batch_size=None,  # a block is a batch (`cut_in_batches`)
            batch_format="pyarrow",
            num_cpus=num_cpus,
        )


_RAY = _Ray()
evaluate_ray = _RAY.evaluate
autoeval_ray = _RAY.autoeval
