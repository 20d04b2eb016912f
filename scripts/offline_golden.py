"""Golden check of the offline judge: verdicts of a sample of dev rows, before and after.

Dumps, for about 150 dev rows (every k-th row of each dev set, in file order) and in both
modes (lexical and full), every metric's score, raw score (as `repr`), explanation and
evidence, and the per-sentence accuracy checks; `compare` says whether two dumps are
byte-identical and lists the rows that differ.

The code judged is the `sumjudge` on the import path, so the same script checks two
checkouts:

    PYTHONPATH=/path/to/before/src python scripts/offline_golden.py dump /tmp/before.json
    PYTHONPATH=$PWD/src python scripts/offline_golden.py dump /tmp/after.json
    python scripts/offline_golden.py compare /tmp/before.json /tmp/after.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

METRICS = ("coherence", "consistency", "relevance", "fluency")


def sample(path: Path, per_set: int) -> list[dict[str, Any]]:
    """`per_set` rows of each dev set, evenly spaced in file order."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    out: list[dict[str, Any]] = []
    for name in sorted({r["dataset"] for r in rows}):
        of_set = [r for r in rows if r["dataset"] == name]
        step = max(1, len(of_set) // per_set)
        out += of_set[::step][:per_set]
    return out


def dump(path: Path, data: Path, per_set: int) -> None:
    """Write the verdicts of the sample in both modes to `path` (JSON)."""
    from sumjudge.offline import OfflineScorer

    rows = sample(data, per_set)
    out: dict[str, Any] = {}
    for mode in ("lexical", "full"):
        scorer = OfflineScorer(use_embeddings=mode == "full")
        for r in rows:
            verdicts = scorer.score(r["source"], r["summary"], METRICS)
            checks = scorer.check_sentences(r["source"], r["summary"])
            out[f"{mode}:{r['id']}"] = {
                m: [v.score, repr(v.raw), v.explanation, list(v.evidence)]
                for m, v in verdicts.items()
            } | {
                "sentences": [
                    [c.point, c.is_accurate, c.justification, c.support_quote, repr(c.support)]
                    for c in checks
                ]
            }
    path.write_text(json.dumps(out, ensure_ascii=False, indent=1), encoding="utf-8")
    print(f"{len(rows)} rows x 2 modes -> {path}")


def compare(a: Path, b: Path) -> int:
    """Print whether two dumps are identical; the exit status is 1 when they differ."""
    before, after = json.loads(a.read_text()), json.loads(b.read_text())
    if before.keys() != after.keys():
        print("the dumps hold different rows")
        return 1
    differ = [k for k in before if before[k] != after[k]]
    for k in differ[:20]:
        fields = [f for f in before[k] if before[k][f] != after[k][f]]
        print(f"differs: {k} ({', '.join(fields)})")
    print(
        f"{len(before)} verdict sets ({len(before) // 2} rows x 2 modes): "
        + ("byte-identical" if not differ else f"{len(differ)} differ")
    )
    return 1 if differ else 0


def main() -> None:
    """`dump OUT` or `compare BEFORE AFTER`."""
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("out", type=Path)
    d.add_argument("--data", type=Path, default=Path("/work/shared/data/dev.jsonl"))
    d.add_argument("--per-set", type=int, default=50)
    c = sub.add_parser("compare")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = ap.parse_args()
    if args.cmd == "dump":
        dump(args.out, args.data, args.per_set)
    else:
        sys.exit(compare(args.before, args.after))


if __name__ == "__main__":
    main()
