"""Benchmark: N items through the fake server's batch endpoints (`--batch-api`).

The fake server runs in its own process (its CPU is not ours) and holds every batch job
for `--delay` seconds before answering it, as a provider's queue would. Printed: batches,
rounds, requests, wall time, our CPU time, the time spent waiting on the server (status
polls while jobs are held or running) and its share of the wall time, the time in the
evaluator passes before the last one, and the last pass (records out).

Reproduce:  python benchmarks/batch_rounds.py [--items 20000] [--delay 5]
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _server import fake_server

from sumjudge import RetryPolicy, SummarizationEvaluator, SummaryData
from sumjudge.batch import BatchOptions
from sumjudge.runner import RunSummary

TEXT = "Rina opened the call. The team agreed to ship on Friday after QA. Budi owns the notes. "


def item(i: int) -> SummaryData:
    return SummaryData(input=f"Meeting {i}. " + TEXT * 3, summary=f"Ship Friday ({i}).", id=str(i))


async def run(url: str, n: int, tmp: Path) -> dict[str, float]:
    ev = SummarizationEvaluator(
        "openai/fake-model",
        base_url=url,
        retry_policy=RetryPolicy(timeout=120),
        cache=tmp / "cache",
        batch_api=BatchOptions(poll_interval=1.0, jobs_dir=tmp / "jobs"),
    )
    summary = RunSummary()
    cpu0, t0 = time.process_time(), time.perf_counter()
    count = 0
    first = 0.0
    async for _ in ev.evaluate_batch((item(i) for i in range(n)), summary=summary):
        count += 1
        first = first or time.perf_counter()
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    await ev.aclose()
    report = ev.last_batch
    assert report is not None and count == n
    return {
        "items": n,
        "ok": summary.ok,
        "rounds": report.rounds,
        "batches": report.batches,
        "requests": report.submitted,
        "wall_s": wall,
        "cpu_s": cpu,
        "waited_s": report.waited_s,
        "passes_s": report.passes_s,
        "last_pass_s": time.perf_counter() - first,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--items", type=int, default=20_000)
    p.add_argument("--delay", type=float, default=5.0, help="seconds each batch job is held")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp, fake_server("--batch-delay", str(args.delay)) as url:
        r = asyncio.run(run(url, args.items, Path(tmp)))
    print(
        f"{r['items']} items ({r['ok']} ok): {r['rounds']} round(s), {r['batches']} batch(es), "
        f"{r['requests']} requests"
    )
    print(
        f"wall {r['wall_s']:.1f} s, our CPU {r['cpu_s']:.1f} s; waiting on the server "
        f"{r['waited_s']:.1f} s = {r['waited_s'] / r['wall_s']:.2f} of wall time; evaluator "
        f"passes {r['passes_s']:.1f} s + last pass {r['last_pass_s']:.1f} s "
        f"({1000 * r['cpu_s'] / r['requests']:.2f} ms CPU per request)"
    )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"client peak RSS {peak:.0f} MB (collected replies spilled to disk until the last pass)")


if __name__ == "__main__":
    main()
