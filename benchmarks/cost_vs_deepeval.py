"""Benchmark 2: requests, prompt tokens and billed input cost per row, sumjudge vs DeepEval.

Both judge the same 50 SummEval rows of /work/shared/data/dev.jsonl on coherence,
consistency, relevance and fluency, against the same fake OpenAI-compatible server
(sumjudge.testing.openai_server, in this process), which counts a prompt prefix seen within
the last 5 minutes (64-token blocks, >= 256 tokens) as cached and bills cached input at
10%. Each side starts with the server's counters and prefix cache cleared. Input price for
the cost column: $1.00 per 1M tokens (cached $0.10), so cost is proportional to billed
input tokens.

`--batch-api` rows: the same sumjudge runs through the fake server's OpenAI Batch endpoints;
their requests and tokens are the batch jobs' (path "/batch"), and their cost is billed at
the batch price (`cost.BATCH_DISCOUNT`, half), the way OpenAI bills batch requests, with the
prompt-cache discount on top (cached input at 10% of the batch price). Whether a provider's
prompt-cache discount applies inside a batch is not stated in its pricing tables (see
docs/batch.md), so the no-stack figure (every prompt token at the batch price) is printed
too.

Rows: `--rows distinct` (default) takes one summary of each of the 50 SummEval articles, so
no two rows share a source; `--rows first` takes the first 50 SummEval rows (4 articles,
many summaries each: cross-row caching then helps both tools).

DeepEval runs in a separate venv (default /work/benchvenv, `pip install deepeval`); see
_deepeval_side.py for its exact configuration.

Reproduce:  python benchmarks/cost_vs_deepeval.py [--rows distinct|first]
                [--deepeval-python /work/benchvenv/bin/python]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from sumjudge import SummarizationEvaluator, SummaryData
from sumjudge.batch import BatchOptions
from sumjudge.cost import BATCH_DISCOUNT
from sumjudge.metrics import SUMMARY_METRICS
from sumjudge.runner import RunSummary
from sumjudge.testing.openai_server import FakeOpenAIServer, Reply, response_schema

DEV = Path("/work/shared/data/dev.jsonl")
INPUT_PRICE = 1.00  # USD per 1M billed input tokens


def pick_rows(mode: str, n: int = 50) -> list[dict[str, str]]:
    rows = [json.loads(x) for x in DEV.open(encoding="utf-8")]
    rows = [r for r in rows if r["dataset"] == "summeval"]
    if mode == "distinct":
        seen: set[str] = set()
        picked = []
        for r in rows:
            if r["source_id"] not in seen:
                seen.add(r["source_id"])
                picked.append(r)
        rows = picked
    return [{"id": r["id"], "input": r["source"], "summary": r["summary"]} for r in rows[:n]]


def make_responder(srv: FakeOpenAIServer) -> Any:
    """Schema-filled replies (both tools); DeepEval's logprob path sends no schema and
    expects {"reason", "score"} on 0-10, so answer that shape when the prompt asks for it."""

    def respond(body: dict[str, Any]) -> Reply:
        if response_schema(body) is None:
            text = str(body.get("messages", [{}])[-1].get("content", ""))
            if '"reason"' in text:
                return Reply.json(
                    {
                        "reason": "The summary covers the main points of the "
                        "source, but some details are missing.",
                        "score": 7,
                    }
                )
        return srv.default_reply(body)

    return respond


async def run_sumjudge(
    url: str,
    rows: list[dict[str, str]],
    single: bool = False,
    layout: str = "source_first",
    batch: Path | None = None,
) -> RunSummary:
    ev = SummarizationEvaluator(
        "openai/fake-model",
        base_url=url,
        single_call=single,
        prompt_layout=layout,
        batch_api=BatchOptions(poll_interval=0.05, jobs_dir=batch) if batch else False,
    )
    summary = RunSummary()
    items = [SummaryData(**r) for r in rows]
    async for _ in ev.evaluate_batch(items, concurrency=4, summary=summary):
        pass
    await ev.aclose()
    return summary


def batch_stats(stats: dict[str, Any]) -> dict[str, float]:
    """The batch jobs' own counts, billed at the batch price."""
    st = dict(stats["paths"]["/batch"])
    st["billed_input_tokens"] *= BATCH_DISCOUNT
    return st


def line(name: str, st: dict[str, float], rows: int) -> str:
    billed = st["billed_input_tokens"]
    return (
        f"{name:<36} requests {int(st['requests']):>4} ({st['requests'] / rows:.2f}/row)  "
        f"prompt tokens {int(st['prompt_tokens']):>7} ({st['prompt_tokens'] / rows:7.1f}/row)  "
        f"cached {int(st['cached_tokens']):>7} "
        f"({st['cached_tokens'] / max(1, st['prompt_tokens']):.0%})  "
        f"billed input {billed:>9.1f} tok  = ${billed * INPUT_PRICE / 1e6 / rows:.6f}/row"
    )


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--rows", choices=["distinct", "first"], default="distinct")
    p.add_argument("--deepeval-python", default="/work/benchvenv/bin/python")
    args = p.parse_args()
    print(
        f"command: python benchmarks/cost_vs_deepeval.py --rows {args.rows} "
        f"--deepeval-python {args.deepeval_python}"
    )
    rows = pick_rows(args.rows)
    n = len(rows)
    results: dict[str, dict[str, float]] = {}
    with (
        FakeOpenAIServer(latency=0.05, record_requests=False) as srv,
        tempfile.TemporaryDirectory() as d,
    ):
        srv.responder = make_responder(srv)
        url = srv.base_url
        srv.reset_stats(clear_cache=True)
        s = asyncio.run(run_sumjudge(url, rows))
        results["sumjudge (1 call/metric)"] = srv.stats()
        print(f"sumjudge: {s.ok} ok, {s.failed} failed")
        srv.reset_stats(clear_cache=True)
        s = asyncio.run(run_sumjudge(url, rows, layout="rubrics_first"))
        results["sumjudge rubrics_first"] = srv.stats()
        print(f"sumjudge --prompt-layout rubrics_first: {s.ok} ok, {s.failed} failed")
        srv.reset_stats(clear_cache=True)
        s = asyncio.run(run_sumjudge(url, rows, single=True))
        results["sumjudge --single-call"] = srv.stats()
        print(f"sumjudge --single-call: {s.ok} ok, {s.failed} failed")
        for layout, single in (
            ("source_first", False),
            ("rubrics_first", False),
            ("source_first", True),
        ):
            srv.reset_stats(clear_cache=True)
            jobs = Path(d) / f"jobs-{layout}-{single}"
            s = asyncio.run(run_sumjudge(url, rows, single=single, layout=layout, batch=jobs))
            name = "sumjudge --batch-api" + (" --single-call" if single else "")
            name += " rubrics_first" if layout == "rubrics_first" else ""
            results[name] = batch_stats(srv.stats())
            print(f"{name}: {s.ok} ok, {s.failed} failed")

        srv.reset_stats(clear_cache=True)
        rows_file, steps_file = Path(d) / "rows.jsonl", Path(d) / "steps.json"
        rows_file.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        steps = {m: list(SUMMARY_METRICS[m].steps) for m in SUMMARY_METRICS}
        steps_file.write_text(json.dumps(steps), encoding="utf-8")
        side = Path(__file__).with_name("_deepeval_side.py")
        res = subprocess.run(
            [args.deepeval_python, str(side), url, str(rows_file), str(steps_file)],
            capture_output=True,
            text=True,
        )
        if res.returncode != 0:
            print(res.stderr[-3000:])
            raise SystemExit("DeepEval side failed")
        print("deepeval:", res.stdout.strip().splitlines()[-1])
        results["DeepEval GEval x4"] = srv.stats()
    print(f"{n} rows ({args.rows}), 4 metrics each; billed input = uncached + 10% of cached")
    for name, st in results.items():
        print(line(name, st, n))
    ours = results["sumjudge (1 call/metric)"]["billed_input_tokens"]
    theirs = results["DeepEval GEval x4"]["billed_input_tokens"]
    single = results["sumjudge --single-call"]["billed_input_tokens"]
    print(f"sumjudge (default) / DeepEval billed input cost: {ours / theirs:.3f} (target <= 0.5)")
    rf = results["sumjudge rubrics_first"]["billed_input_tokens"]
    print(f"sumjudge --prompt-layout rubrics_first / DeepEval billed input cost: {rf / theirs:.3f}")
    print(f"sumjudge --single-call / DeepEval billed input cost: {single / theirs:.3f}")
    b = results["sumjudge --batch-api"]["billed_input_tokens"]
    no_stack = results["sumjudge --batch-api"]["prompt_tokens"] * BATCH_DISCOUNT
    bs = results["sumjudge --batch-api --single-call"]["billed_input_tokens"]
    br = results["sumjudge --batch-api rubrics_first"]["billed_input_tokens"]
    print(
        f"sumjudge --batch-api / DeepEval (online) billed input cost: {b / theirs:.3f} "
        "(target <= 0.33)"
    )
    # Gemini's rule (Vertex AI batch docs): the two discounts do not stack; a cached
    # token gets the cache discount (10%), every other token the batch price.
    st = results["sumjudge --batch-api"]
    precedence = (st["prompt_tokens"] - st["cached_tokens"]) * BATCH_DISCOUNT
    precedence += st["cached_tokens"] * 0.1
    print(
        "sumjudge --batch-api / DeepEval (online), cache discount instead of the batch one "
        f"on cached tokens (Gemini's rule): {precedence / theirs:.3f}"
    )
    print(
        "sumjudge --batch-api / DeepEval (online), if the provider gives no prompt-cache "
        f"discount inside a batch: {no_stack / theirs:.3f}"
    )
    print(
        "sumjudge --batch-api rubrics_first / DeepEval (online) billed input cost: "
        f"{br / theirs:.3f}"
    )
    print(
        f"sumjudge --batch-api --single-call / DeepEval (online) billed input cost: "
        f"{bs / theirs:.3f} (target <= 0.2)"
    )


if __name__ == "__main__":
    main()
