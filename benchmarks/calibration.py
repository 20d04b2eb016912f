"""Learning curves of the offline judge's refit on in-domain labels (issue 23).

For each dev set, n labelled summaries (n = 0, 25, 50, 100, 200; whole sources, so no
source is both labelled and tested) refit the offline judge (`sumjudge.offline.refit`), and
the judge is scored on the rest of that set before (the prior) and after (the refit), on
the same test rows: summary-level Spearman per metric on SummEval (G-Eval protocol, Likert
1-5 labels) and consistency ROC AUC on faceval and summedits-samsum (binary labels).

Splits, per seed (5 seeds): the set's sources are shuffled; the first sources up to 200
labelled summaries are the label pool, and the labels for n are the pool's first sources,
as close to n summaries as whole sources allow (the tables give the actual mean; nested:
the test rows are the same for every n of a seed).

The prior, honestly:
* SummEval: the shipped fit saw every SummEval row (scripts/fit_offline.py), so judged on
  SummEval it is in-sample. Here the prior is refitted per seed, exactly as
  scripts/fit_offline.py fits the shipped one, on the SummEval sources that are neither
  labelled nor tested (the 50 sources: 13 label pool, 18 test, 19 prior). That prior saw
  fewer rows than the shipped one, so it is weaker; the shipped fit's in-sample figure on
  the same test rows is printed for reference.
* faceval, summedits-samsum: the shipped dialogue consistency model, whose weights are not
  fitted (equal weights); its standardisation constants are label-free statistics of these
  rows and its upper cut point uses their base rate (neither changes ROC AUC).

Verdict per line: the paired difference (after - before) is bootstrapped over seeds and,
within each seed, over test sources (documents resampled with replacement, the same draws
for before and after); "gain" when its 95% interval is above 0, "worse" when below,
otherwise "no change within noise".

Reproduce:  . /work/venv/bin/activate && python benchmarks/calibration.py [--mode full]
Options:    --strength S (the prior's strength; default "cv": chosen per model from the labels
            by `choose_strength`, as `refit_all` does; the tables give its median over
            seeds / its smallest value),
            --datasets summeval,faceval, --seeds 5, --sizes 0,25,50,100,200,
            --n-resamples 500
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _calibration_features import DATA, features, load_rows  # noqa: E402
from fit_offline import fit_metric  # noqa: E402

from sumjudge.meta.stats import group_correlations, roc_auc, summary_level  # noqa: E402
from sumjudge.offline.calibration import (  # noqa: E402
    METRICS,
    LinearModel,
    load_dialogue_model,
    load_models,
)
from sumjudge.offline.profile import DIALOGUE_KEY, Calibration, Example, refit_all  # noqa: E402
from sumjudge.offline.refit import DEFAULT_STRENGTH, choose_strength, refit  # noqa: E402

BINARY_SETS = ("faceval", "summedits-samsum")
POOL = 200  # labelled summaries in the largest label set
SUMMEVAL_TEST_SHARE = 0.5  # of the sources outside the label pool; the others fit the prior


@dataclass
class Cell:
    """One (set, metric, n) line: per seed the figure before/after and bootstrap differences."""

    n_labels: list[int]
    before: list[float]
    after: list[float]
    diffs: list[np.ndarray]  # per seed, the bootstrap replicates of (after - before)
    strengths: list[float]  # per seed, the prior's strength the refit used


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def split(
    groups: Sequence[str], seed: int, sizes: Sequence[int]
) -> tuple[dict[int, list[int]], list[int], list[int]]:
    """Label sets by n (nested, whole sources), the other sources' rows, and their order.

    Returns:
        {n: row indices of the labels}, the indices of the rows outside the label pool, and
        the sources outside the pool in shuffled order (for the SummEval prior/test split).
    """
    sources = sorted(set(groups))
    order = [sources[i] for i in np.random.default_rng(seed).permutation(len(sources))]
    rows_of: dict[str, list[int]] = {s: [] for s in sources}
    for i, g in enumerate(groups):
        rows_of[g].append(i)
    pool: list[str] = []
    while sum(len(rows_of[s]) for s in pool) < max(sizes):
        pool.append(order[len(pool)])
    totals = np.cumsum([len(rows_of[s]) for s in pool])
    labels: dict[int, list[int]] = {}
    for n in sizes:
        # whole sources, their total as close to n as possible (at least one when n > 0)
        k = 0 if n == 0 else 1 + int(np.argmin(np.abs(totals - n)))
        labels[n] = [i for s in pool[:k] for i in rows_of[s]]
    rest = [s for s in order if s not in pool]
    return labels, [i for s in rest for i in rows_of[s]], rest


def doc_bootstrap(groups: Sequence[str], n: int, seed: int) -> list[np.ndarray]:
    """`n` resamples of the sources (with replacement), each as the row indices it draws."""
    keys = sorted(set(groups))
    members = {k: np.flatnonzero(np.asarray(groups) == k) for k in keys}
    rng = np.random.default_rng(10_000 + seed)
    draws = rng.integers(0, len(keys), size=(n, len(keys)))
    return [np.concatenate([members[keys[j]] for j in d]) for d in draws]


def spearman_cell(
    before: np.ndarray,
    after: np.ndarray,
    human: np.ndarray,
    groups: list[str],
    reps: int,
    seed: int,
) -> tuple[float, float, np.ndarray]:
    """Summary-level Spearman before/after and the bootstrap of their paired difference."""
    b = summary_level(before, human, groups).value
    a = summary_level(after, human, groups).value
    pb = group_correlations(before, human, groups)
    pa = group_correlations(after, human, groups)
    keys = [k for k in pb if pb[k] is not None and pa[k] is not None]
    d = np.array([pa[k] - pb[k] for k in keys])  # type: ignore[operator]
    rng = np.random.default_rng(20_000 + seed)
    return b, a, d[rng.integers(0, len(d), size=(reps, len(d)))].mean(axis=1)


def balanced_at(raw: np.ndarray, y: np.ndarray, cut: float) -> float:
    """Balanced accuracy of "raw >= cut" (the model's 3) against the 0/1 labels."""
    pred = raw >= cut
    return (float(np.mean(pred[y == 1])) + float(np.mean(~pred[y == 0]))) / 2


def paired_cell(
    figure: Any, before: np.ndarray, after: np.ndarray, y: np.ndarray, draws: list[np.ndarray]
) -> tuple[float, float, np.ndarray]:
    """`figure(scores, y)` before/after and the bootstrap (`draws`) of their difference."""
    diffs = np.array([figure(after[ix], y[ix]) - figure(before[ix], y[ix]) for ix in draws])
    return figure(before, y), figure(after, y), diffs[~np.isnan(diffs)]


def summeval_curves(
    rows: list[dict[str, Any]], feats: list[dict[str, float]], mode: str, args: Any
) -> dict[tuple[str, int], Cell]:
    """Spearman per metric and n; the prior is fitted on sources neither labelled nor tested."""
    groups = [r["source_id"] for r in rows]
    cells: dict[tuple[str, int], Cell] = {}
    shipped = load_models(mode)
    ref: dict[str, list[float]] = {m: [] for m in METRICS}
    for seed in range(args.seeds):
        labels, _, rest = split(groups, seed, args.sizes)
        test_src = set(rest[: int(len(rest) * SUMMEVAL_TEST_SHARE)])
        test = [i for i, g in enumerate(groups) if g in test_src]
        prior_rows = [i for i, g in enumerate(groups) if g in set(rest) - test_src]
        tg = [groups[i] for i in test]
        for metric in METRICS:
            human = np.array([rows[i]["human"][metric] for i in test], dtype=np.float64)
            prior = fit_metric(
                [feats[i] for i in prior_rows], [rows[i] for i in prior_rows], mode, metric
            )
            before = np.array([prior.raw(feats[i]) for i in test])
            ref[metric].append(
                summary_level([shipped[metric].raw(feats[i]) for i in test], human, tg).value
            )
            for n, idx in labels.items():
                lf, lg = [feats[i] for i in idx], [groups[i] for i in idx]
                ly = [float(rows[i]["human"][metric]) for i in idx]
                # as refit_all does: strength chosen per model unless given
                strength = args.strength
                if strength is None:
                    strength = choose_strength(prior, lf, ly, lg, "likert") if idx else 0.0
                cut_strength = DEFAULT_STRENGTH if args.strength is None else None
                model = refit(
                    prior, lf, ly, lg, "likert", strength=strength, cut_strength=cut_strength
                )
                after = np.array([model.raw(feats[i]) for i in test])
                fig = spearman_cell(before, after, human, tg, args.n_resamples, seed)
                add(cells, (metric, n), len(idx), fig, strength)
    print(
        "  reference, shipped fit on the same test rows (IN-SAMPLE: it was fitted on them): "
        + "  ".join(f"{m}={np.mean(v):.3f}" for m, v in ref.items())
        + f"  MEAN={np.mean([np.mean(v) for v in ref.values()]):.3f}"
    )
    return cells


def consistency_model(cal: Calibration, mode: str, dialogue: bool) -> LinearModel:
    """The consistency model the calibrated scorer uses (the dialogue one on dialogues)."""
    if dialogue:
        return cal.dialogue_model or load_dialogue_model(mode)
    return cal.models.get("consistency") or load_models(mode)["consistency"]


def add(
    cells: dict[tuple[str, int], Cell], key: tuple[str, int], n: int, fig: Any, strength: float
) -> None:
    """Append one seed's (before, after, bootstrap differences) to the cell `key`."""
    cell = cells.setdefault(key, Cell([], [], [], [], []))
    cell.strengths.append(strength)
    cell.n_labels.append(n)
    cell.before.append(fig[0])
    cell.after.append(fig[1])
    cell.diffs.append(fig[2])


def binary_curves(
    rows: list[dict[str, Any]],
    feats: list[dict[str, float]],
    dialogue: list[bool],
    mode: str,
    args: Any,
) -> dict[tuple[str, int], Cell]:
    """Consistency ROC AUC by n; the prior is the shipped judge, the refit `refit_all`'s."""
    groups = [r["source_id"] for r in rows]
    y_all = np.array([r["human"]["consistency"] for r in rows], dtype=np.float64)
    cells: dict[tuple[str, int], Cell] = {}
    none = Calibration(mode, {}, None, {}, {})
    for seed in range(args.seeds):
        labels, test, _ = split(groups, seed, args.sizes)
        y = y_all[test]
        draws = doc_bootstrap([groups[i] for i in test], args.n_resamples, seed)
        before = np.array([consistency_model(none, mode, dialogue[i]).raw(feats[i]) for i in test])
        cut0 = [consistency_model(none, mode, dialogue[i]).cuts[1] for i in test]
        for n, idx in labels.items():
            examples = [
                Example(feats[i], dialogue[i], groups[i], {"consistency": y_all[i]}) for i in idx
            ]
            cal = refit_all(mode, examples, strength=args.strength)
            strength = cal.strengths.get(DIALOGUE_KEY, 0.0)
            models = [consistency_model(cal, mode, dialogue[i]) for i in test]
            after = np.array([m.raw(feats[i]) for m, i in zip(models, test, strict=True)])
            add(
                cells,
                ("consistency ROC AUC", n),
                len(idx),
                paired_cell(roc_auc, before, after, y, draws),
                strength,
            )
            # the model's "3 vs below" at its upper cut point (before the scorer's evidence
            # caps): how well the learnt cut point balances the two classes; scores are
            # shifted by each row's cut so one threshold (0) serves rows of either model
            shifted_b, shifted_a = (
                before - np.array(cut0),
                after - np.array([m.cuts[1] for m in models]),
            )
            bal = paired_cell(lambda r, t: balanced_at(r, t, 0.0), shifted_b, shifted_a, y, draws)
            add(cells, ("3 vs below, bal. acc.", n), len(idx), bal, strength)
    return cells


def verdict(cell: Cell, n: int) -> tuple[float, float, float, str]:
    """Mean paired difference, its 95% interval over seeds and test sources, and the verdict."""
    rng = np.random.default_rng(1)
    seeds = len(cell.diffs)
    reps = min(len(d) for d in cell.diffs)
    pick = rng.integers(0, seeds, size=(reps, seeds))
    stacked = np.stack([d[:reps] for d in cell.diffs])  # seeds x replicates
    combined = stacked[pick, np.arange(reps)[:, None]].mean(axis=1)
    lo, hi = (float(v) for v in np.quantile(combined, [0.025, 0.975]))
    mean = float(np.mean(np.array(cell.after) - np.array(cell.before)))
    if n == 0:
        return mean, lo, hi, "(the prior itself)"
    return mean, lo, hi, "gain" if lo > 0 else "worse" if hi < 0 else "no change within noise"


def print_cells(name: str, cells: dict[tuple[str, int], Cell]) -> list[str]:
    """Print the learning-curve table of one set; return its "worse" lines."""
    worse: list[str] = []
    print(
        f"  {'figure':<24} {'n':>5} {'strength':>12} {'before':>15} {'after':>15} "
        f"{'after-before [95%]':>26}"
    )
    for (metric, n), cell in sorted(cells.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        mean, lo, hi, word = verdict(cell, n)
        if word == "worse":
            worse.append(f"{name} {metric} n={n}")
        nl = f"{np.mean(cell.n_labels):.0f}"
        b = f"{np.mean(cell.before):.3f} +/-{np.std(cell.before):.3f}"
        a = f"{np.mean(cell.after):.3f} +/-{np.std(cell.after):.3f}"
        # the prior's strength: median over seeds / the smallest (1e9: the prior's weights)
        st = f"{np.median(cell.strengths):.3g}/{min(cell.strengths):.3g}" if n else "-"
        print(
            f"  {metric:<24} {nl:>5} {st:>12} {b:>15} {a:>15} {mean:+.3f} [{lo:+.3f}, {hi:+.3f}]"
            f"  {word}"
        )
    return worse


def main() -> None:
    """Run the learning curves and print the tables and the goal lines."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=DATA)
    ap.add_argument("--mode", choices=("lexical", "full"), default="lexical")
    ap.add_argument(
        "--strength",
        default="cv",
        help="the prior's strength: a number, or 'cv' (chosen per model, as refit_all does)",
    )
    ap.add_argument("--datasets", default="summeval,faceval,summedits-samsum")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--sizes", default="0,25,50,100,200")
    ap.add_argument("--n-resamples", type=int, default=500)
    args = ap.parse_args()
    args.sizes = [int(s) for s in args.sizes.split(",")]
    args.strength = None if args.strength == "cv" else float(args.strength)
    t0 = time.perf_counter()
    how = "chosen per model (choose_strength)" if args.strength is None else f"{args.strength:g}"
    print(f"calibration learning curves, mode {args.mode!r}, prior strength {how},")
    print(f"  {args.seeds} seeds, n={args.sizes}; cpus={os.cpu_count()} load average={_load()}")
    rows = load_rows(args.data)
    feats, dialogue = features(args.data, rows, args.mode)
    goals: list[str] = []
    worse: list[str] = []
    for name in args.datasets.split(","):
        idx = [i for i, r in enumerate(rows) if r["dataset"] == name]
        sub, f, d = [rows[i] for i in idx], [feats[i] for i in idx], [dialogue[i] for i in idx]
        print(f"\n== {name}: {len(sub)} rows, {len({r['source_id'] for r in sub})} sources")
        if name == "summeval":
            cells = summeval_curves(sub, f, args.mode, args)
            worse += print_cells(name, cells)
            if (METRICS[0], 50) in cells:
                value = float(np.mean([np.mean(cells[(m, 50)].after) for m in METRICS]))
                prior = float(np.mean([np.mean(cells[(m, 50)].before) for m in METRICS]))
                ok = "MET" if value >= 0.45 else "MISSED"
                n50 = np.mean(cells[(METRICS[0], 50)].n_labels)
                goals.append(
                    f"{name}: summary-level Spearman with 50 labels (mean {n50:.0f}), mean of "
                    f"4 metrics = {value:.3f} (>= 0.45) {ok}; before {prior:.3f}"
                )
        else:
            cells = binary_curves(sub, f, d, args.mode, args)
            worse += print_cells(name, cells)
            if ("consistency ROC AUC", 50) in cells:
                cell = cells[("consistency ROC AUC", 50)]
                value = float(np.mean(cell.after))
                ok = "MET" if value >= 0.70 else "MISSED"
                goals.append(
                    f"{name}: consistency ROC AUC with 50 labels (mean "
                    f"{np.mean(cell.n_labels):.0f}) = {value:.3f} (>= 0.70) {ok}; before "
                    f"{np.mean(cell.before):.3f}"
                )
    print(f"\ngoals (mode {args.mode!r}):")
    for g in goals:
        print("  " + g)
    print(
        "  never worse than uncalibrated beyond noise: "
        + ("MET" if not worse else "MISSED (" + "; ".join(worse) + ")")
    )
    print(f"wall time {time.perf_counter() - t0:.0f} s; load average at end={_load()}")


if __name__ == "__main__":
    main()
