"""Benchmark: what rendering the LLM prompt costs the offline judge (issue 25 section 1).

The offline judge reads a request's `kind` and `subject`, never its messages, and says so
(`Capabilities.reads_prompt` False), so the metrics build its requests without messages.
This measures, on rows of the dev set (or the bundled example), with the lexical offline
judge:

- plan building: CPU ms per row of `SummarizationEvaluator.plan` (every request of the
  four metrics), and of `AutoEvaluator.plan` for the dialogue rows read as conversations;
- end to end: rows per second of `evaluate_batch` (concurrency 8), wall and CPU;

each with the prompt skipped (the judge's own capabilities) and with it forced on (the
same judge declaring `reads_prompt=True`: what every run did before). On a checkout
without the capability only the rendered figures are printed. Plan figures are the best
of `--repeats` runs, end-to-end ones the median (the machine is shared; the load average
is printed); every run starts with the prompt pieces kept across items (`shared_prefix`,
`seal`) forgotten, as a run plans each item once.

Reproduce:  . /work/venv/bin/activate && PYTHONPATH=src python benchmarks/request_building.py
Options:    --rows 200 (rows of --data, in file order per dataset), --repeats 5, --data PATH,
            --long-kb 1000 (also one source of this size: SummEval articles joined)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from sumjudge import SummarizationEvaluator, SummaryData
from sumjudge.autoeval import AutoEvaluator
from sumjudge.evaluators.execute import flatten
from sumjudge.metrics._base import shared_prefix
from sumjudge.metrics._delimit import seal
from sumjudge.offline.backend import OfflineJudge
from sumjudge.plan import requests_of
from sumjudge.protocol import Capabilities
from sumjudge.tokens import check_context

HAS_SKIP = any(f.name == "reads_prompt" for f in fields(Capabilities))


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _rows(path: Path, n: int) -> tuple[list[SummaryData], list[dict[str, Any]]]:
    """`n` summaries (SummEval rows first: the longest sources) and the dialogue rows."""
    rows = [json.loads(line) for line in path.open(encoding="utf-8")]
    news = [r for r in rows if r["dataset"] == "summeval"]
    chats = [r for r in rows if r["dataset"] != "summeval"]
    summaries = [SummaryData(input=r["source"], summary=r["summary"]) for r in news[:n]]
    conversations = [_conversation(r) for r in chats[:n]]
    return summaries, conversations


def _conversation(row: dict[str, Any]) -> dict[str, Any]:
    """A dialogue row ("Name: text" lines) as an autoevaluation item of one section."""
    turns = []
    for line in row["source"].splitlines():
        name, _, text = line.partition(":")
        if text.strip():
            turns.append({"role": "speaker", "name": name.strip(), "text": text.strip()})
    return {"id": row["id"], "transcript": turns, "summary": {"Summary": row["summary"]}}


def _judge(rendered: bool) -> OfflineJudge:
    judge = OfflineJudge("local-lexical")
    if rendered and HAS_SKIP:
        judge.capabilities = replace(judge.capabilities, reads_prompt=True)
    return judge


def _cold() -> None:
    """Forget the prompt pieces kept across items: a run plans each item once."""
    shared_prefix.cache_clear()
    seal.cache_clear()


def _plan_ms(evaluator: Any, items: list[Any], repeats: int) -> float:
    """The best CPU ms per row of building every row's plan and checking its fit.

    What `Evaluator._judge` does before the first call (the window check measures every
    request's prompt).
    """
    coerced = [evaluator.coerce(x, i) for i, x in enumerate(items)]
    window = evaluator.context_window
    best = float("inf")
    for _ in range(repeats):
        _cold()
        c0 = time.process_time()
        for item in coerced:
            requests = requests_of(flatten(evaluator.plan(item, None)))
            check_context(requests, window, evaluator.source_text(item))
        best = min(best, time.process_time() - c0)
    return 1000 * best / len(items)


async def _ok_rows(evaluator: Any, items: list[Any]) -> int:
    return sum([r.status == "ok" async for r in evaluator.evaluate_batch(items)])


def _end_to_end(
    ways: list[tuple[str, bool]], items: list[Any], repeats: int
) -> dict[str, tuple[float, float, float]]:
    """Per way: the median rows/s (wall), median and best CPU ms per row of `evaluate_batch`.

    The ways take turns within each repeat (the machine's load drifts), each run with a
    fresh judge (its scorer's caches empty) and the prompt pieces forgotten.
    """
    walls: dict[str, list[float]] = {label: [] for label, _ in ways}
    cpus: dict[str, list[float]] = {label: [] for label, _ in ways}
    for _ in range(repeats):
        for label, rendered in ways:
            evaluator = SummarizationEvaluator(model=_judge(rendered))
            _cold()
            t0, c0 = time.perf_counter(), time.process_time()
            ok = asyncio.run(_ok_rows(evaluator, items))
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            if ok != len(items):
                raise SystemExit(f"{len(items) - ok} row(s) failed")
            walls[label].append(len(items) / wall)
            cpus[label].append(1000 * cpu / len(items))
    return {
        label: (statistics.median(walls[label]), statistics.median(cpus[label]), min(cpus[label]))
        for label, _ in ways
    }


def main() -> None:
    """Print the figures, rendered and skipped."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="/work/shared/data/dev.jsonl")
    ap.add_argument("--rows", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--long-kb", type=int, default=0)
    args = ap.parse_args()
    summaries, conversations = _rows(Path(args.data), args.rows)
    print(f"request building, lexical offline judge; cpus={os.cpu_count()} load={_load()}")
    print(f"{len(summaries)} SummEval summaries, {len(conversations)} dialogues as conversations")
    ways = [("rendered", True), ("skipped", False)] if HAS_SKIP else [("rendered", True)]
    for label, rendered in ways:
        summ = SummarizationEvaluator(model=_judge(rendered))
        auto = AutoEvaluator(model=_judge(rendered), metrics=["accuracy", "consistency"])
        ms_summ = _plan_ms(summ, summaries, args.repeats)
        ms_auto = _plan_ms(auto, conversations, args.repeats)
        print(
            f"[{label}] plan + window check, CPU ms/row: summaries {ms_summ:.3f}, "
            f"conversations {ms_auto:.3f}"
        )
    for label, (rate, cpu, best) in _end_to_end(ways, summaries, args.repeats).items():
        print(
            f"[{label}] evaluate_batch summaries, median of {args.repeats}: {rate:.1f} rows/s, "
            f"{cpu:.2f} CPU ms/row (best {best:.2f})"
        )
    if args.long_kb:
        source = ""
        for item in summaries * 1000:  # the dev articles, joined until long enough
            source += item.input + "\n\n"
            if len(source) >= 1000 * args.long_kb:
                break
        long_item = [SummaryData(input=source, summary=summaries[0].summary)]
        for label, rendered in ways:
            ms = _plan_ms(SummarizationEvaluator(model=_judge(rendered)), long_item, args.repeats)
            print(
                f"[{label}] plan + window check, one {len(source) / 1e6:.2f} MB source: {ms:.1f} ms"
            )
        for label, (rate, cpu, _) in _end_to_end(ways, long_item, args.repeats).items():
            print(
                f"[{label}] evaluate_batch, that source: {1 / rate:.2f} s, {cpu / 1000:.2f} CPU s"
            )
    print(f"load at end={_load()}")


if __name__ == "__main__":
    main()
