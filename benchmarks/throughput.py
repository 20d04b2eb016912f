"""Benchmark 1: throughput against the ideal, and our CPU time per judge call.

10,000 judge calls at concurrency 64 against the fake server (200 ms latency, in its own
process). Ideal throughput = concurrency / latency = 320 calls/s. Shapes:

- engine: the same calls to an in-process judge that sleeps the latency (no SDK, no HTTP):
          what JudgeCaller + response cache + run_items cost by themselves;
- bare:   a bare aiohttp client posting the bodies our adapter posts (what the server and
          the machine allow; the yardstick of client CPU per call); "bare items" posts
          the items shape's requests (4 metrics, logprobs) the same way;
- calls sdk / calls direct: 10,000 single requests through JudgeCaller + run_items (64 in
          flight) on each of the OpenAI adapter's paths (`http_client`, docs/http.md);
- items:  2,500 items x 4 metrics through SummarizationEvaluator.evaluate_batch at 16 items
          (= 64 calls) in flight, with parsing, rules, the response cache and JSON output,
          on the default path for a custom server (direct); `--items-sdk` adds the SDK path.
          "items gated": the same, but the 64 calls in flight counted as calls
          (`calls_in_flight=64`, 32 items started), so an item waiting on its slowest call
          leaves its other slots to the next item.

Each round runs every shape; `--rounds N` repeats them and prints the medians, since one
round on a shared 2-core machine is noisy. `--jitter S` spreads each reply's latency
uniformly over latency +/- S (the server's `--jitter`; the mean is unchanged): with a fixed
latency the replies of one wave of 64 come back together, and the server and the client
each spend their CPU in bursts, one waiting on the other, which caps every client (bare
aiohttp too) below the ideal. The default, 0, keeps the figures comparable with older runs.
The summary prints, side by side, the client CPU per call of sdk, direct and bare (target:
direct <= 2x bare) and each shape's throughput as a fraction of the ideal (target: items
>= 0.9), with the load average, and whether orjson decodes (the optional `fast` extra).

Reproduce:  python benchmarks/throughput.py [--calls 10000] [--concurrency 64] [--latency 0.2]
            [--jitter 0.05] [--rounds 3] [--items-sdk] [--shapes 'bare items,items direct']
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _server import fake_server, stats

from sumjudge import SummarizationEvaluator, SummaryData, fastjson
from sumjudge.cache import ResponseCache
from sumjudge.cli._sink import RecordSink
from sumjudge.judges import JudgeRequest, JudgeResponse, Usage, get_judge
from sumjudge.metrics import SUMMARY_METRICS
from sumjudge.protocol import LLM_CAPABILITIES
from sumjudge.runner import JudgeCaller, RetryPolicy, RunSummary, run_items

TEXT = "Rina opened the call. The team agreed to ship on Friday after QA. Budi owns the notes. "


def item(i: int) -> SummaryData:
    return SummaryData(input=f"Meeting {i}. " + TEXT * 3, summary=f"Ship Friday ({i}).", id=str(i))


async def bench_calls(
    url: str, calls: int, concurrency: int, cache_dir: Path, *, http_client: str = "direct"
) -> dict[str, float]:
    judge = get_judge("openai/fake-model", base_url=url, timeout=60, http_client=http_client)
    assert getattr(judge, "http_client", None) == http_client
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


async def bench_items(
    url: str,
    calls: int,
    concurrency: int,
    cache_dir: Path,
    *,
    http_client: str = "direct",
    gated: bool = False,
) -> dict[str, float]:
    """Full items, 4 calls each. `concurrency` calls in flight: as concurrency // 4 items,
    or (`gated`) as `calls_in_flight=concurrency` with twice as many items started."""
    n_items = calls // 4
    items_at_once = concurrency // 2 if gated else concurrency // 4
    ev = SummarizationEvaluator(
        get_judge("openai/fake-model", base_url=url, timeout=60, http_client=http_client),
        base_url=url,
        retry_policy=RetryPolicy(timeout=60),
        timeout=60,
        cache=cache_dir,
    )
    summary = RunSummary()
    with RecordSink(cache_dir / "out.jsonl") as sink:  # the CLI's writer: one flushed line each
        cpu0, t0 = time.process_time(), time.perf_counter()
        async for record in ev.evaluate_batch(
            (item(i) for i in range(n_items)),
            concurrency=items_at_once,
            calls_in_flight=concurrency if gated else None,
            summary=summary,
        ):
            sink.write(record.to_dict())
        wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    await ev.aclose()
    return {"calls": summary.judge_calls, "wall_s": wall, "cpu_s": cpu, "ok": summary.ok}


class SleepJudge:
    """In-process judge that answers after `latency` s: the engine alone, no SDK or HTTP."""

    name = "bench/sleep"
    identity = "bench/sleep"
    capabilities = LLM_CAPABILITIES

    def __init__(self, latency: float, jitter: float = 0.0) -> None:
        self.latency = latency
        self.jitter = jitter
        self._rng = random.Random(0)

    async def complete(self, request: JudgeRequest) -> JudgeResponse:
        jitter = self._rng.uniform(-self.jitter, self.jitter) if self.jitter else 0.0
        await asyncio.sleep(self.latency + jitter)
        return JudgeResponse(
            text='{"explanation": "Fine.", "score": 3}',
            usage=Usage(prompt_tokens=300, completion_tokens=20),
        )

    async def aclose(self) -> None:
        return None


async def bench_engine(
    latency: float, calls: int, concurrency: int, cache_dir: Path, jitter: float = 0.0
) -> dict[str, float]:
    caller = JudgeCaller(
        SleepJudge(latency, jitter), RetryPolicy(timeout=60), cache=ResponseCache(cache_dir)
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


async def bench_bare(
    url: str, calls: int, concurrency: int, cache_dir: Path, *, items: bool = False
) -> dict[str, float]:
    """Baseline: a bare aiohttp client posting the same bodies (no SDK, no engine).

    `items=True` posts the items shape's requests instead (four metrics per item, with
    logprobs, whose longer replies cost the server more), 64 in flight as single calls:
    what the server and the machine allow that shape.
    """
    import aiohttp

    sem = asyncio.Semaphore(concurrency)
    names = list(SUMMARY_METRICS)

    def request(i: int) -> JudgeRequest:
        if not items:
            return SUMMARY_METRICS["coherence"].build_request(
                f"Meeting {i}. " + TEXT * 3, "Ship Friday."
            )
        data = item(i // len(names))
        return SUMMARY_METRICS[names[i % len(names)]].build_request(
            data.input, data.summary, logprobs=True
        )

    async def one(session: aiohttp.ClientSession, i: int) -> None:
        r = request(i)
        body: dict[str, Any] = {
            "model": "fake-model",
            "messages": [{"role": m.role, "content": m.content} for m in r.messages],
            "temperature": r.temperature,
            "max_completion_tokens": r.max_tokens,
            "max_tokens": r.max_tokens,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": r.schema_name, "schema": r.schema, "strict": True},
            },
        }
        if r.logprobs:
            body.update(logprobs=True, top_logprobs=r.top_logprobs)
        async with sem, session.post(url + "/chat/completions", json=body) as resp:
            await resp.read()

    cpu0, t0 = time.process_time(), time.perf_counter()
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        await asyncio.gather(*(one(session, i) for i in range(calls)))
    return {"calls": calls, "wall_s": time.perf_counter() - t0, "cpu_s": time.process_time() - cpu0}


SHAPES = (
    "engine",
    "bare aiohttp",
    "calls sdk",
    "calls direct",
    "bare items",
    "items direct",
    "items gated",
    "items sdk",
)
"""Every shape, in the order a round runs them ("items sdk" only when asked for)."""

Bench = Callable[[str, int, int, Path], Awaitable[dict[str, float]]]


def typed_replies() -> bool:
    """Whether msgspec reads the OpenAI replies (the 'fast' extra; older code: never)."""
    try:
        from sumjudge.judges.openai_reply import TYPED
    except ImportError:
        return False
    return TYPED


def load() -> str:
    """`uptime`'s load averages (1, 5, 15 min), the machine's business besides ours."""
    try:
        out = subprocess.run(["uptime"], capture_output=True, text=True, check=True).stdout
        return out.strip().split("load average:")[-1].strip()
    except (OSError, subprocess.CalledProcessError):
        return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def run_round(args: argparse.Namespace, ideal: float) -> dict[str, dict[str, float]]:
    """Every shape once; returns per shape: calls/s as a fraction of ideal, CPU ms per call."""
    out: dict[str, dict[str, float]] = {}
    if "engine" in args.shapes:
        with tempfile.TemporaryDirectory() as d:
            r = asyncio.run(
                bench_engine(args.latency, args.calls, args.concurrency, Path(d), args.jitter)
            )
        rate = r["calls"] / r["wall_s"]
        out["engine"] = {"ideal": rate / ideal, "cpu_ms": 1000 * r["cpu_s"] / r["calls"]}
        print(
            f"[engine only: JudgeCaller + cache + run_items, in-process judge sleeping "
            f"{args.latency} +/- {args.jitter} s] {int(r['calls'])} calls in "
            f"{r['wall_s']:.2f} s -> "
            f"{rate:.1f} calls/s = {rate / ideal:.3f} of ideal; "
            f"our CPU {1000 * r['cpu_s'] / r['calls']:.3f} ms per call"
        )
    shapes: list[tuple[str, Bench]] = [
        ("bare aiohttp", bench_bare),
        ("calls sdk", partial(bench_calls, http_client="sdk")),
        ("calls direct", partial(bench_calls, http_client="direct")),
        ("bare items", partial(bench_bare, items=True)),
        ("items direct", partial(bench_items, http_client="direct")),
        ("items gated", partial(bench_items, http_client="direct", gated=True)),
    ]
    shapes.append(("items sdk", partial(bench_items, http_client="sdk")))
    for shape, fn in shapes:
        if shape not in args.shapes:
            continue
        server = ("--latency", str(args.latency), "--jitter", str(args.jitter))
        with fake_server(*server) as url, tempfile.TemporaryDirectory() as d:
            r = asyncio.run(fn(url, args.calls, args.concurrency, Path(d)))
            served = stats(url)["requests"]
        rate = r["calls"] / r["wall_s"]
        out[shape] = {"ideal": rate / ideal, "cpu_ms": 1000 * r["cpu_s"] / r["calls"]}
        print(
            f"[{shape}] {int(r['calls'])} judge calls (server saw {served}) in {r['wall_s']:.2f} s "
            f"-> {rate:.1f} calls/s = {rate / ideal:.3f} of ideal; our CPU "
            f"{r['cpu_s']:.2f} s = {1000 * r['cpu_s'] / r['calls']:.3f} ms per call "
            f"(load {load()})"
        )
    return out


def summarize(rounds: list[dict[str, dict[str, float]]]) -> None:
    """Medians over the rounds, side by side, with the ratios the targets are stated in."""

    def med(shape: str, field: str) -> float:
        return statistics.median(r[shape][field] for r in rounds)

    def ratio(a: str, b: str) -> float:
        return statistics.median(r[a]["cpu_ms"] / r[b]["cpu_ms"] for r in rounds)

    n = len(rounds)
    print(f"\nsummary: medians over {n} round{'s' * (n > 1)} (ratios taken within each round)")
    print("client CPU per call (ms):")
    for shape in rounds[0]:
        print(f"  {shape:<13} {med(shape, 'cpu_ms'):7.3f}")
    ran = rounds[0]
    pairs = [
        ("calls direct", "bare aiohttp", " (target <= 2)"),
        ("calls sdk", "bare aiohttp", ""),
        ("calls sdk", "calls direct", ""),
        ("items direct", "bare aiohttp", " (issue 25: target <= 2)"),
        ("items direct", "bare items", ""),
        ("items gated", "bare aiohttp", " (issue 25: target <= 2)"),
    ]
    said = [f"{a} / {b} = {ratio(a, b):.2f}{t}" for a, b, t in pairs if a in ran and b in ran]
    if said:
        print("  " + "; ".join(said))
    print("throughput as a fraction of the ideal:")
    for shape in ran:
        print(f"  {shape:<13} {med(shape, 'ideal'):7.3f}")
    if "items direct" in ran and "bare items" in ran:
        of_bare = statistics.median(
            r["items direct"]["ideal"] / r["bare items"]["ideal"] for r in rounds
        )
        print(
            f"  items direct {med('items direct', 'ideal'):.3f} (target >= 0.9); items direct /"
            f" bare items = {of_bare:.3f} (bare items: what the server and the machine allowed)"
        )
    if "items gated" in ran:
        print(
            f"  items gated {med('items gated', 'ideal'):.3f} (target >= 0.9): the same calls in"
            " flight counted as calls (calls_in_flight), with twice the items started"
        )


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--calls", type=int, default=10_000)
    p.add_argument("--concurrency", type=int, default=64)
    p.add_argument("--latency", type=float, default=0.2)
    p.add_argument(
        "--jitter",
        type=float,
        default=0.0,
        help="spread each reply's latency uniformly over latency +/- S (default 0)",
    )
    p.add_argument("--rounds", type=int, default=1, help="repeat every shape; print medians")
    p.add_argument("--items-sdk", action="store_true", help="also the items shape on the SDK")
    p.add_argument(
        "--shapes",
        default=",".join(SHAPES[:-1]),
        help=f"comma-separated shapes to run, of: {', '.join(SHAPES)} (default: all but the last)",
    )
    args = p.parse_args()
    given = args.shapes != ",".join(SHAPES[:-1])
    args.shapes = [s.strip() for s in args.shapes.split(",") if s.strip()]
    if unknown := [s for s in args.shapes if s not in SHAPES]:
        p.error(f"unknown shape(s) {', '.join(unknown)}; choose from {', '.join(SHAPES)}")
    if args.items_sdk and "items sdk" not in args.shapes:
        args.shapes.append("items sdk")
    ideal = args.concurrency / args.latency
    print(
        f"command: python benchmarks/throughput.py --calls {args.calls} "
        f"--concurrency {args.concurrency} --latency {args.latency} --jitter {args.jitter} "
        f"--rounds {args.rounds}"
        + (" --items-sdk" if args.items_sdk else "")
        + (f" --shapes '{','.join(args.shapes)}'" if given else "")
    )
    print(
        f"ideal = concurrency / latency = {args.concurrency} / {args.latency} s "
        f"= {ideal:.1f} calls/s"
    )
    print(f"machine: {os.cpu_count()} CPUs, load average {load()} at start")
    print(
        "JSON of replies, request bodies and cache values: "
        + ("orjson (the 'fast' extra)" if fastjson.FAST else "json (install 'sumjudge[fast]')")
        + f"; replies read by msgspec: {typed_replies()}"
    )
    rounds: list[dict[str, Any]] = []
    for k in range(args.rounds):
        if args.rounds > 1:
            print(f"-- round {k + 1} of {args.rounds}")
        rounds.append(run_round(args, ideal))
    summarize(rounds)
    print(f"load average {load()} at the end")


if __name__ == "__main__":
    main()
