"""Features of every dev row for `benchmarks/calibration.py`, cached in a file under /tmp.

Analysing the 2,144 dev rows takes minutes (much longer with embeddings), and the learning
curves refit hundreds of times on the same features: they are computed once per mode and
kept in a JSON file keyed by the data file's hash, the mode and the scorer's version, so a
stale cache (other data, other signals) is recomputed, never read.

Run alone to fill the cache: python benchmarks/_calibration_features.py --mode full
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from sumjudge.offline import OfflineScorer  # noqa: E402
from sumjudge.offline.refit import features_of  # noqa: E402

DATA = "/work/shared/data/dev.jsonl"


def load_rows(path: str) -> list[dict[str, Any]]:
    """The rows of a dev JSONL file."""
    text = Path(path).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def cache_path(path: str, mode: str) -> Path:
    """Where the features of `path` in `mode` are kept (under /tmp, per user)."""
    digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]
    return Path(f"/tmp/sumjudge-calibration-{os.getuid()}-{mode}-{digest}.json")


def features(
    path: str, rows: list[dict[str, Any]], mode: str
) -> tuple[list[dict[str, float]], list[bool]]:
    """Features and is-dialogue flag of every row of `path`, from the cache when it is fresh."""
    scorer = OfflineScorer(use_embeddings=mode == "full")
    where = cache_path(path, mode)
    if where.exists():
        cached = json.loads(where.read_text(encoding="utf-8"))
        if cached.get("version") == scorer.version and cached.get("n") == len(rows):
            return cached["features"], cached["dialogue"]
    t0 = time.perf_counter()
    feats: list[dict[str, float]] = []
    dialogue: list[bool] = []
    for k, r in enumerate(rows):
        f, d = features_of(scorer, r["source"], r["summary"])
        feats.append(f)
        dialogue.append(d)
        if k % 200 == 199:
            print(f"  features ({mode}): {k + 1}/{len(rows)}", file=sys.stderr, flush=True)
    tmp = where.with_suffix(".part")
    payload = {"version": scorer.version, "n": len(rows), "features": feats, "dialogue": dialogue}
    tmp.write_text(json.dumps(payload), encoding="utf-8")
    tmp.replace(where)
    print(
        f"  features ({mode}) for {len(rows)} rows in {time.perf_counter() - t0:.0f} s -> {where}",
        file=sys.stderr,
    )
    return feats, dialogue


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=DATA)
    ap.add_argument("--mode", choices=("lexical", "full"), default="lexical")
    args = ap.parse_args()
    features(args.data, load_rows(args.data), args.mode)
