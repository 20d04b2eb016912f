"""Judge panels: every member judges every metric; aggregates, failures, caches, costs, alpha."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import krippendorff
import numpy as np
import pytest

from sumjudge import (
    AuthError,
    ConfigError,
    RequestError,
    RetryPolicy,
    ScriptedJudge,
    SummarizationEvaluator,
    SummaryData,
)
from sumjudge.cache import ResponseCache
from sumjudge.evaluators.panel import member_limiters
from sumjudge.evaluators.panel_agreement import panel_agreement
from sumjudge.noise.agreement import krippendorff_alpha_ordinal, ordinal_alpha_with_interval
from sumjudge.testing.openai_server import FakeOpenAIServer

NO_WAIT = RetryPolicy(initial_delay=0.0, max_delay=0.0, max_retry_after=0.0, jitter=False)
DATA = SummaryData(input="Rina: we ship on Friday. Budi: agreed.", summary="They ship Friday.")

# Krippendorff (2011), "Computing Krippendorff's alpha-reliability", the reliability data
# matrix of four observers and twelve units (None: no value); published alphas: nominal
# 0.743, ordinal 0.815, interval 0.849.
K2011 = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
]


def units(coders: list[list[Any]]) -> list[list[Any]]:
    return [list(u) for u in zip(*coders, strict=True)]


def v(score: int) -> dict[str, Any]:
    return {"explanation": f"Scored {score}.", "score": score}


def member(name: str, score: int) -> ScriptedJudge:
    return ScriptedJudge(responder=lambda _: v(score), name=name)


def panel(*judges: Any, **kw: Any) -> SummarizationEvaluator:
    kw.setdefault("warm_prefix_tokens", None)
    return SummarizationEvaluator(list(judges), retry_policy=NO_WAIT, **kw)


def test_ordinal_alpha_matches_the_published_example() -> None:
    alpha = krippendorff_alpha_ordinal(units(K2011))
    assert alpha is not None and round(alpha, 3) == 0.815
    ref = krippendorff.alpha(
        reliability_data=np.array(K2011, dtype=float), level_of_measurement="ordinal"
    )
    assert alpha == pytest.approx(ref, abs=1e-12)


def test_ordinal_alpha_against_the_reference_on_random_panels() -> None:
    rng = random.Random(7)
    for _ in range(20):
        coders = [
            [rng.choice([1, 2, 3, 3, None]) for _ in range(25)] for _ in range(rng.randint(2, 4))
        ]
        ref = krippendorff.alpha(
            reliability_data=np.array(coders, dtype=float), level_of_measurement="ordinal"
        )
        got = krippendorff_alpha_ordinal(units(coders))
        assert got == pytest.approx(ref, abs=1e-9)


def test_alpha_perfect_agreement_and_undefined_cases() -> None:
    assert krippendorff_alpha_ordinal([[1, 1], [2, 2], [3, 3]]) == pytest.approx(1.0)
    assert krippendorff_alpha_ordinal([[2, 2], [2, 2]]) is None  # no variation
    assert krippendorff_alpha_ordinal([[1, None], [2, None]]) is None  # nothing pairable
    result = ordinal_alpha_with_interval(units(K2011), resamples=500)
    assert result.ci_low is not None and result.ci_high is not None
    assert result.ci_low <= result.alpha <= result.ci_high  # type: ignore[operator]
    assert result.units == 11  # unit 12 has one value only


@pytest.mark.parametrize(
    ("how", "expected"), [("median", 2), ("mean", 2), ("min", 1), ("majority", 2)]
)
async def test_every_member_judges_every_metric_and_the_aggregate(how: str, expected: int) -> None:
    a, b, c = member("scripted/a", 1), member("scripted/b", 2), member("scripted/c", 3)
    evaluator = panel(a, b, c, enabled_metrics=["coherence", "fluency"], panel_aggregate=how)
    result = await evaluator.evaluate_result(DATA)
    assert [len(j.requests) for j in (a, b, c)] == [2, 2, 2]
    coherence = result.metrics["coherence"]
    assert coherence.score == expected and coherence.judges == 3
    assert [p["judge"] for p in coherence.panel] == ["scripted/a", "scripted/b", "scripted/c"]
    assert [p["score"] for p in coherence.panel] == [1, 2, 3]
    body = result.to_dict()["summary"]["coherence"]
    assert body["panel"][0] == {
        "judge": "scripted/a",
        "score": 1,
        "explanation": "Scored 1.",
        "weighted_score": None,
    }
    assert body["judges"] == 3


async def test_median_of_two_rounds_half_up() -> None:
    evaluator = panel(member("scripted/a", 2), member("scripted/b", 3), enabled_metrics=["fluency"])
    assert (await evaluator.evaluate_result(DATA)).metrics["fluency"].score == 3


async def test_a_failing_member_leaves_the_others_aggregate() -> None:
    broken = ScriptedJudge(responder=lambda _: AuthError("bad key"), name="scripted/broken")
    evaluator = panel(member("scripted/a", 3), broken, member("scripted/c", 3))
    records = [r async for r in evaluator.evaluate_batch([DATA])]
    record = records[0]
    assert record.status == "ok"
    body = record.to_dict()["summary"]
    assert body["relevancy_rating"] == "good"
    for name in ("coherence", "consistency", "relevance", "fluency"):
        assert body[name]["judges"] == 2 and body[name]["score"] == 3
        failed = [p for p in body[name]["panel"] if p["judge"] == "scripted/broken"]
        assert failed[0]["score"] is None and "bad key" in failed[0]["error"]


async def test_every_member_failing_fails_the_metric() -> None:
    broken = [
        ScriptedJudge(responder=lambda _: RequestError("no"), name=f"scripted/x{i}") for i in (1, 2)
    ]
    evaluator = panel(*broken, enabled_metrics=["fluency"])
    records = [r async for r in evaluator.evaluate_batch([DATA])]
    assert records[0].status == "failed"
    assert "every panel member failed" in records[0].failures[0]["reason"]


async def test_members_keep_their_cache_identity_and_cost_lines(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    prices = {
        "scripted/a": {"input": 1.0, "output": 2.0},
        "scripted/b": {"input": 10.0, "output": 20.0},
    }

    def build() -> tuple[SummarizationEvaluator, ScriptedJudge, ScriptedJudge]:
        a, b = member("scripted/a", 3), member("scripted/b", 2)
        ev = panel(a, b, enabled_metrics=["fluency"], cache=cache, prices=prices)
        return ev, a, b

    evaluator, _, _ = build()
    _ = [r async for r in evaluator.evaluate_batch([DATA])]
    assert len(cache) == 2  # one reply per member: the members' keys differ
    costs = evaluator.last_panel_costs
    assert costs is not None and set(costs) == {"scripted/a", "scripted/b"}
    assert costs["scripted/a"]["judge_calls"] == 1 and costs["scripted/b"]["judge_calls"] == 1
    assert costs["scripted/b"]["cost_usd"] == pytest.approx(10 * costs["scripted/a"]["cost_usd"])
    again, a2, b2 = build()
    _ = [r async for r in again.evaluate_batch([DATA])]
    assert a2.requests == [] and b2.requests == []  # both answered from the cache
    cache.close()


def test_each_member_has_its_own_rate_limiter() -> None:
    evaluator = panel(member("scripted/a", 3), member("scripted/b", 3))
    limiters = member_limiters(evaluator.members, 60, None)
    assert limiters is not None and set(limiters) == {"scripted/a", "scripted/b"}
    assert limiters["scripted/a"] is not limiters["scripted/b"]
    assert member_limiters(evaluator.members, None, None) is None


def test_panel_refusals() -> None:
    with pytest.raises(ConfigError, match="twice"):
        panel(member("scripted/a", 3), member("scripted/a", 2))
    with pytest.raises(ConfigError, match="LLM judge"):
        SummarizationEvaluator(["local", ScriptedJudge(name="scripted/b")])
    with pytest.raises(ConfigError, match="panel_aggregate"):
        panel(member("scripted/a", 3), member("scripted/b", 2), panel_aggregate="max")


async def test_panel_agreement_over_a_run() -> None:
    script_a = [v(s) for s in (1, 2, 3, 3, 1)]
    script_b = [v(s) for s in (1, 2, 3, 2, 1)]
    a = ScriptedJudge(script_a, name="scripted/a")
    b = ScriptedJudge(script_b, name="scripted/b")
    evaluator = panel(a, b, enabled_metrics=["fluency"])
    results = [await evaluator.evaluate_result(DATA) for _ in range(5)]
    agreement = panel_agreement(results)["fluency"]
    expected = krippendorff_alpha_ordinal([[1, 1], [2, 2], [3, 3], [3, 2], [1, 1]])
    assert agreement.alpha == pytest.approx(expected)
    assert agreement.units == 5


def test_a_three_member_panel_through_the_cli(tmp_path: Path) -> None:
    data = tmp_path / "in.jsonl"
    data.write_text(
        "".join(
            json.dumps(
                {"id": f"r{i}", "input": f"Meeting {i}: we ship Friday.", "summary": "Ship."}
            )
            + "\n"
            for i in range(3)
        ),
        encoding="utf-8",
    )
    out, summary = tmp_path / "out.jsonl", tmp_path / "summary.json"
    with FakeOpenAIServer() as srv:
        env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
        env["OPENAI_API_KEY"] = "test-key-for-the-local-server"
        proc = subprocess.run(
            [
                sys.executable, "-m", "sumjudge.cli.main", "evaluate", str(data),
                "--model", "openai/m1", "--model", "openai/m2", "--model", "openai/m3",
                "--base-url", srv.base_url, "--no-cache", "--no-progress", "-o", str(out),
                "--metrics", "coherence,fluency", "--summary-json", str(summary),
            ],
            capture_output=True, text=True, env=env, timeout=120,
        )  # fmt: skip
        requests = len(srv.requests)
    assert proc.returncode in (0, 1), proc.stderr
    assert requests == 3 * 2 * 3  # items x metrics x members
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert all(line["summary"]["coherence"]["judges"] == 3 for line in lines)
    figures = json.loads(summary.read_text())
    assert set(figures["averages"]["panel_agreement"]) == {"coherence", "fluency"}
    assert set(figures["averages"]["panel_members"]) == {"openai/m1", "openai/m2", "openai/m3"}
    assert "panel agreement (Krippendorff's alpha, ordinal)" in proc.stderr
    assert "test-key-for-the-local-server" not in proc.stderr + out.read_text()


async def test_a_panel_with_samples_keeps_each_members_samples() -> None:
    a, b = member("scripted/a", 3), member("scripted/b", 2)
    evaluator = panel(a, b, enabled_metrics=["fluency"], samples=3)
    result = await evaluator.evaluate_result(DATA)
    assert len(a.requests) == 3 and len(b.requests) == 3
    entries = result.metrics["fluency"].panel
    assert [e["samples"] for e in entries] == [[3, 3, 3], [2, 2, 2]]


def test_the_dry_run_counts_every_members_requests() -> None:
    evaluator = panel(member("scripted/a", 3), member("scripted/b", 2), member("scripted/c", 1))
    estimate = evaluator.estimate_cost([DATA, DATA])
    assert estimate.items == 2 and estimate.requests == 2 * 4 * 3


def test_uncertain_below_on_the_command_line(tmp_path: Path) -> None:
    data = tmp_path / "in.jsonl"
    data.write_text(json.dumps({"input": "Rina: we ship Friday.", "summary": "Ship."}) + "\n")
    outs = {}
    with FakeOpenAIServer() as srv:
        for threshold in ("0.01", "0.99"):
            out = tmp_path / f"out{threshold}.jsonl"
            proc = subprocess.run(
                [
                    sys.executable, "-m", "sumjudge.cli.main", "evaluate", str(data),
                    "--model", "openai/fake-model", "--base-url", srv.base_url, "--no-cache",
                    "--no-progress", "-o", str(out), "--uncertain-below", threshold,
                ],
                capture_output=True, text=True, timeout=120,
            )  # fmt: skip
            assert proc.returncode in (0, 1), proc.stderr
            outs[threshold] = json.loads(out.read_text())["summary"]
    low, high = outs["0.01"], outs["0.99"]
    assert 0 < low["rating_confidence"] < 0.99
    assert low["uncertain"] is False and high["uncertain"] is True


async def test_one_members_refused_key_does_not_stop_the_run() -> None:
    from sumjudge import RunSummary

    broken = ScriptedJudge(responder=lambda _: AuthError("bad key"), name="scripted/broken")
    evaluator = panel(member("scripted/a", 3), broken, enabled_metrics=["fluency"])
    summary = RunSummary()
    records = [r async for r in evaluator.evaluate_batch([DATA] * 4, summary=summary)]
    assert [r.status for r in records] == ["ok"] * 4
    assert not summary.key_refused and summary.not_run == 0
    assert all(r.result.metrics["fluency"].judges == 1 for r in records)


async def test_every_members_refused_key_stops_the_run() -> None:
    from sumjudge import RunSummary

    broken = [
        ScriptedJudge(responder=lambda _: AuthError("no"), name=f"scripted/x{i}") for i in (1, 2)
    ]
    evaluator = panel(*broken, enabled_metrics=["fluency"])
    summary = RunSummary()
    _ = [r async for r in evaluator.evaluate_batch([DATA] * 20, summary=summary, concurrency=1)]
    assert summary.key_refused and summary.not_run > 0
