"""What a worker process keeps across tasks, what it reports of its time, the shared limiter."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from sumjudge.distributed import Budget, JobSpec
from sumjudge.distributed.limiter import LimiterHost, SharedLimiter
from sumjudge.distributed.phases import ENV
from sumjudge.distributed.shared import judge_model
from sumjudge.distributed.task import BatchJudge

from .conftest import rows

pd = pytest.importorskip("pandas")


def _spec(**extra: Any) -> JobSpec:
    return JobSpec(
        kind="summary",
        model="local-lexical",
        metrics=("coherence", "consistency", "relevance", "fluency"),
        fields={"input": "input", "summary": "summary"},
        id_col="id",
        share=Budget(concurrency=4).share(workers=1, holders=1),
        **extra,
    )


def test_the_offline_scorer_is_built_once_per_process_and_judges_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV, str(tmp_path))
    frame = pd.DataFrame(rows(12))
    outs, judges, scorers = [], [], []
    for task in range(2):  # two tasks of one Python worker, one after the other
        judge = BatchJudge(_spec(), f"spark-part-{task:05d}")
        outs.append(judge.judge(frame))
        scorers.append(judge.evaluator.judge._scorer)  # type: ignore[attr-defined]
        judges.append(judge)
        judge.close()
    assert scorers[0] is scorers[1]  # the same scorer: its models and the sources it read
    assert judges[1].phases.scorer_reused is True
    cols = ["id", "status", "score", "coherence_score", "result_json"]
    assert outs[0][cols].equals(outs[1][cols])
    figures = [json.loads(p.read_text()) for p in sorted(tmp_path.glob("phases-*.json"))]
    assert len(figures) == 2
    assert all(f["rows"] == 12 and f["batches"] == 1 for f in figures)
    assert all(f["evaluate"] > 0 and f["build"] >= 0 for f in figures)
    for f in figures:  # the timeline: ready before the batch arrived, handed back after
        [(arrived, left, n)] = f["spans"]
        assert f["ready"] <= arrived <= left and n == 12


def test_the_timeline_has_one_span_per_batch_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV, str(tmp_path))
    frame = pd.DataFrame(rows(10))
    judge = BatchJudge(_spec(), "ray-actor")
    for part in (frame.iloc[:3], frame.iloc[3:]):  # two batches of a Ray actor
        judge.judge(part)
    judge.close()
    [figures] = [json.loads(p.read_text()) for p in tmp_path.glob("phases-*.json")]
    assert [n for _, _, n in figures["spans"]] == [3, 7]
    (a1, l1, _), (a2, l2, _) = figures["spans"]
    assert figures["ready"] <= a1 <= l1 <= a2 <= l2


def test_ray_batches_are_about_a_second_of_the_judge() -> None:
    from sumjudge.ray import batch_rows, batches_in_flight

    # The offline judges' batches are small (CPU-bound rows); an LLM's keep a long window.
    assert batch_rows("local") < batch_rows("local-lexical") < batch_rows("openai/gpt-4o-mini")
    assert batch_rows(["local-lexical", "openai/gpt-4o-mini"]) == batch_rows("openai/x")
    assert batch_rows(["local", "local-lexical"]) == batch_rows("local")
    # A second batch waits at the actor only when batches are short.
    assert batches_in_flight(batch_rows("local-lexical")) == 2
    assert batches_in_flight(batch_rows("openai/gpt-4o-mini")) == 1


def test_only_the_offline_judges_are_kept() -> None:
    assert judge_model("openai/gpt-4o-mini", {}) == ("openai/gpt-4o-mini", False)
    assert judge_model(("openai/a", "openai/b"), {}) == (("openai/a", "openai/b"), False)
    # A calibration profile builds its own offline judge from the name.
    assert judge_model("local-lexical", {"calibration": "p.json"}) == ("local-lexical", False)


class _InProcess:
    """A `LimitsClient` calling a host in this process (Ray's is `sumjudge.ray.RayLimits`)."""

    def __init__(self, host: LimiterHost) -> None:
        self.host = host
        self.sent: list[tuple[str, Any]] = []

    async def acquire(self, key: str, tokens: int) -> int:
        return await self.host.acquire(key, tokens)

    def settle(self, key: str, ticket: int | None, extra_tokens: int) -> None:
        self.sent.append(("settle", (key, ticket, extra_tokens)))
        asyncio.get_running_loop().create_task(self.host.settle(key, ticket, extra_tokens))

    def pause(self, key: str, seconds: float) -> None:
        self.sent.append(("pause", (key, seconds)))
        asyncio.get_running_loop().create_task(self.host.pause(key, seconds))


def test_shared_limiters_draw_on_one_host() -> None:
    async def run() -> tuple[_InProcess, dict[str, float]]:
        host = LimiterHost(requests_per_minute=600, tokens_per_minute=100_000)
        client = _InProcess(host)
        a, b = SharedLimiter(client, "openai/m"), SharedLimiter(client, "openai/m")
        tickets = [await a.acquire(100), await b.acquire(100), await a.acquire(100)]
        a.settle(50, tickets[0])
        b.settle(0, tickets[1])  # nothing to correct: nothing sent
        b.pause(0.5)
        await asyncio.sleep(0)
        return client, await host.stats()

    client, stats = asyncio.run(run())
    assert stats["granted"] == 3  # both workers' requests counted in one place
    assert client.sent == [("settle", ("openai/m", 1, 50)), ("pause", ("openai/m", 0.5))]
