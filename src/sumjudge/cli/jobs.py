"""`sumjudge jobs`: the batch jobs of `--batch-api` runs; `sumjudge jobs cancel ID`.

The list reads the job manifests only (no provider call, no key needed): id, judge,
state, rounds, requests answered of submitted per batch, age, and the command that
collects the job. `cancel` asks the provider to stop every batch of the job that may
still run (through the same SDK client as the judge, so it needs the provider's key or
the job's `--base-url` server) and marks the job cancelled: a run waiting on it stops
submitting, and what the cancelled batches answered is still collected by a rerun.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path
from typing import Any

from ..batch.manifest import Job, JobStore
from ..cache import default_cache_dir
from ..errors import ConfigError
from ._common import EXIT_OK, eprint

__all__ = ["add_parser"]

_HELP = "list the batch jobs of --batch-api runs, or cancel one"


def add_parser(sub: Any) -> None:
    """Add `jobs` (list) and `jobs cancel ID` to the subparsers `sub`."""
    p = sub.add_parser("jobs", help=_HELP, description=_HELP)
    p.add_argument(
        "action", nargs="?", choices=["list", "cancel"], default="list", help="what to do"
    )
    p.add_argument("job_id", nargs="?", help="the job to cancel (job-...)")
    p.add_argument(
        "--cache-dir",
        help="the cache directory the runs used (default: $SUMJUDGE_CACHE_DIR or the user "
        "cache dir); its jobs/ holds the manifests",
    )
    p.add_argument("--all", action="store_true", help="also list finished jobs")
    p.set_defaults(handler=run)


def _store(args: argparse.Namespace) -> JobStore:
    base = Path(args.cache_dir) if args.cache_dir else default_cache_dir()
    return JobStore(base / "jobs")


def run(args: argparse.Namespace) -> int:
    """List the jobs, or cancel one; the exit code."""
    store = _store(args)
    if args.action == "cancel":
        if not args.job_id:
            raise ConfigError("jobs cancel needs the job's id: sumjudge jobs cancel job-...")
        return asyncio.run(_cancel(store, args.job_id))
    if args.job_id:
        raise ConfigError(f"unexpected {args.job_id!r}: did you mean `jobs cancel {args.job_id}`?")
    shown = [j for j in store.jobs() if args.all or j.state == "running"]
    if not shown:
        what = "jobs" if args.all else "running jobs (--all lists finished ones too)"
        eprint(f"sumjudge: no {what} in {store.path}")
        return EXIT_OK
    for job in shown:
        for line in describe(job):
            print(line)
    return EXIT_OK


def describe(job: Job, now: float | None = None) -> list[str]:
    """A job's lines: a header, one line per batch, and the command that collects it."""
    now = time.time() if now is None else now
    done, total = job.progress()
    lines = [
        f"{job.id}  {job.state}  {job.judge}  round {job.rounds}, {len(job.batches)} "
        f"batch(es), {done}/{total} request(s) answered; updated {_ago(now - job.updated)} ago"
    ]
    for entry in job.batches:
        waited = (entry.ended or now) - entry.submitted
        lines.append(
            f"  {entry.batch_id or '(not created)'}  round {entry.round}  {entry.state}  "
            f"{min(entry.done, len(entry.requests))}/{len(entry.requests)} done, "
            f"{entry.failed} failed, {_ago(waited)} waited"
        )
    if job.command and job.state == "running":
        lines.append(f"  collect with: {job.command}")
    return lines


def _ago(seconds: float) -> str:
    seconds = max(0.0, seconds)
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


async def _cancel(store: JobStore, job_id: str) -> int:
    job = store.load(job_id)
    if job is None:
        raise ConfigError(f"no job {job_id} in {store.path} (see `sumjudge jobs --all`)")
    from ..batch.backends import backend_for
    from ..judges import get_judge

    name, _, base_url = job.judge.partition("@")
    judge = get_judge(name, base_url=base_url or None)
    try:
        backend = backend_for(judge)
        for entry in job.batches:
            if entry.batch_id is None or not entry.live or entry.state == "collected":
                continue
            status = await backend.cancel(entry.batch_id)
            entry.state = status.state
            eprint(f"sumjudge: batch {entry.batch_id}: {status.state}")
    finally:
        await judge.aclose()
    job.state = "cancelled"
    store.save(job)
    eprint(f"sumjudge: job {job.id} cancelled; rerunning its command sends the rest again")
    return EXIT_OK
