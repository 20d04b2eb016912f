"""The rules of `sumjudge gate`, checked against one run (and optionally a baseline).

Every rule gives one `RuleOutcome`: the figure, its 95% interval, the threshold and
whether it holds. With `on_bound`, rates and means are judged by the unfavourable end of
their interval instead of the point value, so a small sample has to earn its pass.
`no_regression` fails only on a significant fall (after Holm's correction), so judge
noise alone does not fail a build.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .core import compare_results
from .records import Item, Results, read_items
from .stats import paired_bootstrap, wilson

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
        alpha: significance level of `no_regression`.
        on_bound: judge by the unfavourable end of each 95% interval.
        n_resamples: bootstrap resamples for the intervals of means and differences.
        seed: the bootstrap's seed.
    """

    min_good_rate: float | None = None
    max_bad_rate: float | None = None
    min_mean: Mapping[str, float] = field(default_factory=dict)
    no_regression: bool = False
    max_drop: Mapping[str, float] = field(default_factory=dict)
    alpha: float = 0.05
    on_bound: bool = False
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
            and not self.needs_baseline()
        )


@dataclass(frozen=True)
class RuleOutcome:
    """One rule's check: `figure` (with `interval`) against `threshold`."""

    rule: str
    figure: float | None
    interval: tuple[float, float] | None
    threshold: str
    passed: bool
    note: str = ""

    def line(self) -> str:
        """The rule as one line: PASS/FAIL, the figure, its interval, the threshold."""
        figure = "-" if self.figure is None else f"{self.figure:.3f}"
        interval = (
            "" if self.interval is None else (f" [{self.interval[0]:.3f}, {self.interval[1]:.3f}]")
        )
        note = f" ({self.note})" if self.note else ""
        verdict = "PASS" if self.passed else "FAIL"
        return f"{verdict} {self.rule}: {figure}{interval} {self.threshold}{note}"


@dataclass(frozen=True)
class GateReport:
    """Every rule's outcome and the items the figures rest on."""

    outcomes: list[RuleOutcome]
    n: int
    not_ok: int

    @property
    def passed(self) -> bool:
        """Whether every rule holds."""
        return all(o.passed for o in self.outcomes)

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
            note = f" ({o.note})" if o.note else ""
            lines.append(
                f"| {o.rule} | {'pass' if o.passed else '**FAIL**'} | {figure} | {interval} | "
                f"{o.threshold}{note} |"
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
            score, no judged item, or an unreadable file.
    """
    if rules.is_empty():
        raise ValueError("no gate rule given (see sumjudge gate --help)")
    if rules.needs_baseline() and baseline is None:
        raise ValueError("--no-regression and --max-drop need --baseline BASE.jsonl")
    items = read_items(results)
    ok = [i for i in items if i.status == "ok"]
    if not ok:
        raise ValueError("the results have no judged item (every row failed or is invalid)")
    outcomes: list[RuleOutcome] = []
    bound = rules.on_bound
    rated = [i.rating for i in ok if i.rating is not None]
    for label, limit, want_good in (
        ("good rate", rules.min_good_rate, True),
        ("bad rate", rules.max_bad_rate, False),
    ):
        if limit is None:
            continue
        if not rated:
            raise ValueError(f"a {label} rule needs ratings; these results have none")
        hits = rated.count("good" if want_good else "bad")
        rate, ci = hits / len(rated), wilson(hits, len(rated))
        judged = (ci[0] if want_good else ci[1]) if bound else rate
        passed = judged >= limit if want_good else judged <= limit
        sign = ">=" if want_good else "<="
        outcomes.append(_outcome(label, rate, ci, f"{sign} {limit}", passed, bound, len(rated)))
    for metric, limit in rules.min_mean.items():
        values = _metric_values(ok, metric)
        if not len(values):
            raise ValueError(f"--min-mean: metric {metric!r} is not scored in the results")
        ci = paired_bootstrap(values, n_resamples=rules.n_resamples, seed=rules.seed)
        mean = float(values.mean())
        passed = (ci[0] if bound else mean) >= limit
        outcomes.append(
            _outcome(f"mean {metric}", mean, ci, f">= {limit}", passed, bound, len(values))
        )
    if baseline is not None and rules.needs_baseline():
        outcomes += _baseline_rules(baseline, results, rules)
    return GateReport(outcomes=outcomes, n=len(ok), not_ok=len(items) - len(ok))


def _outcome(
    rule: str,
    figure: float,
    ci: tuple[float, float],
    threshold: str,
    passed: bool,
    bound: bool,
    n: int,
) -> RuleOutcome:
    note = f"n={n}" + (", judged by the interval's unfavourable end" if bound else "")
    return RuleOutcome(rule, figure, ci, threshold, passed, note)


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
    out: list[RuleOutcome] = []
    if rules.no_regression:
        for m in cmp.metrics.values():
            interval = None if m.ci_low is None or m.ci_high is None else (m.ci_low, m.ci_high)
            out.append(
                RuleOutcome(
                    f"no regression {m.name}",
                    m.mean_diff,
                    interval,
                    f"not significantly < 0 at alpha {rules.alpha}",
                    m.verdict != "regressed",
                    f"n={m.n}, p={m.p_value:.4g}, Holm p={m.p_adjusted:.4g}",
                )
            )
        r = cmp.ratings
        if r is not None and r.base.good_rate is not None and r.candidate.good_rate is not None:
            diff = r.candidate.good_rate - r.base.good_rate
            worse = diff < 0 and r.good_rate_p < rules.alpha
            out.append(
                RuleOutcome(
                    "no regression good rate",
                    diff,
                    None,
                    f"not significantly < 0 at alpha {rules.alpha}",
                    not worse,
                    f"n={r.n}, {r.base.good_rate:.3f} -> {r.candidate.good_rate:.3f}, "
                    f"sign test p={r.good_rate_p:.4g}",
                )
            )
    for metric, limit in rules.max_drop.items():
        found = cmp.metrics.get(metric)
        if found is None:
            raise ValueError(f"--max-drop: metric {metric!r} is not scored on both sides")
        m = found
        if m.mean_diff is None or m.ci_low is None or m.ci_high is None:
            raise ValueError(f"--max-drop: metric {metric!r} is not scored on both sides")
        judged = m.ci_low if rules.on_bound else m.mean_diff
        out.append(
            RuleOutcome(
                f"drop {metric}",
                m.mean_diff,
                (m.ci_low, m.ci_high),
                f">= -{limit}",
                judged >= -limit,
                f"n={m.n}" + (", judged by the interval's low end" if rules.on_bound else ""),
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
        if name in ("min_good_rate", "max_bad_rate", "alpha"):
            out[name] = _fraction(value, where, key)
        elif name in ("min_mean", "max_drop"):
            if not isinstance(value, Mapping) or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in value.values()
            ):
                raise ValueError(f"{where}: {key} must be a table of metric = number")
            out[name] = {str(k): float(v) for k, v in value.items()}
        elif name in ("no_regression", "on_bound"):
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
