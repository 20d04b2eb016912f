"""Benchmark 5: peak RSS while streaming N rows from a file (10k vs 100k: flat in N?).

Each N runs in a fresh subprocess: rows are read lazily from a JSONL file, judged by an
instant in-process judge (so the engine, not the network, is measured: JudgeCaller,
run_items, parsing, rules, records) and streamed to a JSONL output via RecordSink, exactly
the CLI's path. Peak RSS is the child's ru_maxrss.

Reproduce:  python benchmarks/memory.py [--sizes 10000,100000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sumjudge.judges import JudgeRequest, JudgeResponse, Usage
from sumjudge.protocol import LLM_CAPABILITIES

REPLY = '{"explanation": "The summary is faithful and clear.", "score": 3}'


class InstantJudge:
    """Answers at once and keeps nothing (ScriptedJudge records requests: not for this)."""

    name = "bench/instant"
    identity = "bench/instant"
    capabilities = LLM_CAPABILITIES

    async def complete(self, request: JudgeRequest) -> JudgeResponse:
        return JudgeResponse(text=REPLY, usage=Usage(prompt_tokens=300, completion_tokens=20))

    async def aclose(self) -> None:
        return None


def child(path: str, out: str) -> None:
    from sumjudge import RetryPolicy, SummarizationEvaluator
    from sumjudge.cli._batch import RecordSink
    from sumjudge.datasets import read_summary_rows
    from sumjudge.runner import RunSummary

    async def go() -> RunSummary:
        ev = SummarizationEvaluator(InstantJudge(), retry_policy=RetryPolicy(), logprobs=False)
        summary = RunSummary()
        with RecordSink(out) as sink:
            async for rec in ev.evaluate_batch(
                read_summary_rows(path), concurrency=64, summary=summary
            ):
                sink.write(rec.to_dict())
        return summary

    t0 = time.perf_counter()
    s = asyncio.run(go())
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        json.dumps(
            {
                "items": s.items,
                "ok": s.ok,
                "calls": s.judge_calls,
                "wall_s": time.perf_counter() - t0,
                "peak_rss_mb": rss_mb,
            }
        )
    )


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3])
        return
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", default="10000,100000")
    args = p.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    print(f"command: python benchmarks/memory.py --sizes {args.sizes}")
    with tempfile.TemporaryDirectory() as d:
        for n in sizes:
            src, out = Path(d) / f"in{n}.jsonl", Path(d) / f"out{n}.jsonl"
            with src.open("w") as fh:
                for i in range(n):
                    fh.write(
                        json.dumps(
                            {
                                "id": f"r{i}",
                                "input": f"Meeting {i}. Rina: we ship on "
                                "Friday after QA. Budi: I will update the notes. " * 4,
                                "summary": f"They ship Friday ({i}).",
                            }
                        )
                        + "\n"
                    )
            res = subprocess.run(
                [sys.executable, __file__, "--child", str(src), str(out)],
                capture_output=True,
                text=True,
                check=True,
            )
            r = json.loads(res.stdout.strip().splitlines()[-1])
            size_mb = src.stat().st_size / 2**20
            print(
                f"N={n}: {r['items']} items ({r['ok']} ok), {r['calls']} judge calls, "
                f"input {size_mb:.1f} MB, output {out.stat().st_size / 2**20:.1f} MB, "
                f"{r['wall_s']:.1f} s, peak RSS {r['peak_rss_mb']:.1f} MB"
            )


if __name__ == "__main__":
    main()
