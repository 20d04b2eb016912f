"""The specification's import paths (shared/spec) resolve to the package's own objects."""

from __future__ import annotations

import sumjudge
from sumjudge.evaluator.summarization_evaluator import SummarizationEvaluator
from sumjudge.types import SummaryData


def test_the_evaluator_alias_is_the_evaluator() -> None:
    # `gllm_evals.evaluator.summarization_evaluator` in the specification's examples.
    assert SummarizationEvaluator is sumjudge.SummarizationEvaluator
    assert SummaryData is sumjudge.SummaryData
