"""Job manifests: what a batch run submitted, so that a later process picks it up.

A job is one batch run of one judge over one set of first-round requests. Its manifest
(`<jobs dir>/<job id>.json`, written whole with a rename) lists each provider batch with
the request fingerprints it holds, its state, its progress and timestamps. It never holds
a key, a prompt or a reply: the requests are rebuilt from the input by the next pass and
the replies stay with the provider until they are collected into the response cache.

A batch entry is written *before* the provider is asked to create it (state
"submitting", with the tag the batch is created with), so a process killed between the
two finds the batch by its tag on the next run instead of submitting it again.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..cache import default_cache_dir, safe_identity
from ..errors import ConfigError

__all__ = ["BatchEntry", "Job", "JobStore", "default_jobs_dir", "job_id_for"]

DEAD = ("expired", "cancelled", "failed", "lost")
"""Provider states after which a batch's unanswered requests must be sent again."""


def default_jobs_dir() -> Path:
    """`$SUMJUDGE_CACHE_DIR/jobs` (or the user cache dir's `jobs`)."""
    return default_cache_dir() / "jobs"


def job_id_for(identity: str, fingerprints: Iterable[str]) -> str:
    """The job's id: the judge and its first round's requests (so a rerun finds it)."""
    digest = hashlib.sha256(safe_identity(identity).encode("utf-8"))
    for fp in sorted(fingerprints):
        digest.update(fp.encode("ascii"))
    return "job-" + digest.hexdigest()[:16]


@dataclass
class BatchEntry:
    """One provider batch of a job.

    Attributes:
        key: our own label of the batch (job id + round + part), sent as its tag.
        round: the round it belongs to (1: the first requests, 2: what they led to, ...).
        requests: the custom ids (request fingerprints) it holds.
        batch_id: the provider's id; None while "submitting".
        state: "submitting", then the provider's state; "collected" once read.
        done, failed: progress as the provider last reported it.
        submitted, ended: timestamps (UNIX seconds).
    """

    key: str
    round: int
    requests: list[str]
    batch_id: str | None = None
    state: str = "submitting"
    done: int = 0
    failed: int = 0
    submitted: float = field(default_factory=time.time)
    ended: float | None = None

    @property
    def live(self) -> bool:
        """Whether the batch may still give replies (not dead; collected or not)."""
        return self.state not in DEAD


@dataclass
class Job:
    """One batch run: its judge, its batches and what it cost so far."""

    id: str
    provider: str
    judge: str
    created: float = field(default_factory=time.time)
    updated: float = field(default_factory=time.time)
    state: str = "running"  # "running", "done", "cancelled"
    rounds: int = 0
    cost_usd: float = 0.0
    command: str = ""
    batches: list[BatchEntry] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The manifest's JSON."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Job:
        """From `to_dict`'s form."""
        batches = [BatchEntry(**b) for b in data.get("batches", [])]
        fields = {k: v for k, v in data.items() if k != "batches"}
        return cls(**fields, batches=batches)

    def progress(self) -> tuple[int, int]:
        """(requests answered, requests submitted) over the job's batches."""
        done = sum(min(b.done, len(b.requests)) for b in self.batches)
        return done, sum(len(b.requests) for b in self.batches)


class JobStore:
    """The manifests in one directory (default: `default_jobs_dir()`)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_jobs_dir()

    def _file(self, job_id: str) -> Path:
        if not job_id.startswith("job-") or not job_id[4:].isalnum():
            raise ConfigError(f"{job_id!r} is not a job id (they look like job-1a2b3c...)")
        return self.path / f"{job_id}.json"

    def load(self, job_id: str) -> Job | None:
        """The job's manifest, or None when there is none."""
        file = self._file(job_id)
        try:
            data = json.loads(file.read_text("utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError, TypeError) as exc:
            raise ConfigError(f"job manifest {file} is unreadable: {exc}") from None
        try:
            return Job.from_dict(data)
        except TypeError as exc:
            raise ConfigError(f"job manifest {file} is not one sumjudge wrote: {exc}") from None

    def save(self, job: Job) -> None:
        """Write the manifest whole (a reader never sees half of it)."""
        job.updated = time.time()
        self.path.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path, prefix=".job-", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(job.to_dict(), fh, indent=1)
        os.replace(tmp, self._file(job.id))

    def jobs(self) -> Iterator[Job]:
        """Every readable manifest, newest first."""
        if not self.path.is_dir():
            return
        found: list[Job] = []
        for file in self.path.glob("job-*.json"):
            try:
                found.append(Job.from_dict(json.loads(file.read_text("utf-8"))))
            except (OSError, ValueError, TypeError):
                continue  # not ours, or half-written by hand: listed by nobody
        yield from sorted(found, key=lambda j: j.updated, reverse=True)
