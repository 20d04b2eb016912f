"""Regressions say when the fall is within one item's uncertainty (docs/compare.md)."""

from __future__ import annotations

from typing import Any

from sumjudge import SummarizationEvaluator, compare_results
from sumjudge.testing.openai_server import FakeOpenAIServer, Reply

ITEMS = [{"id": f"i{k}", "input": f"Rina ships release {k} on Friday.", "summary": "Ships."}
         for k in range(3)]  # fmt: skip


async def judged(score: int, digit_probs: tuple[float, float, float]) -> list[dict[str, Any]]:
    """Records of the real evaluator through the local server, every metric at `score`."""
    with FakeOpenAIServer(digit_probs=digit_probs) as srv:
        srv.responder = lambda body: Reply.json(
            {"explanation": f"It is a {score}.", "score": score}
        )
        ev = SummarizationEvaluator("openai/fake-model", base_url=srv.base_url)
        try:
            return [r.to_dict() async for r in ev.evaluate_batch(ITEMS)]
        finally:
            await ev.aclose()


async def test_a_drop_between_spread_distributions_is_within_uncertainty() -> None:
    base = await judged(3, (0.5, 0.3, 0.2))
    candidate = await judged(2, (0.5, 0.3, 0.2))
    assert base[0]["summary"]["coherence"]["distribution"] is not None
    result = compare_results(base, candidate, n_resamples=200)
    assert len(result.regressions) == 3
    for reg in result.regressions:
        p = reg.metrics["coherence"]["p_not_worse"]
        assert p is not None and 0.25 <= p < 1
        assert reg.within_uncertainty is True
    assert "(within uncertainty)" in result.to_markdown()


async def test_a_drop_between_sharp_distributions_is_not() -> None:
    base = await judged(3, (0.98, 0.01, 0.01))
    candidate = await judged(2, (0.98, 0.01, 0.01))
    result = compare_results(base, candidate, n_resamples=200)
    assert result.regressions
    for reg in result.regressions:
        assert reg.metrics["coherence"]["p_not_worse"] < 0.25
        assert reg.within_uncertainty is False


def test_without_distributions_it_is_unknown(tmp_path: Any) -> None:
    from compare_runs import judge_run

    base = judge_run(tmp_path / "b.jsonl", [{m: 3 for m in ("coherence", "consistency",
                     "relevance", "fluency")}])  # fmt: skip
    cand = judge_run(tmp_path / "c.jsonl", [{m: 1 for m in ("coherence", "consistency",
                     "relevance", "fluency")}])  # fmt: skip
    (reg,) = compare_results(base, cand, n_resamples=100).regressions
    assert reg.within_uncertainty is None and reg.metrics["coherence"]["p_not_worse"] is None
