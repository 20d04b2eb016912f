"""Benchmark: distributed jobs against one process, printed side by side in one run.

1. The offline judge, rows per second, for `local-lexical` and then `local` (embeddings;
   skip with --local-rows 0): one process (`evaluate_batch` in a fresh interpreter, the
   evaluator's build included: what `sumjudge evaluate` runs), then Spark (`local[W]`) and
   Ray (`num_cpus=W`, W actors) with W = 1 and 2. Every row has a source of its own (the
   bundled sources, each sentence tagged with the row's id), so no row is judged from
   another row's cached analysis: the work is the CPU-bound judging itself. The engines'
   figures time the job (Spark: its Python workers started and warmed by a small job
   first, as on a running cluster; Ray: the actors start inside the job, since each job
   has its own). Ratios are against the one process of the same run; target: 2 workers
   >= 1.6 x 1 worker (on a machine with 2 free cores).
   Under each engine line: where its workers' time went (the `SUMJUDGE_WORKER_PHASES`
   figures of `sumjudge.distributed.phases`, summed over workers, as shares of workers x
   job seconds): Python worker start-up before the judge existed (Ray), the evaluator's
   build, the engine's side (Arrow <-> pandas, moving batches, scheduling), frame -> rows,
   the evaluator (coercion, plans, the judge's analysis), result columns (each row's
   result_json), and the rest (a worker idle or not yet started), plus CPU ms per row and
   the cores the judges got on average (their CPU seconds / the job's seconds: below the
   workers, other processes had the rest).
   Then, for Ray, the driver's own steps outside the job's seconds (ray.init, the warm
   job, the dataset's creation, collecting the statuses), the CPU seconds of the driver,
   of Ray's daemons and of the judges during the job (the judges' from their phases), each
   judge's timeline (its process started, evaluator ready, first and last batch, rows),
   and the rate after start-up: rows per second from the moment every judge was ready to
   the job's end (a steady-state figure beside the end-to-end one, which counts start-up).
   Ray's input is one materialized block, which `evaluate_ray` cuts into blocks of one
   default batch each (`sumjudge.ray.cut_in_batches`, counted in the job's seconds), as
   for `sumjudge evaluate --engine ray`: an actor takes whole blocks.
2. LLM judging through the fake server (200 ms latency, its own process) at a fixed global
   concurrency: the single process against Spark and Ray with 2 workers.
3. With --rpm-window: a global rpm of 120 over 2 workers for ~100 s on each engine (Spark:
   the per-worker split; Ray: the job's one limiter actor); the busiest 60-s window.

Every configuration runs in its own subprocess (a fresh engine). The load average is
printed at the start and the end, with the total time: the machine may be shared.

Reproduce (about 10 minutes on 2 idle cores):
    python benchmarks/distributed.py
    python benchmarks/distributed.py --rows 300 --local-rows 8 --llm-rows 100   # a smoke run
Options: --rows (lexical, 3000), --local-rows (embeddings, 24; 0 skips), --llm-rows (400),
--concurrency (16), --rpm-window (adds ~4 minutes), --only-rpm-window.
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
PHASES = ("startup", "build", "engine", "to_rows", "evaluate", "columns")


def make_rows(n: int, tag: str = "r") -> list[dict[str, Any]]:
    """`n` rows, each with a source of its own (every sentence carries the row's id)."""
    from sumjudge.datasets import load_simple_summarization_dataset

    pool = [(d.input, d.summary) for d in load_simple_summarization_dataset().load()]
    data = ROOT / "tests" / "data" / "summeval_slice.jsonl"
    for line in data.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        pool.append((record["source"], record["summary"]))
    out = []
    for i in range(n):
        source, summary = pool[i % len(pool)]
        ident = f"{tag}{i:05d}"
        source = re.sub(r"([.!?])(\s|$)", rf" ({ident})\1\2", source)
        sentences = re.split(r"(?<=[.!?])\s+", summary.strip())
        if (i // len(pool)) % 2 and len(sentences) > 1:
            summary = " ".join(sentences[: len(sentences) // 2])
        out.append({"id": ident, "input": source, "summary": summary})
    return out


# -- one configuration (run in a subprocess) ------------------------------------------------
def _spark(workers: int) -> Any:
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master(f"local[{workers}]")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def one(engine: str, workers: int, rows_path: str, job: dict[str, Any]) -> dict[str, Any]:
    import pandas as pd

    frame = pd.read_parquet(rows_path)
    warm_rows = pd.DataFrame(make_rows(workers * 2, tag="warm"))
    phases_dir = os.environ.get("SUMJUDGE_WORKER_PHASES")
    job = {"id_col": "id", "workers": workers, **job}
    warm_job = {"id_col": "id", "workers": workers, "model": "local-lexical"}
    if engine == "process":
        return _one_process(frame, job)
    if engine == "spark":
        from sumjudge.spark import evaluate_spark

        spark = _spark(workers)
        warm = spark.createDataFrame(warm_rows).repartition(workers)
        evaluate_spark(warm, **warm_job).count()
        df = spark.createDataFrame(frame).repartition(workers).cache()  # one task per slot
        df.count()
        _clear(phases_dir)
        began, start = time.time(), time.perf_counter()
        statuses = [r["status"] for r in evaluate_spark(df, **job).select("status").collect()]
    else:
        return _one_ray(frame, warm_rows, workers, job, warm_job, phases_dir)
    elapsed = time.perf_counter() - start
    return {"rows": len(statuses), "ok": statuses.count("ok"), "seconds": elapsed, "t0": began}


def tree_cpu() -> dict[int, tuple[str, float]]:
    """This process and its descendants (Linux /proc): pid -> (kind, CPU seconds).

    Kinds: "driver" (this process), "judges" (Ray's map actors), "ray" (the rest: Ray's
    daemons and helper actors, raylet, GCS, the stats actor ...).
    """
    tick = os.sysconf("SC_CLK_TCK")
    table: dict[int, tuple[int, str, float]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmd = (entry / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        table[int(entry.name)] = (int(fields[1]), cmd, (int(fields[11]) + int(fields[12])) / tick)
    me, out = os.getpid(), {}
    for pid, (_, cmd, cpu) in table.items():
        up, seen = pid, 0
        while up not in (me, 0, 1) and up in table and seen < 50:
            up, seen = table[up][0], seen + 1
        if pid == me:
            out[pid] = ("driver", cpu)
        elif up == me:
            out[pid] = ("judges" if "RayBatchJudge" in cmd else "ray", cpu)
    return out


def cpu_during(before: dict[int, tuple[str, float]]) -> dict[str, float]:
    """CPU seconds by kind since `before`, of the processes alive now (see `tree_cpu`)."""
    out = {"driver": 0.0, "ray": 0.0}
    for pid, (kind, cpu) in tree_cpu().items():
        if kind in out:
            out[kind] += cpu - before.get(pid, (kind, 0.0))[1]
    return out


def _one_ray(
    frame: Any,
    warm_rows: Any,
    workers: int,
    job: dict[str, Any],
    warm_job: dict[str, Any],
    phases_dir: str | None,
) -> dict[str, Any]:
    """Ray with `workers` CPUs and actors; the driver's steps timed one by one."""
    clock, steps = time.perf_counter, {}
    start = clock()
    import ray

    from sumjudge.ray import evaluate_ray

    ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    steps["init"] = clock() - start
    start = clock()
    evaluate_ray(ray.data.from_pandas(warm_rows), **warm_job).materialize()
    steps["warm"] = clock() - start
    start = clock()
    # One block, as a small file is read: `evaluate_ray` cuts a materialized Dataset into
    # blocks of one batch each (`cut_in_batches`, inside the job's time below), as for
    # `sumjudge evaluate --engine ray`.
    ds = ray.data.from_pandas(frame).materialize()
    steps["dataset"] = clock() - start
    _clear(phases_dir)
    cpu_before = tree_cpu()
    began, start = time.time(), clock()
    done = evaluate_ray(ds, **job).materialize()
    elapsed = clock() - start
    # The actors have exited by now (their CPU is in their phases); the rest lives on.
    cpu = cpu_during(cpu_before)
    start = clock()
    statuses = list(done.select_columns(["status"]).to_pandas()["status"])
    steps["collect"] = clock() - start
    return {
        "rows": len(statuses),
        "ok": statuses.count("ok"),
        "seconds": elapsed,
        "t0": began,
        "steps": steps,
        "tree_cpu": cpu,
    }


def _one_process(frame: Any, job: dict[str, Any]) -> dict[str, Any]:
    import asyncio

    from sumjudge import SummarizationEvaluator

    options = {k: v for k, v in job.items() if k not in ("id_col", "workers")}
    concurrency = options.pop("concurrency", 8)
    items = frame.to_dict("records")

    async def go() -> list[str]:
        evaluator = SummarizationEvaluator(**options)
        out = [r.status async for r in evaluator.evaluate_batch(items, concurrency=concurrency)]
        await evaluator.aclose()
        return out

    start, cpu = time.perf_counter(), time.process_time()
    statuses = asyncio.run(go())
    return {
        "rows": len(statuses),
        "ok": statuses.count("ok"),
        "seconds": time.perf_counter() - start,
        "cpu": time.process_time() - cpu,
    }


def _clear(where: str | None) -> None:
    for path in Path(where).glob("phases-*.json") if where else []:
        path.unlink()


def run_one(engine: str, workers: int, rows_path: Path, job: dict[str, Any]) -> dict[str, Any]:
    """One configuration in a fresh interpreter; its figures and its workers' phases."""
    with tempfile.TemporaryDirectory() as phases_dir:
        env = _env()
        env["SUMJUDGE_WORKER_PHASES"] = phases_dir
        args = [sys.executable, __file__, "--one", engine, str(workers), str(rows_path)]
        args.append(json.dumps(job))
        done = subprocess.run(args, capture_output=True, text=True, env=env, check=False)
        lines = [x for x in done.stdout.splitlines() if x.startswith("{")]
        if done.returncode or not lines:
            raise RuntimeError(f"{engine} x{workers} failed:\n{done.stderr[-3000:]}")
        result: dict[str, Any] = json.loads(lines[-1])
        result["phases"] = [json.loads(p.read_text()) for p in Path(phases_dir).glob("*.json")]
    return result


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    return env


# -- printing -------------------------------------------------------------------------------
def _rate(r: dict[str, Any]) -> float:
    return float(r["rows"] / r["seconds"])


def _line(name: str, r: dict[str, Any], base: float | None) -> str:
    ratio = f"{_rate(r) / base:5.2f}x" if base else "   --"
    counts = f"{r['rows']:>5} rows ({r['ok']} ok)"
    return f"  {name:<24} {counts} {r['seconds']:7.1f} s {_rate(r):8.1f} rows/s {ratio}"


def where_time_went(r: dict[str, Any], engine: str, workers: int) -> str:
    """The workers' phases as shares of workers x job seconds, and CPU ms per row."""
    figures = r["phases"]
    if not figures:
        return "    (no phase figures)"
    total = workers * r["seconds"]
    sums = dict.fromkeys(PHASES, 0.0)
    for f in figures:
        if engine == "ray" and f["process_age"] is not None:  # actor process start -> judge
            sums["startup"] += max(0.0, min(f["process_age"], f["created"] - r["t0"]))
        sums["build"] += f["build"]
        sums["engine"] += f["engine_in"] + f["engine_out"]
        for k in ("to_rows", "evaluate", "columns"):
            sums[k] += f[k]
    rest = total - sum(sums.values())
    cpu = sum(f["cpu"] for f in figures) / max(1, r["rows"]) * 1000
    shares = ", ".join(f"{k} {v / total:.0%}" for k, v in sums.items())
    judges = len(figures)
    # Cores the judges got on average: below `workers`, the machine (or the engine's
    # own processes) had the rest.
    cores = sum(f["cpu"] for f in figures) / r["seconds"]
    return (
        f"    time: {shares}, other {rest / total:.0%} ({judges} judge(s); "
        f"worker CPU {cpu:.1f} ms/row, {cores:.2f} cores on average)"
    )


def steady_rate(r: dict[str, Any]) -> tuple[float, float] | None:
    """Rows per second once every judge was ready: (rate, seconds of that window).

    The window runs from the moment the last judge was ready to the job's end; a batch
    that straddles its start counts with the share of its span inside it. None without
    the judges' timelines.
    """
    figures = r["phases"]
    if not figures or any(f.get("ready") is None for f in figures):
        return None
    opened, closed = max(f["ready"] for f in figures), r["t0"] + r["seconds"]
    rows = 0.0
    for f in figures:
        for arrived, left, n in f["spans"]:
            inside = min(left, closed) - max(arrived, opened)
            if inside > 0:
                rows += n * inside / max(left - arrived, 1e-9)
    window = closed - opened
    return (rows / window, window) if window > 0 else None


def timeline(r: dict[str, Any]) -> list[str]:
    """The driver's steps (Ray) and each judge's start, readiness, batches and idle end."""
    out = []
    if r.get("steps"):
        steps = ", ".join(f"{k} {v:.1f} s" for k, v in r["steps"].items())
        out.append(f"    driver (outside the job's seconds): {steps}")
    if r.get("tree_cpu"):
        judges = sum(f["cpu"] for f in r["phases"])
        cpu = ", ".join(f"{k} {v:.1f}" for k, v in {**r["tree_cpu"], "judges": judges}.items())
        out.append(f"    CPU seconds during the job: {cpu} (wall {r['seconds']:.1f} s)")
    parts = []
    for f in sorted(r["phases"], key=lambda f: f["created"]):
        begun = f["created"] - (f["process_age"] or 0.0) - r["t0"]
        ready = (f["ready"] or f["created"]) - r["t0"]
        first = f["spans"][0][0] - r["t0"] if f["spans"] else float("nan")
        last = f["spans"][-1][1] - r["t0"] if f["spans"] else float("nan")
        parts.append(
            f"process {begun:+.1f} s, ready {ready:.1f} s, batches {first:.1f}-{last:.1f} s "
            f"({f['batches']} x, {f['rows']} rows)"
        )
    if parts:
        out.append("    judges: " + "; ".join(parts))
    steady = steady_rate(r)
    if steady is not None:
        out.append(
            f"    after start-up (every judge ready): {steady[0]:.1f} rows/s over the job's "
            f"last {steady[1]:.1f} s"
        )
    return out


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


# -- the parts ------------------------------------------------------------------------------
def offline_part(model: str, rows: int, tmp: Path) -> None:
    import pandas as pd

    rows_path = tmp / f"{model}.parquet"
    pd.DataFrame(make_rows(rows)).to_parquet(rows_path)
    job = {"model": model, "concurrency": 8}
    print(f"1. offline judge {model}, {rows} rows, each its own source ({load()})")
    single = run_one("process", 1, rows_path, job)
    base = _rate(single)
    cpu = single["cpu"] / single["rows"] * 1000
    print(_line("one process", single, base) + f"  (CPU {cpu:.1f} ms/row)", flush=True)
    for engine in ("spark", "ray"):
        rates = []
        for workers in (1, 2):
            r = run_one(engine, workers, rows_path, job)
            rates.append(_rate(r))
            print(_line(f"{engine} {workers} worker(s)", r, base))
            print(where_time_went(r, engine, workers), flush=True)
            for text in timeline(r):
                print(text)
            if os.environ.get("BENCH_TIMELINE"):  # every figure of every judge
                for f in sorted(r["phases"], key=lambda f: f["created"]):
                    print(f"      pid {f['pid']}: {f}")
        print(f"  {engine}: 2 workers / 1 worker = {rates[1] / rates[0]:.2f}x (target >= 1.6)")


def llm_part(rows: int, concurrency: int, tmp: Path) -> None:
    import pandas as pd

    llm_path = tmp / "llm.parquet"
    pd.DataFrame(make_rows(rows)).to_parquet(llm_path)
    with fake_server("--latency", "0.2") as url:
        job = {
            "model": "openai/fake-model",
            "base_url": url,
            "enabled_metrics": ["coherence"],
            "logprobs": False,
            "concurrency": concurrency,
        }
        print(
            f"2. LLM judge, 200 ms server, {rows} rows x 1 call, global concurrency "
            f"{concurrency} (ratio: against the single process; {load()})"
        )
        single = run_one("process", 1, llm_path, job)
        base = _rate(single)
        print(_line("single process", single, base), flush=True)
        for engine in ("spark", "ray"):
            print(_line(f"{engine} 2 workers", run_one(engine, 2, llm_path, job), base))
        print(f"  ideal at concurrency {concurrency}: {concurrency / 0.2:.0f} rows/s")
        print(f"  server saw {stats(url)['requests']} requests")


def rpm_window(tmp: Path) -> None:
    """A global rpm of 120 over 2 workers for ~100 s per engine; the busiest 60-s window."""
    import pandas as pd

    from sumjudge.testing import FakeOpenAIServer

    rpm, rows = 120.0, 200
    path = tmp / "rpm.parquet"
    pd.DataFrame(make_rows(rows)).to_parquet(path)
    for engine in ("spark", "ray"):
        with FakeOpenAIServer(latency=0.2, record_requests=False) as server:
            seen: list[float] = []
            answer = server.responder

            def responder(
                body: dict[str, Any], seen: list[float] = seen, answer: Any = answer
            ) -> Any:
                seen.append(time.monotonic())
                return answer(body)

            server.responder = responder
            job = {
                "model": "openai/fake-model",
                "base_url": server.base_url,
                "enabled_metrics": ["coherence"],
                "logprobs": False,
                "concurrency": 8,
                "rpm": rpm,
            }
            r = run_one(engine, 2, path, job)
        seen.sort()
        busiest = max(sum(1 for t in seen[i:] if t - s < 60.0) for i, s in enumerate(seen))
        print(
            f"3. global rpm {rpm:.0f} over 2 {engine} workers: {r['rows']} rows in "
            f"{r['seconds']:.0f} s; busiest 60-s window: {busiest} requests (budget {rpm:.0f})"
        )


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--one":
        engine, workers, rows_path = sys.argv[2], int(sys.argv[3]), sys.argv[4]
        print(json.dumps(one(engine, workers, rows_path, json.loads(sys.argv[5]))))
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=3000)
    parser.add_argument("--local-rows", type=int, default=24)
    parser.add_argument("--llm-rows", type=int, default=400)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--rpm-window", action="store_true")
    parser.add_argument("--only-rpm-window", action="store_true")
    args = parser.parse_args()
    began = time.perf_counter()
    print(f"start: {load()}, {os.cpu_count()} cores", flush=True)
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        if not args.only_rpm_window:
            offline_part("local-lexical", args.rows, tmp)
            if args.local_rows:
                offline_part("local", args.local_rows, tmp)
            if args.llm_rows:
                llm_part(args.llm_rows, args.concurrency, tmp)
        if args.rpm_window or args.only_rpm_window:
            rpm_window(tmp)
    print(f"end: {load()}; the benchmark took {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
