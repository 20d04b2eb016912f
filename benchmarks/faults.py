"""Faults and secrets (issue 12): rows ok under faults, requests after a refused key, the
busiest windows under --rpm, and key fragments found in anything written.

Everything runs against the local fake OpenAI-compatible server on 127.0.0.1.

1. 300 rows x 4 metrics at 20% faults of nine kinds (429 with Retry-After, 500, 503,
   dropped connection, a reply held past the per-call timeout, finish_reason "length",
   prose, a score of 7, a 200 with a broken body): rows ok, every row exactly once,
   every failure with a reason, and what the re-asks cost.
2. A 6-row run whose every request is answered 401: requests the server received.
3. `--rpm N` over more than a minute of calls: the busiest 60-second and 1-second
   windows at the server (arrival times), against N and N/60.
4. The CLI with a 167-character key that the server echoes in a 401 after padding and
   inside a successful reply, then a keyless run from the cache: fragments of 8+
   characters of the key found in stdout, stderr, every output and the cache (WAL too).

Reproduce:  python benchmarks/faults.py [--rows 300] [--rpm 600] [--skip-rate]
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from sumjudge import RetryPolicy, SummarizationEvaluator, SummaryData
from sumjudge.runner import RunSummary
from sumjudge.testing.openai_server import FAULTS, FakeOpenAIServer, Reply

SOURCE = (
    "Rina opened the meeting. The team agreed to ship the release on Friday after the "
    "final QA pass. Budi will update the changelog and Sari will notify the customers. "
)
KEY = "sk-proj-" + "".join(f"{(i * 7919) % 36:x}Zq" for i in range(53))[:159]


def items(n: int) -> list[SummaryData]:
    return [
        SummaryData(input=SOURCE + f"Row {i}.", summary=f"Ship Friday; row {i}.", id=f"r{i}")
        for i in range(n)
    ]


def busiest(times: list[float], window: float) -> int:
    times = sorted(times)
    return max((bisect.bisect_left(times, t + window) - i for i, t in enumerate(times)), default=0)


async def fault_mix(rows: int, tmp: Path) -> None:
    policy = RetryPolicy(
        max_attempts=5, initial_delay=0, max_delay=0, max_retry_after=0, jitter=False, timeout=0.5
    )
    async with FakeOpenAIServer(
        error_rate=0.2, faults=FAULTS, seed=3, timeout_sleep=1.0, retry_after=0.0
    ) as srv:
        ev = SummarizationEvaluator(
            "openai/fake-model", base_url=srv.base_url, retry_policy=policy, cache=tmp / "c1"
        )
        summary = RunSummary()
        started = time.perf_counter()
        records = [r async for r in ev.evaluate_batch(items(rows), concurrency=16, summary=summary)]
        await ev.aclose()
        bodies = [r["body"] for r in srv.requests]
    indices = Counter(r.index for r in records)
    statuses = Counter(r.status for r in records)
    reasons = Counter(
        f["reason"].split(":")[0][:60] for r in records if r.status != "ok" for f in r.failures
    )
    roomier = sum("length limit" in str(b["messages"][-1]["content"]) for b in bodies)
    repairs = sum(b["messages"][-2]["role"] == "assistant" for b in bodies)
    print(f"1. fault mix: {rows} rows, 20% faults of {len(FAULTS)} kinds ({', '.join(FAULTS)})")
    print(f"   rows ok: {statuses['ok']}/{rows} = {statuses['ok'] / rows:.1%} (target >= 95%)")
    print(
        f"   every row exactly once: {sorted(indices) == list(range(rows))} "
        f"and max count {max(indices.values())}; failures with a reason: "
        f"{all(f['reason'] for r in records if r.status != 'ok' for f in r.failures)}"
    )
    print(f"   statuses: {dict(statuses)}; failure reasons: {dict(reasons) or 'none'}")
    print(
        f"   requests received {len(bodies)} for {rows * 4} verdicts: {roomier} roomier re-asks "
        f"after a cut reply, {repairs} repair re-asks; {summary.retries} retries; "
        f"{summary.usage.prompt_tokens} prompt tokens counted; "
        f"{time.perf_counter() - started:.1f} s"
    )


async def refused_key() -> None:
    async with FakeOpenAIServer() as srv:
        srv.responder = lambda body: Reply.error(401, "Incorrect API key provided.")
        ev = SummarizationEvaluator(
            "openai/fake-model", base_url=srv.base_url, model_credentials="sk-wrong-key-123456"
        )
        summary = RunSummary()
        records = [r async for r in ev.evaluate_batch(items(6), summary=summary)]
        await ev.aclose()
        received = len(srv.requests)
    statuses = Counter(r.status for r in records)
    print("2. refused key: 6 rows x 4 metrics, every request answered 401")
    print(
        f"   requests received: {received} (before: 24); statuses {dict(statuses)}; "
        f"stopped: {summary.stopped is not None}, key_refused: {summary.key_refused}"
    )


async def rate_cap(rpm: int) -> None:
    calls = int(rpm * 1.6)
    async with FakeOpenAIServer(latency=0.05) as srv:
        ev = SummarizationEvaluator("openai/fake-model", base_url=srv.base_url, logprobs=False)
        started = time.perf_counter()
        _ = [
            r
            async for r in ev.evaluate_batch(
                items(calls // 4), concurrency=32, requests_per_minute=rpm
            )
        ]
        await ev.aclose()
        arrivals = [r["at"] for r in srv.requests]
    elapsed = time.perf_counter() - started
    print(f"3. --rpm {rpm}: {len(arrivals)} requests in {elapsed:.0f} s")
    print(
        f"   busiest 60 s window: {busiest(arrivals, 60.0)} (cap {rpm}); busiest 1 s window: "
        f"{busiest(arrivals, 1.0)} (one second's share {rpm / 60:g}, burst 2 s); "
        f"overall rate {len(arrivals) / elapsed * 60:.0f}/min"
    )


def fragments(text: str) -> int:
    return sum(KEY[i : i + 8] in text for i in range(len(KEY) - 7))


def secrets(tmp: Path) -> None:
    tmp.mkdir(parents=True, exist_ok=True)
    src = tmp / "in.jsonl"
    rows = [{"id": f"r{i}", "input": SOURCE + str(i), "summary": "Ship Friday."} for i in range(6)]
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env["SUMJUDGE_CACHE_DIR"] = str(tmp / "cache")
    outputs = []

    def run(server: FakeOpenAIServer, out: str, key: str | None) -> None:
        e = dict(env, **({"OPENAI_API_KEY": key} if key else {}))
        cmd = [
            sys.executable,
            "-m",
            "sumjudge.cli.main",
            "evaluate",
            str(src),
            "--no-progress",
            "--model",
            "openai/fake-model",
            "--base-url",
            server.base_url,
            "-o",
            str(tmp / out),
            "--summary-json",
            str(tmp / (out + ".summary.json")),
        ]
        proc = subprocess.run(cmd, env=e, capture_output=True, text=True, timeout=120)
        outputs.append(proc.stdout + proc.stderr)

    with FakeOpenAIServer() as srv:
        srv.responder = lambda body: Reply.error(401, "x" * 80 + f" key {KEY} is not valid")
        run(srv, "refused.jsonl", KEY)
    with FakeOpenAIServer() as srv:
        srv.responder = lambda body: Reply.json(
            {"explanation": f"Seen: Authorization: Bearer {KEY}", "score": 3}
        )
        run(srv, "echo.jsonl", KEY)
        run(srv, "keyless.jsonl", None)
    files = [p for p in tmp.rglob("*") if p.is_file() and p != src]
    found = sum(fragments(p.read_bytes().decode("utf-8", "replace")) for p in files)
    found += sum(fragments(o) for o in outputs)
    cache = [p.name for p in files if "sqlite" in p.name]
    print(f"4. secrets: a {len(KEY)}-character key echoed in a 401 (after 80 characters) and in")
    print(
        f"   a reply, then a keyless run from the cache: {found} fragments of 8+ characters "
        f"found in {len(files)} files ({', '.join(cache)}) and 3 runs' stdout/stderr"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=300)
    parser.add_argument("--rpm", type=int, default=600)
    parser.add_argument("--skip-rate", action="store_true", help="skip the minute-long rate run")
    args = parser.parse_args()
    print(
        f"load average: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}; cores {os.cpu_count()}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(fault_mix(args.rows, Path(tmp)))
        asyncio.run(refused_key())
        if not args.skip_rate:
            asyncio.run(rate_cap(args.rpm))
        secrets(Path(tmp) / "secrets")


if __name__ == "__main__":
    main()
