"""Spark and Ray give exactly the single-process results, id by id; bad rows stay rows."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from sumjudge import SummarizationEvaluator

from .conftest import rows

pd = pytest.importorskip("pandas")

METRICS = ("coherence", "consistency", "relevance", "fluency")


@pytest.fixture(scope="module")
def data() -> list[dict[str, Any]]:
    return rows(200)


@pytest.fixture(scope="module")
def single_process(data: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    async def run() -> dict[str, dict[str, Any]]:
        evaluator = SummarizationEvaluator(model="local-lexical")
        out = {}
        async for record in evaluator.evaluate_batch(data, concurrency=4):
            out[data[record.index]["id"]] = record.to_dict()
        await evaluator.aclose()
        return out

    return asyncio.run(run())


def _check(frame: Any, expected: dict[str, dict[str, Any]]) -> None:
    assert sorted(frame["id"]) == sorted(expected)
    for row in frame.to_dict("records"):
        want = expected[row["id"]]
        assert row["status"] == want["status"], row["id"]
        if want["status"] == "invalid":
            assert row["result_json"] and json.loads(row["result_json"])["status"] == "invalid"
            assert "column" in row["error"] and row["id"] in row["error"]
            assert pd.isna(row["coherence_score"])
            continue
        summary = want["summary"]
        for m in METRICS:
            assert row[f"{m}_score"] == summary[m]["score"], (row["id"], m)
            assert row[f"{m}_explanation"] == summary[m]["explanation"], (row["id"], m)
            assert row[f"{m}_normalized"] == summary[m]["normalized_score"]
        assert row["relevancy_rating"] == summary["relevancy_rating"]
        assert row["score"] == summary["score"] and row["avg_score"] == summary["avg_score"]
        assert row["binary_score"] == summary["binary_score"]
        assert row["global_explanation"] == summary["global_explanation"]
        assert json.loads(row["result_json"])["summary"] == summary


def test_spark_matches_the_single_process(spark: Any, data: list, single_process: dict) -> None:
    from sumjudge.spark import evaluate_spark

    df = spark.createDataFrame(pd.DataFrame(data)).repartition(4)
    out = evaluate_spark(df, id_col="id", model="local-lexical", concurrency=4)
    names = [f.name for f in out.schema.fields]
    assert names[:3] == list(df.columns)  # the input's columns first, unchanged
    assert dict(out.dtypes)["coherence_score"] == "bigint"
    assert dict(out.dtypes)["coherence_weighted"] == "double"
    frame = out.toPandas()
    assert len(frame) == len(data)
    _check(frame, single_process)


def test_ray_matches_the_single_process(ray_local: Any, data: list, single_process: dict) -> None:
    from sumjudge.ray import evaluate_ray

    frame = pd.DataFrame(data)
    parts = [frame.iloc[i : i + 50] for i in range(0, len(frame), 50)]
    ds = ray_local.data.from_pandas(parts)
    out = evaluate_ray(ds, id_col="id", model="local-lexical", workers=2, batch_size=25)
    result = out.to_pandas()
    assert list(result.columns[:3]) == ["id", "input", "summary"]
    assert len(result) == len(data)
    _check(result, single_process)
