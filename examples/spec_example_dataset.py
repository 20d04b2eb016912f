"""The specification's first example, with sumjudge's import path."""

import asyncio
import json
import os

from sumjudge import load_simple_summarization_dataset
from sumjudge.evaluator.summarization_evaluator import SummarizationEvaluator


async def main():
    """Run a single summary evaluation example."""
    evaluator = SummarizationEvaluator(model_credentials=os.getenv("GOOGLE_API_KEY"))
    data = load_simple_summarization_dataset().load()[0]

    result = await evaluator.evaluate(data)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
