"""`compare_results`: a candidate run against a base run, item by item."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from os import PathLike
from typing import Any

import numpy as np

from .match import item_label, match_items
from .records import PERCENT_METRICS, Item, MetricValue, Results, attach_inputs, read_items
from .result import RATINGS, Comparison, MetricComparison, RateSummary, Ratings, Regression
from .stats import holm, paired_bootstrap, sign_test, wilcoxon_pratt, wilson

__all__ = ["compare_results", "regression_drop"]


def regression_drop(metric: str, drop: float = 1.0) -> float:
    """The fall that makes an item a regression on `metric`.

    `drop` is on the 1-3 scale of the summary metrics; percentage metrics (the
    autoevaluation's) use 25 points per unit, one step of a four-question rubric.
    """
    return drop * 25.0 if metric in PERCENT_METRICS else drop


def compare_results(
    base: Results,
    candidate: Results,
    *,
    metrics: Sequence[str] | None = None,
    alpha: float = 0.05,
    n_resamples: int = 2000,
    seed: int = 0,
    drop: float = 1.0,
    base_inputs: str | PathLike[str] | None = None,
    candidate_inputs: str | PathLike[str] | None = None,
) -> Comparison:
    """Compare a candidate run with a base run.

    Args:
        base: the current results: a JSONL path, a list of records or dicts, or a
            DataFrame from `evaluate_dataframe`.
        candidate: the new results, in any of the same forms.
        metrics: the metrics to compare (default: every metric scored on both sides).
        alpha: significance level of the verdicts, after Holm's correction.
        n_resamples: bootstrap resamples for the intervals.
        seed: the bootstrap's random seed (the same seed gives the same intervals).
        drop: a metric fall (1-3 scale) that lists an item among the regressions.
        base_inputs: the base run's input JSONL, for the summary texts and the source
            documents (items sharing a source are resampled together).
        candidate_inputs: the same for the candidate run.

    Raises:
        ValueError: an unreadable file, a metric absent from both runs, a bad setting.
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1 (got {alpha})")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be at least 1 (got {n_resamples})")
    base_items = read_items(base, name="base")
    cand_items = read_items(candidate, name="candidate")
    attach_inputs(base_items, base_inputs)
    attach_inputs(cand_items, candidate_inputs)
    matching = match_items(base_items, cand_items)
    if not matching.pairs:
        raise ValueError(_nothing_matched(base, base_items, candidate, cand_items))
    excluded: Counter[str] = Counter()
    pairs: list[tuple[Item, Item]] = []
    for b, c in matching.pairs:
        if b.status != "ok" or c.status != "ok":
            for side, item in (("base", b), ("candidate", c)):
                if item.status != "ok":
                    excluded[f"{side} {item.status}"] += 1
            continue
        pairs.append((b, c))
    names = _metric_names(pairs, metrics)
    if pairs and not names:
        raise ValueError(
            "no metric is scored on both sides (are these result files of sumjudge evaluate "
            "or autoeval, not their inputs?)"
        )
    per_metric = _metrics(pairs, names, alpha=alpha, n_resamples=n_resamples, seed=seed)
    compared = {m.name: m.compared for m in per_metric.values()}
    return Comparison(
        matched=len(matching.pairs),
        unmatched={"base": matching.unmatched_base, "candidate": matching.unmatched_candidate},
        excluded=dict(sorted(excluded.items())),
        metrics=per_metric,
        ratings=_ratings(pairs),
        regressions=_regressions(pairs, compared, drop),
        settings={"alpha": alpha, "n_resamples": n_resamples, "seed": seed, "drop": drop},
        duplicates=matching.duplicates,
    )


def _side_name(results: Results, default: str) -> str:
    return str(results) if isinstance(results, (str, PathLike)) else default


def _nothing_matched(base: Results, b: list[Item], candidate: Results, c: list[Item]) -> str:
    """Why a comparison of two runs with no item in common is refused, with sample ids."""
    names = (_side_name(base, "the base"), _side_name(candidate, "the candidate"))
    for name, items in zip(names, (b, c), strict=True):
        if not items:
            return f"{name} holds no result record: nothing to compare"

    def sample(items: list[Item]) -> str:
        labels = [item_label(i) for i in items[:3]]
        return ", ".join(labels) + (f" ... ({len(items)} in all)" if len(items) > 3 else "")

    return (
        f"no item of {names[0]} matches one of {names[1]} (base: {sample(b)}; candidate: "
        f"{sample(c)}): items pair by id, else by row and source; are both runs of the "
        "same input?"
    )


def _metric_names(pairs: list[tuple[Item, Item]], wanted: Sequence[str] | None) -> list[str]:
    seen: list[str] = []
    for b, c in pairs:
        for name in b.metrics:
            if name in c.metrics and name not in seen:
                seen.append(name)
    if wanted is None:
        return seen
    unknown = [m for m in wanted if m not in seen]
    if unknown and pairs:
        raise ValueError(
            f"metric(s) {', '.join(unknown)} not scored on both sides "
            f"(compared runs have: {', '.join(seen) or 'none'})"
        )
    return [m for m in wanted if m in seen]


def _value(m: MetricValue, compared: str) -> float | None:
    return m.weighted if compared == "weighted_score" else m.score


def _metrics(
    pairs: list[tuple[Item, Item]], names: list[str], *, alpha: float, n_resamples: int, seed: int
) -> dict[str, MetricComparison]:
    raw: list[dict[str, Any]] = []
    for name in names:
        both = [(b, c) for b, c in pairs if _scored(b, name) and _scored(c, name)]
        weighted = bool(both) and all(
            b.metrics[name].weighted is not None and c.metrics[name].weighted is not None
            for b, c in both
        )
        compared = "weighted_score" if weighted else "score"
        x = np.array([_value(b.metrics[name], compared) for b, _ in both], dtype=float)
        y = np.array([_value(c.metrics[name], compared) for _, c in both], dtype=float)
        d = y - x
        groups = [b.group or c.group for b, c in both]
        grouped = all(g is not None for g in groups) and len(set(groups)) < len(groups)
        low, high = paired_bootstrap(
            d, groups if grouped else None, n_resamples=n_resamples, seed=seed
        )
        test = wilcoxon_pratt(d)
        raw.append(
            {
                "name": name,
                "n": len(both),
                "base_mean": _mean(x),
                "candidate_mean": _mean(y),
                "mean_diff": _mean(d),
                "ci_low": None if not len(d) else low,
                "ci_high": None if not len(d) else high,
                "p_value": test.p_value,
                "wins": int((d > 0).sum()),
                "ties": int((d == 0).sum()),
                "losses": int((d < 0).sum()),
                "compared": compared,
                "method": test.method,
                "resampled": "sources" if grouped else "items",
                "missing": len(pairs) - len(both),
            }
        )
    adjusted = holm([r["p_value"] for r in raw])
    out: dict[str, MetricComparison] = {}
    for r, p_adj in zip(raw, adjusted, strict=True):
        verdict = "no significant difference"
        if p_adj < alpha and r["mean_diff"]:
            verdict = "improved" if r["mean_diff"] > 0 else "regressed"
        out[r["name"]] = MetricComparison(p_adjusted=p_adj, verdict=verdict, **r)
    return out


def _scored(item: Item, name: str) -> bool:
    m = item.metrics.get(name)
    return m is not None and m.score is not None


def _mean(values: np.ndarray) -> float | None:
    return float(values.mean()) if len(values) else None


def _rates(ratings: list[str]) -> RateSummary:
    n, good, bad = len(ratings), ratings.count("good"), ratings.count("bad")
    return RateSummary(
        n=n,
        good=good,
        bad=bad,
        good_rate=good / n if n else None,
        good_rate_ci=wilson(good, n),
        bad_rate=bad / n if n else None,
        bad_rate_ci=wilson(bad, n),
    )


def _ratings(pairs: list[tuple[Item, Item]]) -> Ratings | None:
    rated = [(b.rating, c.rating) for b, c in pairs if b.rating in RATINGS and c.rating in RATINGS]
    if not rated:
        return None
    transitions = {r: dict.fromkeys(RATINGS, 0) for r in RATINGS}
    for br, cr in rated:
        transitions[str(br)][str(cr)] += 1

    def paired_p(label: str) -> float:
        lost = sum(1 for br, cr in rated if br == label and cr != label)
        gained = sum(1 for br, cr in rated if br != label and cr == label)
        return sign_test(lost, gained)

    return Ratings(
        n=len(rated),
        transitions=transitions,
        base=_rates([str(br) for br, _ in rated]),
        candidate=_rates([str(cr) for _, cr in rated]),
        good_rate_p=paired_p("good"),
        bad_rate_p=paired_p("bad"),
    )


def _regressions(
    pairs: list[tuple[Item, Item]], compared: dict[str, str], drop: float
) -> list[Regression]:
    out: list[Regression] = []
    for b, c in pairs:
        fell = 0
        if b.rating in RATINGS and c.rating in RATINGS:
            fell = max(0, RATINGS.index(str(c.rating)) - RATINGS.index(str(b.rating)))
        worst = 0.0
        shown: dict[str, dict[str, Any]] = {}
        for name, how in compared.items():
            bm, cm = b.metrics.get(name), c.metrics.get(name)
            if bm is None or cm is None:
                continue
            bv, cv = _value(bm, how), _value(cm, how)
            if bv is not None and cv is not None:
                worst = max(worst, (bv - cv) / regression_drop(name, drop))
            shown[name] = {
                "base": bv,
                "candidate": cv,
                "base_explanation": bm.explanation,
                "candidate_explanation": cm.explanation,
                "p_not_worse": _p_not_worse(bm, cm),
            }
        if fell or worst >= 1:
            out.append(
                Regression(
                    id=item_label(b),
                    base_rating=b.rating,
                    candidate_rating=c.rating,
                    metrics=shown,
                    base_summary=b.summary,
                    candidate_summary=c.summary,
                    severity=(fell, worst),
                    within_uncertainty=_within_uncertainty(b, c, shown, compared, drop),
                )
            )
    out.sort(key=lambda r: r.severity, reverse=True)
    return out


#: A drop is within one item's uncertainty when, drawing each side's score from its
#: distribution, the candidate is at least as good as the base this often.
NOISE_P = 0.25


def _p_not_worse(base: MetricValue, candidate: MetricValue) -> float | None:
    """P(candidate score >= base score), the two scores drawn from their distributions."""
    pb, pc = base.distribution, candidate.distribution
    if not pb or not pc:
        return None
    p = sum(b * c for i, b in pb.items() for j, c in pc.items() if j >= i)
    return round(p, 4)


def _within_uncertainty(
    b: Item, c: Item, shown: dict[str, dict[str, Any]], compared: dict[str, str], drop: float
) -> bool | None:
    """Whether the regression could be judge noise alone (None: no distributions to tell).

    True when every metric that fell by the regression drop has P(not worse) of at least
    `NOISE_P`, and a fallen rating was marked uncertain on either side.
    """
    fallen = [
        v
        for name, v in shown.items()
        if v["base"] is not None
        and v["candidate"] is not None
        and (v["base"] - v["candidate"]) >= regression_drop(name, drop)
    ]
    rating_fell = (
        b.rating in RATINGS
        and c.rating in RATINGS
        and RATINGS.index(str(c.rating)) > RATINGS.index(str(b.rating))
    )
    if any(v["p_not_worse"] is None for v in fallen) or (rating_fell and c.uncertain is None):
        return None
    if not fallen and not rating_fell:
        return None
    metrics_noise = all(v["p_not_worse"] >= NOISE_P for v in fallen)
    rating_noise = not rating_fell or bool(b.uncertain or c.uncertain)
    return metrics_noise and rating_noise
