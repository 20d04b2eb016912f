"""Build two inputs for `sumjudge compare`: two SummEval systems on the same documents.

Usage:
    python benchmarks/compare_systems.py ../shared/data/dev.jsonl M11 M17 OUT_DIR

writes OUT_DIR/<system>.jsonl (one row per document, `id` = the document, so the two
runs pair by id) and prints the human mean of each dimension on both sides, to read the
judge's comparison against. Then:

    sumjudge evaluate OUT_DIR/M11.jsonl --model local-lexical -o OUT_DIR/M11.out.jsonl
    sumjudge evaluate OUT_DIR/M17.jsonl --model local-lexical -o OUT_DIR/M17.out.jsonl
    sumjudge compare OUT_DIR/M11.out.jsonl OUT_DIR/M17.out.jsonl --markdown OUT_DIR/cmp.md
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

DIMENSIONS = ("coherence", "consistency", "fluency", "relevance")


def main(argv: list[str]) -> int:
    """Write the two inputs and print the human means."""
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    data, base, candidate, out = Path(argv[0]), argv[1], argv[2], Path(argv[3])
    rows = [json.loads(line) for line in data.read_text(encoding="utf-8").splitlines()]
    rows = [r for r in rows if r.get("dataset") == "summeval"]
    out.mkdir(parents=True, exist_ok=True)
    by_system: dict[str, dict[str, dict[str, object]]] = {base: {}, candidate: {}}
    for r in rows:
        if r["system"] in by_system:
            by_system[r["system"]][r["source_id"]] = r
    shared = sorted(set(by_system[base]) & set(by_system[candidate]))
    for system, docs in by_system.items():
        with (out / f"{system}.jsonl").open("w", encoding="utf-8") as fh:
            for doc in shared:
                r = docs[doc]
                row = {"id": doc, "input": r["source"], "summary": r["summary"]}
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{len(shared)} documents; human means (1-5), {base} -> {candidate}:")
    for dim in DIMENSIONS:
        means = [
            statistics.mean(float(by_system[s][d]["human"][dim]) for d in shared)  # type: ignore[index]
            for s in (base, candidate)
        ]
        print(f"  {dim:12s} {means[0]:.2f} -> {means[1]:.2f} ({means[1] - means[0]:+.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
