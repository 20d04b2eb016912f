"""Result files for the comparison tests, made by the real evaluator with a scripted judge.

`judge_run` judges one input row per entry of `scores` (a metric -> 1..3 mapping, None for
an invalid row, "fail" for a row whose replies are unreadable) and writes the records as
`evaluate` does, so the tests read the same shape as users' files.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sumjudge import ScriptedJudge, SummarizationEvaluator

METRICS = ("coherence", "consistency", "relevance", "fluency")
Row = Mapping[str, int] | str | None


def _responder(table: dict[str, Row]) -> Any:
    def reply(request: Any) -> Any:
        summary = request.subject.summary if request.subject is not None else ""
        key = summary.split(" ")[0]
        scores = table[key]
        if scores == "fail":
            return "this is not a verdict"
        metric = next(m for m in METRICS if request.task.startswith(m))
        assert isinstance(scores, Mapping)
        return {"explanation": f"{metric} of {key} is {scores[metric]}", "score": scores[metric]}

    return reply


def judge_run(
    path: Path,
    scores: Sequence[Row],
    *,
    ids: Sequence[str | None] | None = None,
    sources: Sequence[str] | None = None,
    tag: str = "s",
) -> Path:
    """Judge one row per `scores` entry with a scripted judge and write the JSONL records."""
    rows: list[dict[str, Any]] = []
    table: dict[str, Row] = {}
    for i, row_scores in enumerate(scores):
        key = f"{tag}{i}"
        table[key] = row_scores
        summary = "" if row_scores is None else f"{key} is the summary of the story."
        source = sources[i] if sources else f"Story {i}: a long source text about event {i}."
        row: dict[str, Any] = {"input": source, "summary": summary}
        rid = ids[i] if ids is not None else f"item-{i}"
        if rid is not None:
            row["id"] = rid
        rows.append(row)
    judge = ScriptedJudge(responder=_responder(table))
    evaluator = SummarizationEvaluator(model=judge, logprobs=False, cache=None)

    async def run() -> list[dict[str, Any]]:
        out = [r.to_dict() async for r in evaluator.evaluate_batch(rows)]
        await evaluator.aclose()
        return sorted(out, key=lambda r: r["index"])

    records = asyncio.run(run())
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def uniform(n: int, **overrides: int) -> list[dict[str, int]]:
    """`n` rows scoring 2 on every metric except the overrides."""
    return [{m: overrides.get(m, 2) for m in METRICS} for _ in range(n)]
