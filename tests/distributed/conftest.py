"""One local SparkSession and one local Ray for the whole session (they are slow to start)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).parents[1] / "data" / "summeval_slice.jsonl"


def rows(n: int = 200) -> list[dict[str, Any]]:
    """`n` distinct rows from the bundled meetings and the SummEval slice, plus 2 bad rows."""
    from sumjudge.datasets import load_simple_summarization_dataset

    pool = [(d.input, d.summary) for d in load_simple_summarization_dataset().load()]
    for line in DATA.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        pool.append((record["source"], record["summary"]))
    out: list[dict[str, Any]] = []
    for i in range(n - 2):
        source, summary = pool[i % len(pool)]
        sentences = re.split(r"(?<=[.!?])\s+", summary.strip())
        variant = (i // len(pool)) % 4
        if variant == 1 and len(sentences) > 1:
            summary = " ".join(sentences[: max(1, len(sentences) // 2)])
        elif variant == 2:
            summary = summary + " " + pool[(i + 1) % len(pool)][1].split(".")[0] + "."
        elif variant == 3:
            summary = " ".join(reversed(sentences))
        out.append({"id": f"r{i:03d}", "input": source, "summary": summary})
    out.append({"id": "bad-null", "input": "Ana: we ship on Friday.", "summary": None})
    out.append({"id": "bad-empty", "input": "   ", "summary": "The team ships on Friday."})
    return out


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    pytest.importorskip("pyspark")
    pytest.importorskip("pandas")
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2,2]")  # 2 slots; a failed task is retried once
        .appName("sumjudge-tests")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", "16")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="session")
def ray_phases(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the local Ray's actors write their phases (`distributed/phases.py`)."""
    return tmp_path_factory.mktemp("ray-phases")


@pytest.fixture(scope="session")
def ray_local(ray_phases: Path) -> Iterator[Any]:
    ray = pytest.importorskip("ray")
    pytest.importorskip("ray.data")
    from sumjudge.distributed.phases import ENV

    # The actors' phases record each batch's rows: what a test can see of the batches.
    env = {"env_vars": {ENV: str(ray_phases)}}
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        _node_ip_address="127.0.0.1",
        runtime_env=env,
    )
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    yield ray
    ray.shutdown()
