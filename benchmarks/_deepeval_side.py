"""DeepEval side of benchmarks/cost_vs_deepeval.py; runs in the benchmark venv (/work/benchvenv).

Configuration: deepeval's GPTModel pointed at the fake server (base_url), model name
"gpt-4o-mini" (so DeepEval uses native structured output and logprobs, as it would with
OpenAI), temperature 0. One GEval metric per criterion (Coherence, Consistency, Relevance,
Fluency), evaluation_params=[INPUT, ACTUAL_OUTPUT] (input = source, actual output =
summary), with explicit evaluation_steps (sumjudge's own steps for that metric, so no extra
step-generation call and the same instructions), top_logprobs=20 (DeepEval's default),
async_mode, each metric measured with a_measure on every row.

Usage: python _deepeval_side.py BASE_URL ROWS.jsonl STEPS.json
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("DEEPEVAL_TELEMETRY_OPT_OUT", "1")

from deepeval.metrics import GEval
from deepeval.models import GPTModel
from deepeval.test_case import LLMTestCase, SingleTurnParams


async def main(base_url: str, rows_path: str, steps_path: str) -> None:
    rows = [json.loads(x) for x in Path(rows_path).read_text("utf-8").splitlines()]  # noqa: ASYNC240
    steps = json.loads(Path(steps_path).read_text("utf-8"))  # noqa: ASYNC240
    model = GPTModel(
        model="gpt-4o-mini",
        base_url=base_url,
        api_key="sk-bench-not-a-real-key",
        temperature=0,
        cost_per_input_token=1e-6,
        cost_per_output_token=4e-6,
    )
    sem = asyncio.Semaphore(16)
    failures = 0

    async def one(row: dict[str, str], name: str) -> None:
        nonlocal failures
        metric = GEval(
            name=name.capitalize(),
            evaluation_steps=steps[name],
            evaluation_params=[SingleTurnParams.INPUT, SingleTurnParams.ACTUAL_OUTPUT],
            model=model,
            async_mode=True,
        )
        case = LLMTestCase(input=row["input"], actual_output=row["summary"])
        async with sem:
            try:
                await metric.a_measure(case, _show_indicator=False)
            except Exception as exc:  # count, keep going
                failures += 1
                print(f"deepeval error: {exc!r}", file=sys.stderr)

    await asyncio.gather(*(one(r, m) for r in rows for m in steps))
    print(json.dumps({"rows": len(rows), "failures": failures}))


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
