"""The rules of `sumjudge gate`, checked against one run (and optionally a baseline).

Every rule gives one `RuleOutcome`: the figure, its 95% interval, the threshold and
whether it holds. With `on_bound`, rates and means are judged by the unfavourable end of
their interval instead of the point value, so a small sample has to earn its pass.
`no_regression` fails only on a significant fall (after Holm's correction), so judge
noise alone does not fail a build.

Items that were not judged (failed, invalid, not run) cannot make a run look better:
they stay in the rates' denominators, counted against each rate (not good; bad, since
nothing shows they are not), and `max_failed_rate` (default 0) is a rule of its own. A
rule that cannot fail at the run's size (no test can be significant there, or the
interval is wider than the rule's margin) says so on its line; with `strict` it fails.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from os import PathLike
from typing import Any

import numpy as np

from .core import compare_results
from .records import Item, Results, read_items
from .result import Comparison
from .stats import paired_bootstrap, sign_test, wilcoxon_min_p, wilson

__all__ = ["GateReport", "GateRules", "RuleOutcome", "check_gate", "rules_from_mapping"]


@dataclass(frozen=True)
class GateRules:
    """What a run must satisfy.

    Attributes:
        min_good_rate: the smallest acceptable share of items rated good.
        max_bad_rate: the largest acceptable share of items rated bad.
        min_mean: per metric, the smallest acceptable mean.
        no_regression: with a baseline, fail on a significantly worse metric or good rate.
        max_drop: per metric, the largest acceptable fall of the mean from the baseline.
        max_failed_rate: the largest acceptable share of items not judged (failed,
            invalid, not run); None means 0, checked whenever any rule is.
        alpha: significance level of `no_regression`.
        on_bound: judge by the unfavourable end of each 95% interval.
        strict: fail a rule that cannot fail at this run's size (see `RuleOutcome`).
        n_resamples: bootstrap resamples for the intervals of means and differences.
        seed: the bootstrap's seed.
    """

    min_good_rate: float | None = None
    max_bad_rate: float | None = None
    min_mean: Mapping[str, float] = field(default_factory=dict)
    no_regression: bool = False
    max_drop: Mapping[str, float] = field(default_factory=dict)
    max_failed_rate: float | None = None
    alpha: float = 0.05
    on_bound: bool = False
    strict: bool = False
    n_resamples: int = 2000
    seed: int = 0

    def needs_baseline(self) -> bool:
        """Whether a rule compares with a baseline run."""
        return self.no_regression or bool(self.max_drop)

    def is_empty(self) -> bool:
        """Whether no rule is set at all."""
        return (
            self.min_good_rate is None
            and self.max_bad_rate is None
            and not self.min_mean
            and self.max_failed_rate is None
            and not self.needs_baseline()
        )


@dataclass(frozen=True)
class RuleOutcome:
    """One rule's check: `figure` (with `interval`) against `threshold`.

    `inconclusive` says why the rule could not have failed on this data (e.g. no test
    can be significant with 6 items), "" when it could; `strict` turns such a pass into
    a failure.
    """

    rule: str
    figure: float | None
    interval: tuple[float, float] | None
    threshold: str
    passed: bool
    note: str = ""
    inconclusive: str = ""

    def remark(self) -> str:
        """The note and the inconclusive warning, as shown after the threshold."""
        parts = [p for p in (self.note, self.inconclusive and f"WARNING: {self.inconclusive}") if p]
        return f" ({'; '.join(parts)})" if parts else ""

    def line(self) -> str:
        """The rule as one line: PASS/FAIL, the figure, its interval, the threshold."""
        figure = "-" if self.figure is None else f"{self.figure:.3f}"
        interval = (
            "" if self.interval is None else (f" [{self.interval[0]:.3f}, {self.interval[1]:.3f}]")
        )
        verdict = "PASS" if self.passed else "FAIL"
        return f"{verdict} {self.rule}: {figure}{interval} {self.threshold}{self.remark()}"


@dataclass(frozen=True)
class GateReport:
    """Every rule's outcome and the items the figures rest on."""

    outcomes: list[RuleOutcome]
    n: int
    not_ok: int
    not_ok_by_status: Mapping[str, int] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        """Whether every rule holds."""
        return all(o.passed for o in self.outcomes)

    @property
    def inconclusive(self) -> list[RuleOutcome]:
        """The rules that could not have failed on this data."""
        return [o for o in self.outcomes if o.inconclusive]

    def to_markdown(self) -> str:
        """The outcomes as a Markdown table (for `$GITHUB_STEP_SUMMARY` or a PR comment)."""
        verdict = "passed" if self.passed else "FAILED"
        lines = [
            f"## sumjudge gate: {verdict}",
            "",
            f"{self.n} item(s) judged ok; {self.not_ok} failed, invalid or not run.",
            "",
            "| rule | result | figure | 95% interval | threshold |",
            "|---|---|---:|---|---|",
        ]
        for o in self.outcomes:
            figure = "-" if o.figure is None else f"{o.figure:.3f}"
            interval = "-" if o.interval is None else f"[{o.interval[0]:.3f}, {o.interval[1]:.3f}]"
            lines.append(
                f"| {o.rule} | {'pass' if o.passed else '**FAIL**'} | {figure} | {interval} | "
                f"{o.threshold}{o.remark()} |"
            )
        return "\n".join(lines) + "\n"


def _metric_values(items: list[Item], metric: str) -> np.ndarray:
    scored = [i.metrics[metric] for i in items if metric in i.metrics]
    scored = [m for m in scored if m.score is not None]
    weighted = bool(scored) and all(m.weighted is not None for m in scored)
    return np.array([m.weighted if weighted else m.score for m in scored], dtype=float)


def check_gate(
    results: Results, rules: GateRules, *, baseline: Results | None = None
) -> GateReport:
    """Check `rules` against `results` (and `baseline` for the comparison rules).

    Raises:
        ValueError: no rule, a comparison rule without a baseline, a metric the run does not
            score, no record at all, or an unreadable file.
    """
    if rules.is_empty():
        raise ValueError("no gate rule given (see sumjudge gate --help)")
    if rules.needs_baseline() and baseline is None:
        raise ValueError("--no-regression and --max-drop need --baseline BASE.jsonl")
    items = read_items(results)
    if not items:
        raise ValueError(f"{_name(results)} holds no result record")
    ok = [i for i in items if i.status == "ok"]
    not_ok = Counter(i.status for i in items if i.status != "ok")
    outcomes = _rate_rules(ok, sum(not_ok.values()), rules)
    for metric, limit in rules.min_mean.items():
        outcomes.append(_mean_rule(ok, metric, limit, rules))
    if baseline is not None and rules.needs_baseline():
        outcomes += _baseline_rules(baseline, results, rules)
    outcomes.append(_failed_rule(len(items), not_ok, rules))
    if rules.strict:
        outcomes = [replace(o, passed=False) if o.inconclusive else o for o in outcomes]
    return GateReport(
        outcomes=outcomes,
        n=len(ok),
        not_ok=len(items) - len(ok),
        not_ok_by_status=dict(sorted(not_ok.items())),
    )


def _name(results: Results) -> str:
    return str(results) if isinstance(results, (str, PathLike)) else "the results"


def _rate_rules(ok: list[Item], unjudged: int, rules: GateRules) -> list[RuleOutcome]:
    """The good and bad rates, over every item: an item not judged counts against both."""
    out: list[RuleOutcome] = []
    rated = [i.rating for i in ok if i.rating is not None]
    for label, limit, want_good in (
        ("good rate", rules.min_good_rate, True),
        ("bad rate", rules.max_bad_rate, False),
    ):
        if limit is None:
            continue
        if ok and not rated:
            raise ValueError(f"a {label} rule needs ratings; these results have none")
        # An unjudged item is not good, and nothing shows it is not bad: counting it
        # any other way would let failures dilute a rate into a pass.
        n = len(rated) + unjudged
        hits = rated.count("good") if want_good else rated.count("bad") + unjudged
        rate, ci = hits / n, wilson(hits, n)
        judged = (ci[0] if want_good else ci[1]) if rules.on_bound else rate
        passed = judged >= limit if want_good else judged <= limit
        note = f"n={n}"
        if unjudged:
            counted = "not good" if want_good else "bad"
            note += f", {unjudged} not judged counted as {counted}"
        if rules.on_bound:
            note += ", judged by the interval's unfavourable end"
        sign = ">=" if want_good else "<="
        out.append(RuleOutcome(label, rate, ci, f"{sign} {limit}", passed, note))
    return out


def _mean_rule(ok: list[Item], metric: str, limit: float, rules: GateRules) -> RuleOutcome:
    if not ok:  # nothing was judged: the mean is unknown, and the rule cannot hold
        return RuleOutcome(f"mean {metric}", None, None, f">= {limit}", False, "no item judged")
    values = _metric_values(ok, metric)
    if not len(values):
        raise ValueError(f"--min-mean: metric {metric!r} is not scored in the results")
    ci = paired_bootstrap(values, n_resamples=rules.n_resamples, seed=rules.seed)
    mean = float(values.mean())
    passed = (ci[0] if rules.on_bound else mean) >= limit
    note = f"n={len(values)}" + (
        ", judged by the interval's unfavourable end" if rules.on_bound else ""
    )
    return RuleOutcome(f"mean {metric}", mean, ci, f">= {limit}", passed, note)


def _failed_rule(total: int, not_ok: Mapping[str, int], rules: GateRules) -> RuleOutcome:
    """The share of items not judged, by the point value: a count of this run, not an estimate."""
    limit = 0.0 if rules.max_failed_rate is None else rules.max_failed_rate
    count = sum(not_ok.values())
    rate = count / total
    parts = ", ".join(f"{n} {status.replace('_', ' ')}" for status, n in sorted(not_ok.items()))
    note = f"n={total}" + (f": {parts}" if parts else "")
    return RuleOutcome(
        "failed rate", rate, wilson(count, total), f"<= {limit:g}", rate <= limit, note
    )


def _no_regression(cmp: Comparison, alpha: float) -> list[RuleOutcome]:
    out: list[RuleOutcome] = []
    # Holm multiplies the smallest p by the number of metrics: no metric can be
    # "regressed" unless that product can fall below alpha at these sizes.
    floor = len(cmp.metrics) * min((wilcoxon_min_p(m.n) for m in cmp.metrics.values()),
                                   default=1.0)  # fmt: skip
    for m in cmp.metrics.values():
        interval = None if m.ci_low is None or m.ci_high is None else (m.ci_low, m.ci_high)
        least = max(floor, wilcoxon_min_p(m.n))
        why = ""
        if least >= alpha:
            why = (
                f"cannot fail at n={m.n}: the smallest attainable Holm p is {least:.3g} "
                f">= alpha {alpha}; use --max-drop {m.name}=D"
            )
        out.append(
            RuleOutcome(
                f"no regression {m.name}",
                m.mean_diff,
                interval,
                f"not significantly < 0 at alpha {alpha}",
                m.verdict != "regressed",
                f"n={m.n}, p={m.p_value:.4g}, Holm p={m.p_adjusted:.4g}",
                why,
            )
        )
    r = cmp.ratings
    if r is not None and r.base.good_rate is not None and r.candidate.good_rate is not None:
        diff = r.candidate.good_rate - r.base.good_rate
        worse = diff < 0 and r.good_rate_p < alpha
        # The sign test's most extreme outcome: every base item rated good stops being.
        # (With none rated good there is nothing to lose: no regression to miss.)
        least = sign_test(r.base.good, 0)
        why = ""
        if r.base.good and least >= alpha:
            why = (
                f"cannot fail: with {r.base.good} base item(s) rated good the smallest "
                f"attainable p is {least:.3g} >= alpha {alpha}; use --min-good-rate"
            )
        out.append(
            RuleOutcome(
                "no regression good rate",
                diff,
                None,
                f"not significantly < 0 at alpha {alpha}",
                not worse,
                f"n={r.n}, {r.base.good_rate:.3f} -> {r.candidate.good_rate:.3f}, "
                f"sign test p={r.good_rate_p:.4g}",
                why,
            )
        )
    return out


def _baseline_rules(baseline: Results, results: Results, rules: GateRules) -> list[RuleOutcome]:
    metrics = list(rules.max_drop) or None
    cmp = compare_results(
        baseline,
        results,
        metrics=metrics if not rules.no_regression else None,
        alpha=rules.alpha,
        n_resamples=rules.n_resamples,
        seed=rules.seed,
    )
    out = _no_regression(cmp, rules.alpha) if rules.no_regression else []
    for metric, limit in rules.max_drop.items():
        m = cmp.metrics.get(metric)
        if m is None and not cmp.metrics and cmp.excluded:  # no pair judged on both sides
            out.append(
                RuleOutcome(f"drop {metric}", None, None, f">= -{limit}", False, "no pair judged")
            )
            continue
        if m is None or m.mean_diff is None or m.ci_low is None or m.ci_high is None:
            raise ValueError(f"--max-drop: metric {metric!r} is not scored on both sides")
        judged = m.ci_low if rules.on_bound else m.mean_diff
        width = m.ci_high - m.ci_low
        why = ""
        if width > limit and not rules.on_bound:  # on the bound, the interval is the verdict
            why = (
                f"the 95% interval is {width:.3f} wide, wider than the allowed drop {limit:g}: "
                "too few items to tell (add items, or judge by the bound with --on-bound)"
            )
        out.append(
            RuleOutcome(
                f"drop {metric}",
                m.mean_diff,
                (m.ci_low, m.ci_high),
                f">= -{limit}",
                judged >= -limit,
                f"n={m.n}" + (", judged by the interval's low end" if rules.on_bound else ""),
                why,
            )
        )
    return out


def rules_from_mapping(config: Mapping[str, Any], where: str) -> dict[str, Any]:
    """Gate settings from a config table (`[tool.sumjudge.gate]` or a YAML file).

    Returns the keyword arguments of `GateRules` it sets. Raises ValueError naming
    `where` and the key for an unknown key or a value of the wrong type.
    """
    out: dict[str, Any] = {}
    for key, value in config.items():
        name = key.replace("-", "_")
        if name in ("min_good_rate", "max_bad_rate", "max_failed_rate", "alpha"):
            out[name] = _fraction(value, where, key)
        elif name in ("min_mean", "max_drop"):
            if not isinstance(value, Mapping) or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in value.values()
            ):
                raise ValueError(f"{where}: {key} must be a table of metric = number")
            out[name] = {str(k): float(v) for k, v in value.items()}
        elif name in ("no_regression", "on_bound", "strict"):
            if not isinstance(value, bool):
                raise ValueError(f"{where}: {key} must be true or false (got {value!r})")
            out[name] = value
        elif name in ("n_resamples", "seed"):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"{where}: {key} must be a non-negative integer")
            out[name] = value
        elif name != "baseline":
            raise ValueError(f"{where}: unknown gate setting {key!r}")
    return out


def _fraction(value: Any, where: str, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise ValueError(f"{where}: {key} must be a number between 0 and 1 (got {value!r})")
    return float(value)
