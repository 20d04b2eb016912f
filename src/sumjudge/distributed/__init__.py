"""Distributed jobs: the parts Spark (`sumjudge.spark`) and Ray (`sumjudge.ray`) share.

`budget.py` splits the global limits over the workers, `columns.py` fixes the output
schema, `task.py` is what runs on a worker (the package's own evaluator over one batch),
`worker_cache.py` the per-worker response cache and `job.py` the driver's checks and the
job summary. Nothing here imports an engine; see docs/distributed.md.
"""

from .budget import Budget, WorkerShare
from .columns import output_columns
from .job import JobSummary
from .task import BatchJudge, JobSpec
from .worker_cache import WorkerCache

__all__ = [
    "BatchJudge",
    "Budget",
    "JobSpec",
    "JobSummary",
    "WorkerCache",
    "WorkerShare",
    "output_columns",
]
