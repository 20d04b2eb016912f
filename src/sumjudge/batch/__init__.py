"""Judging through the providers' batch endpoints: rounds, jobs, backends.

`BatchOptions` configures a batch run (`batch_api=` of every evaluator, `--batch-api` on
the command line); `rounds.BatchRounds` drives it; `manifest` keeps its jobs; one backend
module per provider (`openai`, and the `provider.BatchBackend` protocol they follow).
"""

from __future__ import annotations

from .options import BatchOptions, BatchReport

__all__ = ["BatchOptions", "BatchReport"]
