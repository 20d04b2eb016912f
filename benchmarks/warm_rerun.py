"""Benchmark 4: judge calls on a second run of a finished batch (target: 0).

Runs `sumjudge evaluate` twice on the same file against the fake server (own process)
with a fresh response cache, and counts the requests the server received each time.

Reproduce:  python benchmarks/warm_rerun.py [--rows 200]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _server import fake_server, stats

DEV = Path("/work/shared/data/dev.jsonl")


def write_rows(path: Path, rows: int) -> None:
    with path.open("w", encoding="utf-8") as out:
        n = 0
        if DEV.exists():
            for line in DEV.open(encoding="utf-8"):
                r = json.loads(line)
                out.write(
                    json.dumps({"id": r["id"], "input": r["source"], "summary": r["summary"]})
                )
                out.write("\n")
                n += 1
                if n == rows:
                    return
        for i in range(n, rows):
            out.write(
                json.dumps(
                    {"id": str(i), "input": f"Meeting {i}: ship Friday.", "summary": "Ship Friday."}
                )
                + "\n"
            )


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--rows", type=int, default=200)
    args = p.parse_args()
    print(f"command: python benchmarks/warm_rerun.py --rows {args.rows}")
    with tempfile.TemporaryDirectory() as d, fake_server("--latency", "0.05") as url:
        tmp = Path(d)
        src = tmp / "in.jsonl"
        write_rows(src, args.rows)
        env = {**os.environ, "SUMJUDGE_CACHE_DIR": str(tmp / "cache")}
        for run in ("first", "second"):
            before = stats(url)["requests"]
            cmd = [
                sys.executable,
                "-m",
                "sumjudge.cli.main",
                "evaluate",
                str(src),
                "--model",
                "openai/fake-model",
                "--base-url",
                url,
                "-o",
                str(tmp / f"{run}.jsonl"),
                "--concurrency",
                "16",
                "--no-progress",
            ]
            t0 = time.perf_counter()
            res = subprocess.run(cmd, env=env, capture_output=True, text=True)
            wall = time.perf_counter() - t0
            calls = stats(url)["requests"] - before
            lines = len((tmp / f"{run}.jsonl").read_text().splitlines())
            tail = [x for x in res.stderr.splitlines() if "judge call" in x]
            print(
                f"{run} run: {lines} records, {calls} judge calls received by the server, "
                f"{wall:.1f} s, exit {res.returncode}; CLI says: {tail[-1] if tail else '?'}"
            )


if __name__ == "__main__":
    main()
