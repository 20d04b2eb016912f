"""Benchmark: distributed jobs against the plain CLI, printed side by side in one run.

1. Offline (lexical) judge, rows per second: the plain CLI (`sumjudge evaluate`, one
   process), then Spark (`local[W]`) and Ray (`num_cpus=W`, W actors) on 1 and 2 workers.
   The engines' figures time the judging job only (the session is started and warmed up
   first: a Spark or Ray start-up is paid once per job, not per row); the CLI's is its
   whole run. Target: 2 workers >= 1.6 x 1 worker on a 2-core machine.
2. LLM judging through the fake server (200 ms latency, its own process) at a fixed global
   concurrency: the single process (`evaluate_batch`) against Spark and Ray with 2 workers
   (the concurrency split between them).
3. With --rpm-window: the full-size rate check, a global rpm over 2 Spark workers for
   about 100 s; the most requests the server saw in any 60-second window.

Every configuration runs in its own subprocess (a fresh engine). `uptime`'s load average
is printed with the figures: the machine is shared.

Reproduce:  python benchmarks/distributed.py [--rows 600] [--llm-rows 400] [--rpm-window]
            python benchmarks/distributed.py --only-rpm-window
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _server import fake_server, stats

ROOT = Path(__file__).parents[1]
os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")


def make_rows(n: int) -> list[dict[str, Any]]:
    from sumjudge.datasets import load_simple_summarization_dataset

    pool = [(d.input, d.summary) for d in load_simple_summarization_dataset().load()]
    data = ROOT / "tests" / "data" / "summeval_slice.jsonl"
    for line in data.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        pool.append((record["source"], record["summary"]))
    out = []
    for i in range(n):
        source, summary = pool[i % len(pool)]
        sentences = re.split(r"(?<=[.!?])\s+", summary.strip())
        if (i // len(pool)) % 2 and len(sentences) > 1:
            summary = " ".join(sentences[: len(sentences) // 2])
        out.append({"id": f"r{i:05d}", "input": source, "summary": summary})
    return out


# -- one configuration (run in a subprocess) ------------------------------------------------
def _spark(workers: int) -> Any:
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master(f"local[{workers}]")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", "50")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def one(engine: str, workers: int, rows_path: str, llm: dict[str, Any] | None) -> dict[str, Any]:
    import pandas as pd

    frame = pd.read_parquet(rows_path)
    job: dict[str, Any] = {"id_col": "id", "model": "local-lexical", "workers": workers}
    if llm:
        job.update(llm)
    if engine == "spark":
        from sumjudge.spark import evaluate_spark

        spark = _spark(workers)
        warm = spark.createDataFrame(frame.head(workers * 2)).repartition(workers)
        evaluate_spark(warm, id_col="id", model="local-lexical").count()
        df = spark.createDataFrame(frame).repartition(workers * 4).cache()
        df.count()
        start = time.perf_counter()
        statuses = [r["status"] for r in evaluate_spark(df, **job).select("status").collect()]
    else:
        import ray

        from sumjudge.ray import evaluate_ray

        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        ray.data.DataContext.get_current().enable_progress_bars = False
        warm = ray.data.from_pandas(frame.head(workers * 2))
        evaluate_ray(warm, id_col="id", model="local-lexical", workers=workers).materialize()
        step = -(-len(frame) // (workers * 4))
        ds = ray.data.from_pandas([frame.iloc[i : i + step] for i in range(0, len(frame), step)])
        start = time.perf_counter()
        out = evaluate_ray(ds, **job, batch_size=25).select_columns(["status"]).to_pandas()
        statuses = list(out["status"])
    elapsed = time.perf_counter() - start
    return {"rows": len(statuses), "ok": statuses.count("ok"), "seconds": elapsed}


def run_one(engine: str, workers: int, rows_path: Path, llm: dict[str, Any] | None = None) -> dict:
    args = [sys.executable, __file__, "--one", engine, str(workers), str(rows_path)]
    if llm:
        args.append(json.dumps(llm))
    done = subprocess.run(args, capture_output=True, text=True, env=_env(), check=False)
    lines = [x for x in done.stdout.splitlines() if x.startswith("{")]
    if done.returncode or not lines:
        raise RuntimeError(f"{engine} x{workers} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    return env


def plain_cli(rows_path: Path, tmp: Path) -> dict[str, Any]:
    out = tmp / "cli.jsonl"
    args = [sys.executable, "-m", "sumjudge.cli.main", "evaluate", str(rows_path), "-o", str(out)]
    args += ["--model", "local-lexical", "--no-cache", "--no-progress"]
    start = time.perf_counter()
    subprocess.run(args, capture_output=True, text=True, env=_env(), check=False)
    elapsed = time.perf_counter() - start
    lines = out.read_text(encoding="utf-8").splitlines()
    ok = sum(json.loads(x)["status"] == "ok" for x in lines)
    return {"rows": len(lines), "ok": ok, "seconds": elapsed}


def single_process_llm(rows_path: Path, llm: dict[str, Any]) -> dict[str, Any]:
    import asyncio

    import pandas as pd

    from sumjudge import SummarizationEvaluator

    rows = pd.read_parquet(rows_path).to_dict("records")
    options = dict(llm)
    concurrency = options.pop("concurrency")
    metrics = options.pop("enabled_metrics")

    async def go() -> list[str]:
        evaluator = SummarizationEvaluator(enabled_metrics=metrics, **options)
        out = [r.status async for r in evaluator.evaluate_batch(rows, concurrency=concurrency)]
        await evaluator.aclose()
        return out

    start = time.perf_counter()
    statuses = asyncio.run(go())
    return {
        "rows": len(statuses),
        "ok": statuses.count("ok"),
        "seconds": time.perf_counter() - start,
    }


def _line(name: str, r: dict[str, Any], base: float | None) -> str:
    rate = r["rows"] / r["seconds"]
    ratio = f"{rate / base:5.2f}x" if base else "   --"
    counts = f"{r['rows']:>5} rows ({r['ok']} ok)"
    return f"  {name:<28} {counts} {r['seconds']:7.1f} s {rate:8.1f} rows/s {ratio}"


def load() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--one":
        engine, workers, rows_path = sys.argv[2], int(sys.argv[3]), sys.argv[4]
        llm = json.loads(sys.argv[5]) if len(sys.argv) > 5 else None
        print(json.dumps(one(engine, workers, rows_path, llm)))
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=600)
    parser.add_argument("--llm-rows", type=int, default=400)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--rpm-window", action="store_true")
    parser.add_argument("--only-rpm-window", action="store_true")
    args = parser.parse_args()
    import pandas as pd

    if args.only_rpm_window:
        with tempfile.TemporaryDirectory() as name:
            print(f"load before: {load()}")
            rpm_window(Path(name))
            print(f"load after: {load()}")
        return

    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        rows_path = tmp / "rows.parquet"
        pd.DataFrame(make_rows(args.rows)).to_parquet(rows_path)
        print(f"load before: {load()}")
        print(f"1. offline lexical judge, {args.rows} rows (ratio: against the plain CLI)")
        cli = plain_cli(rows_path, tmp)
        base = cli["rows"] / cli["seconds"]
        print(_line("plain CLI (1 process)", cli, base), flush=True)
        for engine in ("spark", "ray"):
            one_w = run_one(engine, 1, rows_path)
            two_w = run_one(engine, 2, rows_path)
            print(_line(f"{engine} 1 worker", one_w, base))
            print(_line(f"{engine} 2 workers", two_w, base))
            scale = (two_w["rows"] / two_w["seconds"]) / (one_w["rows"] / one_w["seconds"])
            print(f"  {engine}: 2 workers / 1 worker = {scale:.2f}x (target >= 1.6)", flush=True)
        print(f"load: {load()}")

        llm_path = tmp / "llm.parquet"
        pd.DataFrame(make_rows(args.llm_rows)).to_parquet(llm_path)
        with fake_server("--latency", "0.2") as url:
            llm = {
                "model": "openai/fake-model",
                "base_url": url,
                "enabled_metrics": ["coherence"],
                "logprobs": False,
                "concurrency": args.concurrency,
            }
            print(
                f"2. LLM judge, 200 ms server, {args.llm_rows} rows x 1 call, global "
                f"concurrency {args.concurrency} (ratio: against the single process)"
            )
            single = single_process_llm(llm_path, llm)
            base = single["rows"] / single["seconds"]
            print(_line("single process", single, base), flush=True)
            for engine in ("spark", "ray"):
                print(_line(f"{engine} 2 workers", run_one(engine, 2, llm_path, llm), base))
            ideal = args.concurrency / 0.2
            print(f"  ideal at concurrency {args.concurrency}: {ideal:.0f} rows/s")
            print(f"  server saw {stats(url)['requests']} requests")
        if args.rpm_window:
            rpm_window(tmp)
        print(f"load after: {load()}")


def rpm_window(tmp: Path) -> None:
    """A global rpm of 120 over 2 Spark workers for ~100 s; the busiest 60-s window."""
    import pandas as pd

    from sumjudge.testing import FakeOpenAIServer

    rpm, rows = 120.0, 200
    path = tmp / "rpm.parquet"
    pd.DataFrame(make_rows(rows)).to_parquet(path)
    with FakeOpenAIServer(latency=0.2, record_requests=False) as server:
        seen: list[float] = []
        answer = server.responder

        def responder(body: dict[str, Any]) -> Any:
            seen.append(time.monotonic())
            return answer(body)

        server.responder = responder
        llm = {
            "model": "openai/fake-model",
            "base_url": server.base_url,
            "enabled_metrics": ["coherence"],
            "logprobs": False,
            "concurrency": 8,
            "rpm": rpm,
        }
        r = run_one("spark", 2, path, llm)
    seen.sort()
    busiest = max(sum(1 for t in seen[i:] if t - s < 60.0) for i, s in enumerate(seen))
    print(
        f"3. global rpm {rpm:.0f} over 2 Spark workers: {r['rows']} rows in {r['seconds']:.0f} s;"
        f" busiest 60-s window: {busiest} requests (budget {rpm:.0f})"
    )


if __name__ == "__main__":
    main()
