"""Benchmark 1: throughput against the ideal, and our CPU time per judge call.

10,000 judge calls at concurrency 64 against the fake server (200 ms latency, in its own
process). Ideal throughput = concurrency / latency = 320 calls/s. Shapes:

- engine: the same calls to an in-process judge that sleeps the latency (no SDK, no HTTP):
          what JudgeCaller + response cache + run_items cost by themselves;
- bare:   a bare aiohttp client posting the same bodies (what the server + machine allow);

- calls:  10,000 single requests through JudgeCaller + run_items (64 in flight);
- items:  2,500 items x 4 metrics through SummarizationEvaluator.evaluate_batch at 16 items
          (= 64 calls) in flight, with parsing, rules, the response cache and JSON output.

Reproduce:  python benchmarks/throughput.py [--calls 10000] [--concurrency 64] [--latency 0.2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _server import fake_server, stats

from sumjudge import SummarizationEvaluator, SummaryData
from sumjudge.cache import ResponseCache
from sumjudge.judges import JudgeRequest, JudgeResponse, Usage, get_judge
from sumjudge.metrics import SUMMARY_METRICS
from sumjudge.protocol import LLM_CAPABILITIES
from sumjudge.runner import JudgeCaller, RetryPolicy, RunSummary, run_items

TEXT = "Rina opened the call. The team agreed to ship on Friday after QA. Budi owns the notes. "


def item(i: int) -> SummaryData:
    return SummaryData(input=f"Meeting {i}. " + TEXT * 3, summary=f"Ship Friday ({i}).", id=str(i))


async def bench_calls(url: str, calls: int, concurrency: int, cache_dir: Path) -> dict[str, float]:
    judge = get_judge("openai/fake-model", base_url=url, timeout=60)
    caller = JudgeCaller(judge, RetryPolicy(timeout=60), cache=ResponseCache(cache_dir))
    metric = SUMMARY_METRICS["coherence"]

    async def work(i: int, _: None) -> int:
        await caller.call(metric.build_request(f"Meeting {i}. " + TEXT * 3, "Ship Friday."))
        return i

    cpu0, t0 = time.process_time(), time.perf_counter()
    n = 0
    async for _ in run_items((None for _ in range(calls)), work, concurrency=concurrency):
        n += 1
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    await judge.aclose()
    return {"calls": caller.stats.attempts, "wall_s": wall, "cpu_s": cpu}


async def bench_items(url: str, calls: int, concurrency: int, cache_dir: Path) -> dict[str, float]:
    n_items = calls // 4
    ev = SummarizationEvaluator(
        "openai/fake-model",
        base_url=url,
        retry_policy=RetryPolicy(timeout=60),
        timeout=60,
        cache=cache_dir,
    )
    summary = RunSummary()
    out = open(cache_dir / "out.jsonl", "w", encoding="utf-8")  # noqa: SIM115, ASYNC230
    cpu0, t0 = time.process_time(), time.perf_counter()
    async for record in ev.evaluate_batch(
        (item(i) for i in range(n_items)), concurrency=concurrency // 4, summary=summary
    ):
        out.write(json.dumps(record.to_dict()) + "\n")
        out.flush()
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    out.close()
    await ev.aclose()
    return {"calls": summary.judge_calls, "wall_s": wall, "cpu_s": cpu, "ok": summary.ok}


class SleepJudge:
    """In-process judge that answers after `latency` s: the engine alone, no SDK or HTTP."""

    name = "bench/sleep"
    identity = "bench/sleep"
    capabilities = LLM_CAPABILITIES

    def __init__(self, latency: float) -> None:
        self.latency = latency

    async def complete(self, request: JudgeRequest) -> JudgeResponse:
        await asyncio.sleep(self.latency)
        return JudgeResponse(
            text='{"explanation": "Fine.", "score": 3}',
            usage=Usage(prompt_tokens=300, completion_tokens=20),
        )

    async def aclose(self) -> None:
        return None


async def bench_engine(
    latency: float, calls: int, concurrency: int, cache_dir: Path
) -> dict[str, float]:
    caller = JudgeCaller(
        SleepJudge(latency), RetryPolicy(timeout=60), cache=ResponseCache(cache_dir)
    )
    metric = SUMMARY_METRICS["coherence"]

    async def work(i: int, _: None) -> int:
        await caller.call(metric.build_request(f"Meeting {i}. " + TEXT * 3, "Ship Friday."))
        return i

    cpu0, t0 = time.process_time(), time.perf_counter()
    async for _ in run_items((None for _ in range(calls)), work, concurrency=concurrency):
        pass
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    return {"calls": caller.stats.attempts, "wall_s": wall, "cpu_s": cpu}


async def bench_bare(url: str, calls: int, concurrency: int, cache_dir: Path) -> dict[str, float]:
    """Baseline: a bare aiohttp client posting the same bodies (no SDK, no engine)."""
    import aiohttp

    metric = SUMMARY_METRICS["coherence"]
    sem = asyncio.Semaphore(concurrency)

    async def one(session: aiohttp.ClientSession, i: int) -> None:
        r = metric.build_request(f"Meeting {i}. " + TEXT * 3, "Ship Friday.")
        body = {
            "model": "fake-model",
            "messages": [{"role": m.role, "content": m.content} for m in r.messages],
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": r.schema_name, "schema": r.schema, "strict": True},
            },
        }
        async with sem, session.post(url + "/chat/completions", json=body) as resp:
            await resp.read()

    cpu0, t0 = time.process_time(), time.perf_counter()
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        await asyncio.gather(*(one(session, i) for i in range(calls)))
    return {"calls": calls, "wall_s": time.perf_counter() - t0, "cpu_s": time.process_time() - cpu0}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--calls", type=int, default=10_000)
    p.add_argument("--concurrency", type=int, default=64)
    p.add_argument("--latency", type=float, default=0.2)
    args = p.parse_args()
    ideal = args.concurrency / args.latency
    print(
        f"command: python benchmarks/throughput.py --calls {args.calls} "
        f"--concurrency {args.concurrency} --latency {args.latency}"
    )
    print(
        f"ideal = concurrency / latency = {args.concurrency} / {args.latency} s "
        f"= {ideal:.1f} calls/s"
    )
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at start")
    with tempfile.TemporaryDirectory() as d:
        r = asyncio.run(bench_engine(args.latency, args.calls, args.concurrency, Path(d)))
    rate = r["calls"] / r["wall_s"]
    print(
        f"[engine only: JudgeCaller + cache + run_items, in-process judge sleeping "
        f"{args.latency} s] {int(r['calls'])} calls in {r['wall_s']:.2f} s -> {rate:.1f} calls/s "
        f"= {rate / ideal:.3f} of ideal; our CPU {1000 * r['cpu_s'] / r['calls']:.3f} ms per call"
    )
    shapes = (("bare aiohttp baseline", bench_bare), ("calls", bench_calls), ("items", bench_items))
    for shape, fn in shapes:
        with fake_server("--latency", str(args.latency)) as url, tempfile.TemporaryDirectory() as d:
            r = asyncio.run(fn(url, args.calls, args.concurrency, Path(d)))
            served = stats(url)["requests"]
        load = os.getloadavg()[0]
        rate = r["calls"] / r["wall_s"]
        print(
            f"[{shape}] {int(r['calls'])} judge calls (server saw {served}) in {r['wall_s']:.2f} s "
            f"-> {rate:.1f} calls/s = {rate / ideal:.3f} of ideal; our CPU "
            f"{r['cpu_s']:.2f} s = {1000 * r['cpu_s'] / r['calls']:.3f} ms per call "
            f"(load {load:.1f})"
        )


if __name__ == "__main__":
    main()
