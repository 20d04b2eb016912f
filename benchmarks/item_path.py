"""The items path's own CPU per judge call, with the transport stubbed out.

`throughput.py` measures the whole client against the test server in another process;
on a shared 2-core machine its CPU figures move by a third from round to round, more
than most changes to our code. Here the direct path's POST is replaced by a coroutine
that returns one reply captured from the test server (12.7 KB with logprobs) after
latency +/- jitter, so what is measured is only ours: plan, fingerprint and cache
lookup, body encoding, reply decoding, `TokenLogprob`s, reader, cache write, rules,
records (written by the CLI's own `RecordSink`) and the event loop. To compare
two versions of the code, run this with each on `PYTHONPATH` in turn, several times.

Reproduce:  python benchmarks/item_path.py [--calls 2000] [--reps 3] [--latency 0.2]
            [--jitter 0.05] [--compare-typed]

`--compare-typed` runs `--reps` pairs in one process, msgspec's reading of the replies
off and on in turn, and prints both and the difference per pair.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _server import fake_server
from throughput import item, load, typed_replies

from sumjudge import SummarizationEvaluator, fastjson
from sumjudge.cli._sink import RecordSink
from sumjudge.judges import get_judge, openai_direct
from sumjudge.metrics import SUMMARY_METRICS
from sumjudge.runner import RetryPolicy, RunSummary

URL = "http://127.0.0.1:9/v1"  # never reached: the POST is stubbed


def capture_reply() -> bytes:
    """One reply of the test server to an items request (a metric's, with logprobs)."""
    data = item(0)
    request = SUMMARY_METRICS["fluency"].build_request(data.input, data.summary, logprobs=True)
    body = {
        "model": "fake-model",
        "messages": [{"role": m.role, "content": m.content} for m in request.messages],
        "temperature": request.temperature,
        "max_tokens": request.max_tokens,
        "logprobs": True,
        "top_logprobs": request.top_logprobs,
    }
    with fake_server() as url:
        sent = urllib.request.Request(
            url + "/chat/completions",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(sent) as resp:
            reply: bytes = resp.read()
    return reply


def stub_transport(reply: bytes, latency: float, jitter: float) -> None:
    """Replace the direct path's POST: encode the body as it does, answer `reply` later."""
    rng = random.Random(0)
    # the body's encoding as the direct path does it (older versions: json's compact text)
    encode = getattr(fastjson, "dumps", None) or (
        lambda body: json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    )

    async def post(self: Any, body: Mapping[str, Any]) -> tuple[int, Mapping[str, str], bytes]:
        encode(body)
        await asyncio.sleep(latency + (rng.uniform(-jitter, jitter) if jitter else 0.0))
        return 200, {}, reply

    openai_direct.DirectChat.post = post  # type: ignore[method-assign]


async def run(calls: int, cache_dir: Path) -> float:
    """CPU ms per judge call of `calls // 4` items at 16 items (64 calls) in flight."""
    judge = get_judge("openai/fake-model", base_url=URL, timeout=60, http_client="direct")
    ev = SummarizationEvaluator(
        judge, base_url=URL, retry_policy=RetryPolicy(timeout=60), timeout=60, cache=cache_dir
    )
    summary = RunSummary()
    with RecordSink(cache_dir / "out.jsonl") as sink:  # the CLI's writer
        cpu0 = time.process_time()
        items = (item(i) for i in range(calls // 4))
        async for record in ev.evaluate_batch(items, concurrency=16, summary=summary):
            sink.write(record.to_dict())
        cpu = time.process_time() - cpu0
    await ev.aclose()
    if summary.ok != calls // 4:
        raise RuntimeError(f"{summary.ok} of {calls // 4} items judged")
    return 1000 * cpu / summary.judge_calls


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--calls", type=int, default=2000)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--latency", type=float, default=0.2)
    p.add_argument("--jitter", type=float, default=0.05)
    p.add_argument(
        "--compare-typed",
        action="store_true",
        help="--reps pairs of runs, msgspec's reply reading off and on in turn",
    )
    args = p.parse_args()
    print(
        f"command: python benchmarks/item_path.py --calls {args.calls} --reps {args.reps} "
        f"--latency {args.latency} --jitter {args.jitter}"
        + (" --compare-typed" if args.compare_typed else "")
    )
    print(f"load average {load()} at start; orjson: {fastjson.FAST}; msgspec: {typed_replies()}")
    stub_transport(capture_reply(), args.latency, args.jitter)
    with tempfile.TemporaryDirectory() as d:
        asyncio.run(run(400, Path(d)))  # warm-up: imports, first contact
    if args.compare_typed:
        compare_typed(args.calls, args.reps)
        return
    figures = [one_run(args.calls) for _ in range(args.reps)]
    print("CPU ms per judge call: " + ", ".join(f"{x:.3f}" for x in figures))
    print(f"median {statistics.median(figures):.3f}; load average {load()} at the end")


def one_run(calls: int) -> float:
    with tempfile.TemporaryDirectory() as d:
        return asyncio.run(run(calls, Path(d)))


def compare_typed(calls: int, pairs: int) -> None:
    """msgspec's reply reading on and off in one process, alternating (load hits both alike).

    Off, every reply goes through `fastjson.loads` + `read_dict`, the reading before it.
    """
    from sumjudge.judges import openai_reply

    if not openai_reply.TYPED:
        raise SystemExit("msgspec is not installed: nothing to compare")
    on: list[float] = []
    off: list[float] = []
    for i in range(pairs):
        for typed in (False, True) if i % 2 == 0 else (True, False):
            openai_reply.TYPED = typed
            (on if typed else off).append(one_run(calls))
    for name, xs in (("dict path (orjson)", off), ("typed (msgspec)", on)):
        figures = ", ".join(f"{x:.3f}" for x in xs)
        print(f"{name}: {figures}; median {statistics.median(xs):.3f}")
    diffs = [a - b for a, b in zip(off, on, strict=True)]
    print(
        "per pair, dict - typed (ms): " + ", ".join(f"{x:+.3f}" for x in diffs),
        f"median {statistics.median(diffs):+.3f}; load average {load()} at the end",
    )


if __name__ == "__main__":
    main()
