"""Benchmark 3: shared-prefix share of prompt tokens per item, for a 3,000-word transcript.

For one item, every metric's request starts with the same bytes (system message, then the
delimited source and summary); only the metric's instructions at the end differ. This
prints, per request and for the item, the share of prompt tokens inside that shared
prefix, counted with the fake server's tokenizer and with our ~4-chars/token estimator,
then sends the item to the fake server (which emulates prefix caching) and reports the
share of prompt tokens it served from cache and the billed input tokens.

Reproduce:  python benchmarks/prefix_share.py [--words 3000]
"""

from __future__ import annotations

import argparse
import asyncio
import random

from sumjudge import SummarizationEvaluator, SummaryData
from sumjudge.cost import estimate_tokens
from sumjudge.testing.openai_server import FakeOpenAIServer, tokenize

NAMES = ("Rina", "Budi", "Sari", "Andi", "Maya")
WORDS = [
    "release",
    "schedule",
    "customer",
    "budget",
    "review",
    "testing",
    "deploy",
    "ticket",
    "backlog",
    "feature",
    "design",
    "meeting",
    "deadline",
    "Friday",
    "priority",
    "risk",
    "estimate",
    "vendor",
    "contract",
    "invoice",
    "roadmap",
]


def transcript(words: int, seed: int = 0) -> str:
    rng = random.Random(seed)
    lines, n = [], 0
    while n < words:
        k = rng.randint(8, 25)
        lines.append(f"{rng.choice(NAMES)}: " + " ".join(rng.choice(WORDS) for _ in range(k)) + ".")
        n += k + 1
    return "\n".join(lines)


def common_prefix(texts: list[str]) -> str:
    first = texts[0]
    n = min(len(t) for t in texts)
    i = 0
    while i < n and all(t[i] == first[i] for t in texts):
        i += 1
    return first[:i]


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--words", type=int, default=3000)
    args = p.parse_args()
    print(f"command: python benchmarks/prefix_share.py --words {args.words}")
    source = transcript(args.words)
    item = SummaryData(
        input=source, summary="The team reviewed the release schedule and the budget."
    )
    ev = SummarizationEvaluator("openai/fake-model", base_url="http://unused/v1")
    requests = ev.plan_requests(item)
    texts = [r.prompt_text() for r in requests]
    prefix = common_prefix(texts)
    print(f"source: {len(source.split())} words, {len(source)} characters")
    for counter, name in (
        (lambda t: len(tokenize(t)), "fake-server tokens"),
        (estimate_tokens, "estimated tokens (~4 chars)"),
    ):
        shared = counter(prefix)
        totals = [counter(t) for t in texts]
        per = ", ".join(
            f"{r.task.split('@')[0]} {shared / t:.3f}"
            for r, t in zip(requests, totals, strict=True)
        )
        print(
            f"[{name}] shared prefix {shared}; per request: {per}; "
            f"item: {len(texts) * shared}/{sum(totals)} = {len(texts) * shared / sum(totals):.3f}"
        )

    async def served() -> None:
        async with FakeOpenAIServer(record_requests=False) as srv:
            ev2 = SummarizationEvaluator("openai/fake-model", base_url=srv.base_url)
            await ev2.evaluate(item)
            await ev2.aclose()
            st = srv.stats()
        print(
            f"[fake server, one item, 4 metrics] prompt tokens {st['prompt_tokens']}, served from "
            f"prefix cache {st['cached_tokens']} "
            f"({st['cached_tokens'] / st['prompt_tokens']:.3f}), "
            f"billed input tokens {st['billed_input_tokens']} "
            f"({st['billed_input_tokens'] / st['prompt_tokens']:.3f} of the uncached total)"
        )

    asyncio.run(served())


if __name__ == "__main__":
    main()
