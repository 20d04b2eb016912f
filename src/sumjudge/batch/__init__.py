"""Judging through the providers' batch endpoints: rounds, jobs, backends.

`BatchOptions` configures a batch run (`batch_api=` of every evaluator, `--batch-api` on
the command line); `evaluate.setup_batch` is the evaluator's hook; `rounds.BatchRounds`
drives the rounds; `manifest` keeps the jobs; one backend module per provider (`openai`,
`anthropic`, `gemini`) follows the `provider.BatchBackend` protocol.
"""

from __future__ import annotations

from .options import BatchOptions, BatchReport

__all__ = ["BatchOptions", "BatchReport"]
