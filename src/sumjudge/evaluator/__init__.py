"""The specification's import path, kept on purpose as a thin alias (not dead code).

The specification (`summarization-evaluator.md`) imports the evaluator as
`<package>.evaluator.summarization_evaluator.SummarizationEvaluator`, so
`from sumjudge.evaluator.summarization_evaluator import SummarizationEvaluator` works
like `from sumjudge import SummarizationEvaluator` (the same class). Nothing inside the
package imports this alias; the code lives in `sumjudge.evaluators`.
"""
