"""Opt-in checks against hosted providers. Skipped unless SUMJUDGE_HOSTED_TESTS=1 and the
provider's key is set; they spend a few cents and need the internet."""

from __future__ import annotations

import os

import pytest

from sumjudge import SummarizationEvaluator, load_simple_summarization_dataset

CASES = [
    ("google/gemini-2.5-flash", "GOOGLE_API_KEY"),
    ("openai/gpt-4o-mini", "OPENAI_API_KEY"),
    ("anthropic/claude-haiku-4-5", "ANTHROPIC_API_KEY"),
]


@pytest.mark.hosted
@pytest.mark.parametrize(("model", "env_var"), CASES)
async def test_hosted_judge_end_to_end(model: str, env_var: str) -> None:
    if os.environ.get("SUMJUDGE_HOSTED_TESTS") != "1" or not os.environ.get(env_var):
        pytest.skip(f"set SUMJUDGE_HOSTED_TESTS=1 and {env_var} to run")
    evaluator = SummarizationEvaluator(model)
    try:
        rows = load_simple_summarization_dataset().load()
        good = (await evaluator.evaluate(rows[1]))["summary"]
        flawed = (await evaluator.evaluate(rows[2]))["summary"]
    finally:
        await evaluator.aclose()
    assert good["relevancy_rating"] in ("good", "incomplete", "bad")
    # the hallucinated figure in row 2 should cost consistency
    assert flawed["consistency"]["score"] <= good["consistency"]["score"]
