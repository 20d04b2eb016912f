"""A lazy Ray Dataset (one Parquet file, read as one block) is shared by the actors."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import rows

pd = pytest.importorskip("pandas")


def _rows_per_actor(phases: Path, started: float) -> dict[str, list[int]]:
    """Each actor created after `started`: the rows of every batch it judged."""
    figures = [json.loads(p.read_text("utf-8")) for p in phases.glob("phases-*.json")]
    return {f["worker"]: [n for _, _, n in f["spans"]] for f in figures if f["created"] >= started}


@pytest.mark.parametrize(
    "actor_cpus",
    [
        # The actors leave a CPU: the read and the cut run beside the judging.
        0.5,
        # The actors take both CPUs: the read and the cut run before they start.
        1.0,
    ],
)
def test_a_lazy_parquet_file_is_judged_in_balanced_batches_in_order(
    ray_local: Any, ray_phases: Path, tmp_path: Path, actor_cpus: float
) -> None:
    from sumjudge.ray import evaluate_ray, spare_cpus

    data = rows(300)
    path = tmp_path / "lazy.parquet"
    pd.DataFrame(data).to_parquet(path)
    assert (spare_cpus(2 * actor_cpus) >= 1) is (actor_cpus < 1)  # the fixture has 2 CPUs
    # A Dataset keeps the context it was made in: the order is asked for before the read.
    context = ray_local.data.DataContext.get_current()
    kept, context.execution_options.preserve_order = context.execution_options.preserve_order, True
    started = time.time()
    try:
        ds = ray_local.data.read_parquet(str(path))  # lazy: nothing read yet, one file
        out = evaluate_ray(
            ds, id_col="id", model="local-lexical", workers=2, batch_size=25, num_cpus=actor_cpus
        ).to_pandas()
    finally:
        context.execution_options.preserve_order = kept
    assert list(out["id"]) == [r["id"] for r in data]  # every row, in the file's order
    per_actor = _rows_per_actor(ray_phases, started)
    assert len(per_actor) == 2
    assert all(n <= 25 for spans in per_actor.values() for n in spans)
    # Both actors judged a fair share (the old code gave the one block to one actor):
    # 12 batches of 25, so at most a few batches' difference between the two.
    judged = sorted(sum(spans) for spans in per_actor.values())
    assert sum(judged) == 300
    assert judged[0] >= 100, per_actor


def test_blocks_are_of_equal_size_and_bounded_in_number() -> None:
    pytest.importorskip("ray")
    from sumjudge.ray import BLOCKS_PER_ACTOR, rows_per_block

    assert rows_per_block(12, 5, 2) == 4  # ceil(12 / 5) = 3 blocks of 4, not 5 + 5 + 2
    assert rows_per_block(600, 64, 2) == 60
    assert rows_per_block(10, 64, 2) == 10  # one block
    # A million rows at 64 a batch would be 15,625 blocks: the batches grow instead.
    bounded = rows_per_block(1_000_000, 64, 2)
    assert bounded == 500 and 1_000_000 / bounded <= BLOCKS_PER_ACTOR * 2
    assert rows_per_block(1_000_000, 64, 8) == 125  # more actors, more (smaller) blocks
