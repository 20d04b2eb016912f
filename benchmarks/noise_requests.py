"""Requests per item and the cached share of their input: one judge, --samples 5, a panel.

One item (a transcript of --words words, four metrics) is judged through the fake
OpenAI-compatible server (which emulates per-model prompt-prefix caching) three ways in
one run: one judge once (the baseline), one judge with 5 samples per metric, and a
three-member panel (three model names on one server: each member has its own prefix
cache, as different provider models do). Printed: requests per item, prompt tokens, the
share the server served from its prefix cache, and each figure as a ratio to the baseline.
A second pass over the same response cache shows the requests a re-run makes.

Reproduce:  python benchmarks/noise_requests.py [--words 3000]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from typing import Any

from prefix_share import transcript

from sumjudge import SummarizationEvaluator, SummaryData
from sumjudge.cache import ResponseCache
from sumjudge.testing.openai_server import FakeOpenAIServer


async def measure(item: SummaryData, model: Any, **kw: Any) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        cache = ResponseCache(tmp)
        out: dict[str, Any] = {}
        async with FakeOpenAIServer(record_requests=False) as srv:
            for run in ("first", "rerun"):
                before = srv.stats()
                ev = SummarizationEvaluator(model, base_url=srv.base_url, cache=cache, **kw)
                async with ev:
                    _ = [r async for r in ev.evaluate_batch([item])]
                st = srv.stats()
                keys = ("requests", "prompt_tokens", "cached_tokens")
                out[run] = {k: st[k] - before[k] for k in keys}
        cache.close()
        return out


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--words", type=int, default=3000)
    args = p.parse_args()
    print(f"command: python benchmarks/noise_requests.py --words {args.words}")
    item = SummaryData(
        input=transcript(args.words),
        summary="The team reviewed the release schedule and the budget.",
    )
    cases = {
        "one judge, 1 sample (baseline)": ("openai/fake-model", {}),
        "one judge, --samples 5": ("openai/fake-model", {"samples": 5}),
        "panel of 3 (median)": (["openai/m1", "openai/m2", "openai/m3"], {}),
    }
    results = {name: asyncio.run(measure(item, model, **kw)) for name, (model, kw) in cases.items()}
    base = results["one judge, 1 sample (baseline)"]["first"]
    for name, r in results.items():
        first = r["first"]
        share = first["cached_tokens"] / first["prompt_tokens"]
        print(
            f"{name}: {first['requests']} requests/item "
            f"({first['requests'] / base['requests']:.2f}x baseline), "
            f"{first['prompt_tokens']} prompt tokens "
            f"({first['prompt_tokens'] / base['prompt_tokens']:.2f}x), "
            f"cached share of input {share:.3f}; re-run: {r['rerun']['requests']} requests"
        )


if __name__ == "__main__":
    main()
