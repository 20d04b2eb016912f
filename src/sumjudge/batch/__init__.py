"""Judging through the providers' batch endpoints: rounds, jobs, backends.

`BatchOptions` configures a batch run (`batch_api=` of every evaluator, `--batch-api` on
the command line); `run.BatchRun` is one run (`records(items)`, then its `report`);
`rounds.BatchRounds` drives the rounds; `manifest` keeps the jobs; one backend module per
provider (`openai`, `anthropic`, `gemini`) follows the `provider.BatchBackend` protocol.
`import sumjudge` does not load this package: an evaluator imports it when it is built
with `batch_api=`.
"""

from __future__ import annotations

from .options import BatchOptions, BatchReport

__all__ = ["BatchOptions", "BatchReport"]
