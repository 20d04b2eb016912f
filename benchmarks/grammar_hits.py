"""Precision and recall of the offline judge's grammar rules (issue 24 §3).

Prints, in lexical mode:

- on the dev sets (SummEval, faceval, summedits-samsum: summaries people rarely call
  disfluent), the summaries with at least one grammar error and the share of summaries
  given fluency 1, with the human fluency of the flagged SummEval rows;
- on the meetings and calls corpus, the rows other than `grammar` (fluent writing) with a
  grammar error (false hits), and per half the `grammar` rows with none, one, or two or
  more errors found and the share given fluency 1.

Reproduce:  . /work/venv/bin/activate && python benchmarks/grammar_hits.py [--show]
Options:    --show (print every hit on the dev sets and every grammar row's errors),
            --data PATH (the dev rows, default /work/shared/data/dev.jsonl)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from sumjudge.offline import OfflineScorer  # noqa: E402

CORPUS = ROOT / "benchmarks" / "data" / "meetings_calls.jsonl"
DEV = Path("/work/shared/data/dev.jsonl")


def _rows(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _errors_and_fluency(lex: OfflineScorer, source: str, summary: str) -> tuple[list[str], int]:
    a = lex.analyse(source, summary)
    fluency = lex.verdicts(a, ["fluency"], "en")["fluency"].score
    return [e for si in a.sentences for e in si.agreement], fluency


def dev_sets(lex: OfflineScorer, path: Path, show: bool) -> None:
    """Grammar hits and fluency 1 on the dev sets."""
    n: Counter[str] = Counter()
    hits: Counter[str] = Counter()
    ones: Counter[str] = Counter()
    human: list[float] = []
    for r in _rows(path):
        errors, fluency = _errors_and_fluency(lex, r["source"], r["summary"])
        d = r["dataset"]
        n[d] += 1
        ones[d] += fluency == 1
        if errors:
            hits[d] += 1
            if r["human"].get("fluency") is not None:
                human.append(float(r["human"]["fluency"]))
            if show:
                print(f"  hit {d} {r['id']}: {errors}")
    for d in sorted(n):
        print(
            f"{d:18s} n={n[d]:4d}  summaries with a grammar error {hits[d]:3d} "
            f"({hits[d] / n[d]:.1%}); fluency 1: {ones[d]} ({ones[d] / n[d]:.1%})"
        )
    if human:
        print(f"  human fluency (1-5) of the flagged SummEval rows: {human}")


def corpus(lex: OfflineScorer, show: bool) -> None:
    """False hits on the fluent rows and errors found on the grammar rows, per half."""
    rows = _rows(CORPUS)
    order = list(dict.fromkeys(r["source_id"] for r in rows))
    false_hits = 0
    found: dict[str, Counter[str]] = {"dev": Counter(), "check": Counter()}
    for r in rows:
        errors, fluency = _errors_and_fluency(lex, r["source"], r["summary"])
        half = "dev" if order.index(r["source_id"]) % 2 == 0 else "check"
        if r["label"] != "grammar":
            false_hits += bool(errors)
            if errors and show:
                print(f"  false hit {r['id']}: {errors}")
            continue
        found[half][min(len(errors), 2)] += 1
        found[half]["fluency 1"] += fluency == 1
        found[half]["n"] += 1
        if show:
            print(f"  {half} {r['id']} fluency {fluency}: {errors} | {r['planted'][:70]}")
    print(
        f"corpus rows other than grammar with a grammar error: {false_hits} of "
        f"{sum(r['label'] != 'grammar' for r in rows)}"
    )
    for half, c in found.items():
        print(
            f"grammar rows, {half} half (n={c['n']}): none found {c[0]}, one {c[1]}, two or "
            f"more {c[2]}; fluency 1 on {c['fluency 1']} ({c['fluency 1'] / c['n']:.0%})"
        )


def main() -> None:
    """Run both parts."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--show", action="store_true")
    ap.add_argument("--data", type=Path, default=DEV)
    args = ap.parse_args()
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    lex = OfflineScorer(use_embeddings=False)
    if args.data.exists():
        dev_sets(lex, args.data, args.show)
    else:
        print(f"no dev rows at {args.data}: dev sets skipped")
    corpus(lex, args.show)


if __name__ == "__main__":
    main()
