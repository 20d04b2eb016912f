"""Compatibility import paths matching the specification's examples.

`from sumjudge.evaluator.summarization_evaluator import SummarizationEvaluator` works like
`from sumjudge import SummarizationEvaluator`.
"""
