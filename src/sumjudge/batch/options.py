"""How a batch run behaves (`BatchOptions`) and what it did (`BatchReport`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..jsonfields import NOT_IN_JSON, json_key, report_dict

__all__ = ["BatchOptions", "BatchReport"]


@dataclass
class BatchOptions:
    """How a batch run behaves.

    Attributes:
        wait: wait for the batches; False submits the round and returns (`--no-wait`).
        poll_interval: longest wait between two status checks, in seconds (the first
            checks come sooner: 1 s, doubling up to this).
        jobs_dir: where job manifests live (default: the cache directory's `jobs`).
        max_rounds: rounds at most (a repair chain is short; this stops a loop).
        progress: receives one line per status check (the CLI prints it on stderr).
        command: the command line that collects the job (shown by `sumjudge jobs`).
    """

    wait: bool = True
    poll_interval: float = 30.0
    jobs_dir: str | Path | None = None
    max_rounds: int = 8
    progress: Callable[[str], None] | None = None
    command: str = ""


@dataclass
class BatchReport:
    """What the rounds did: for the run summary and `--no-wait`.

    `to_dict` writes the fields in this order under their JSON keys (`json_key`), all but
    `per_batch`.
    """

    job_id: str | None = field(default=None, metadata=json_key("job"))
    rounds: int = 0
    batches: int = 0
    submitted: int = field(default=0, metadata=json_key("requests_submitted"))
    collected: int = field(default=0, metadata=json_key("replies_collected"))
    waiting: bool = False
    waited_s: float = field(default=0.0, metadata=json_key(digits=3))
    passes_s: float = field(default=0.0, metadata=json_key(digits=3))
    cost_usd: float = field(default=0.0, metadata=json_key(digits=6))
    stopped: str | None = None
    per_batch: list[dict[str, Any]] = field(default_factory=list, metadata=NOT_IN_JSON)

    def to_dict(self) -> dict[str, Any]:
        """The summary JSON's `batch` entry."""
        return report_dict(self)

    def lines(self) -> list[str]:
        """Human-readable lines for stderr."""
        if self.job_id is None:
            return ["batch: every request was answered from the response cache"]
        return [
            f"batch job {self.job_id}: {self.rounds} round(s), {self.batches} batch(es) "
            f"submitted now, {self.submitted} request(s) submitted now, {self.collected} "
            f"repl(ies) collected; waited {self.waited_s:.1f} s for the provider"
        ]
