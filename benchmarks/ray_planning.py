"""Benchmark: what Ray's object store holds for a CLI job, and what cutting 1M rows costs.

1. --store ROWS: the data flow of `sumjudge evaluate FILE --engine ray` on a Parquet
   file of ROWS rows (the rows of `benchmarks/distributed.py`, each with a source of its
   own), with a stand-in judge (an actor that adds a column and sleeps 2 ms a row, so the
   job lasts long enough to sample) on 2 CPUs and 2 actors:
   "before" is the CLI up to this change: the file read and materialized, then cut by
   `repartition(ceil(rows / batch)).materialize()` while the read copy is still held;
   "after" is the CLI now: the file read lazily and cut by `sumjudge.ray.cut_in_batches`
   (on 2 CPUs with 2 actors the cut is made before the actors start, as one copy).
   The object store's use (`ray.cluster_resources()` minus `ray.available_resources()`,
   "object_store_memory") is printed after each step (read 3 s after it: Ray reports it
   with a lag) and at its peak during the job (sampled every 50 ms); the job's output is
   materialized in both, as the CLI does.
2. --plan ROWS: the cost of one task per batch on a large input: ROWS tiny rows (an id,
   a one-sentence source and summary) in one Parquet file, read lazily, cut by
   `cut_in_batches` at the `local-lexical` batch (64 rows; what a lazy input whose count
   is unknown gets) and at the bound of `sumjudge.ray.rows_per_block` (what the CLI's
   Parquet file and a materialized input get), and then a trivial actor map (2 actors,
   the batch handed back unchanged): the blocks, the seconds of the cut (read included),
   of the map, and the map's milliseconds per block.
   Nothing is judged.

Every configuration runs in its own subprocess (a fresh Ray). The load average is printed
at the start and the end.

Reproduce:
    python benchmarks/ray_planning.py --store 20000
    python benchmarks/ray_planning.py --plan 1000000
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).parents[1]
MIB = 1024 * 1024
_SETTLE = 3.0


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def _store_used(settle: float = 0.0) -> float:
    """MiB of the object store in use, read after `settle` seconds.

    Ray reports the store's use with a lag (a freed intermediate block still counts for
    a moment): a figure read after a step waits 3 s.
    """
    import ray

    time.sleep(settle)
    total = ray.cluster_resources().get("object_store_memory", 0.0)
    free = ray.available_resources().get("object_store_memory", 0.0)
    return float(total - free) / MIB


class _Peak:
    """The object store's peak use while it runs (a thread sampling every 50 ms)."""

    def __init__(self) -> None:
        self.peak = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, _store_used())
            time.sleep(0.05)

    def __enter__(self) -> _Peak:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


class StandIn:
    """A judge that costs `pause` seconds a row and adds one column."""

    def __init__(self, pause: float) -> None:
        self.pause = pause

    def __call__(self, batch: Any) -> Any:
        import pyarrow as pa

        time.sleep(self.pause * batch.num_rows)
        return batch.append_column("judged", pa.array([1] * batch.num_rows, pa.int64()))


def _ray(cpus: int) -> Any:
    import ray

    ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)
    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False
    context.execution_options.preserve_order = True  # as the CLI asks
    return ray


def _judge(data: Any, pause: float) -> Any:
    import ray.data

    return data.map_batches(
        StandIn,
        fn_constructor_kwargs={"pause": pause},
        compute=ray.data.ActorPoolStrategy(size=2, max_tasks_in_flight_per_actor=2),
        batch_size=None,
        batch_format="pyarrow",
        num_cpus=1,
    )


def store_flow(flow: str, path: str, batch: int) -> dict[str, Any]:
    """One CLI data flow ("before" / "after"); the store's MiB after each step."""
    ray = _ray(2)
    from sumjudge.ray import cut_in_batches

    steps: dict[str, float] = {"start": _store_used(_SETTLE)}
    if flow == "before":
        read = ray.data.read_parquet(path).materialize()
        steps["read"] = _store_used(_SETTLE)
        blocks = max(1, math.ceil(read.count() / batch))
        cut = read.repartition(blocks).materialize()  # `read` is still held, as in the CLI
    else:
        cut = cut_in_batches(ray.data.read_parquet(path), batch, 2, actor_cpus=2.0)
    steps["cut"] = _store_used(_SETTLE)
    with _Peak() as peak:
        out = _judge(cut, 0.002).materialize()
    steps["job peak"] = peak.peak
    blocks = cut.num_blocks()
    del cut  # the CLI holds no cut copy after the job (before: it still held the read one)
    steps["after the job"] = _store_used(_SETTLE)
    return {"rows": out.count(), "blocks": blocks, "mib": steps}


def plan_flow(path: str, batch: int) -> dict[str, Any]:
    """Cut `path` at `batch` rows and run a trivial map over the blocks."""
    ray = _ray(2)
    from sumjudge.ray import cut_in_batches

    began = time.perf_counter()
    cut = cut_in_batches(ray.data.read_parquet(path), batch, 2, actor_cpus=2.0)
    blocks = cut.num_blocks()
    cut_s = time.perf_counter() - began
    began = time.perf_counter()
    rows = _judge(cut, 0.0).count()
    map_s = time.perf_counter() - began
    return {"rows": rows, "blocks": blocks, "cut_s": cut_s, "map_s": map_s}


def _in_subprocess(*args: str) -> dict[str, Any]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    command = [sys.executable, __file__, "--one", *args]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    lines = [x for x in done.stdout.splitlines() if x.startswith("{")]
    if done.returncode or not lines:
        raise RuntimeError(f"{args} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def store_part(rows: int, tmp: Path) -> None:
    import pandas as pd

    sys.path.insert(0, str(Path(__file__).parent))
    from distributed import make_rows

    path = tmp / "store.parquet"
    pd.DataFrame(make_rows(rows)).to_parquet(path)
    size = path.stat().st_size / MIB
    print(f"1. object store, MiB in use; {rows} rows, {size:.1f} MiB of Parquet ({load()})")
    for flow in ("before", "after"):
        r = _in_subprocess("store", flow, str(path), "64")
        figures = ", ".join(f"{k} {v:.1f}" for k, v in r["mib"].items())
        print(f"  {flow:<7} {r['blocks']} blocks, {r['rows']} rows: {figures}", flush=True)


def plan_part(rows: int, tmp: Path) -> None:
    import pandas as pd

    path = tmp / "plan.parquet"
    frame = pd.DataFrame(
        {
            "id": [f"r{i:07d}" for i in range(rows)],
            "input": [f"Ana ships release {i} on Friday." for i in range(rows)],
            "summary": [f"Release {i} ships Friday." for i in range(rows)],
        }
    )
    frame.to_parquet(path)
    print(f"2. {rows} tiny rows, cut and a trivial map on 2 actors ({load()})")
    from sumjudge.ray import batch_rows, rows_per_block

    batch = batch_rows("local-lexical")
    # Unbounded: a lazy input whose count is unknown (JSON, CSV) is cut at the batch;
    # bounded: the CLI's Parquet file (its footer's count) and any materialized input.
    for name, size in (("unbounded", batch), ("bounded", rows_per_block(rows, batch, 2))):
        r = _in_subprocess("plan", str(path), str(size))
        per_block = r["map_s"] / max(1, r["blocks"]) * 1000
        print(
            f"  {name:<9} {size:>4} rows a block: {r['blocks']:>6} blocks; cut (read "
            f"included) {r['cut_s']:.1f} s, map {r['map_s']:.1f} s ({per_block:.2f} ms a "
            f"block); {r['rows']} rows",
            flush=True,
        )


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--one":
        kind = sys.argv[2]
        if kind == "store":
            result = store_flow(sys.argv[3], sys.argv[4], int(sys.argv[5]))
        else:
            result = plan_flow(sys.argv[3], int(sys.argv[4]))
        print(json.dumps(result))
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--store", type=int, default=0, help="rows of the object-store part")
    parser.add_argument("--plan", type=int, default=0, help="rows of the planning part")
    args = parser.parse_args()
    began = time.perf_counter()
    print(f"start: {load()}, {os.cpu_count()} cores", flush=True)
    with tempfile.TemporaryDirectory() as name:
        if args.store:
            store_part(args.store, Path(name))
        if args.plan:
            plan_part(args.plan, Path(name))
    print(f"end: {load()}; the benchmark took {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
