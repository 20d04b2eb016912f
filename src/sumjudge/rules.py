"""The rule book: turns metric scores into good / incomplete / bad. Pure functions only.

The default book is the specification's:
    good: coherence >= 2 AND consistency >= 3 AND relevance >= 3 AND fluency >= 2
    bad:  any metric <= 1
    incomplete: anything else
Only the enabled metrics' conditions apply. A user can replace the thresholds.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from .errors import ConfigError

__all__ = [
    "DEFAULT_RULE_BOOK",
    "Rating",
    "RuleBook",
    "Threshold",
    "normalize",
    "rate",
    "rating_confidence",
]

ALL_MESSAGE = "All metrics met the expected values."

_SHORTFALL = {
    "coherence": "the summary's flow is fragmented or partly disconnected",
    "consistency": "some claims are not supported by the source",
    "relevance": "important information is missing or the focus drifts",
    "fluency": "there are readability, grammar or clarity problems",
}


@dataclass(frozen=True)
class Threshold:
    """What one metric must reach: `good_at_least` for good, `bad_at_most` marks bad."""

    good_at_least: int
    bad_at_most: int = 1


@dataclass(frozen=True)
class RuleBook:
    """Per-metric thresholds. `RuleBook.default()` is the specification's book."""

    thresholds: Mapping[str, Threshold] = field(default_factory=dict)

    @classmethod
    def default(cls) -> RuleBook:
        """The specification's book (`DEFAULT_RULE_BOOK`)."""
        return DEFAULT_RULE_BOOK

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleBook:
        """Build from `{"coherence": {"good_at_least": 2, "bad_at_most": 1}, ...}`."""
        out: dict[str, Threshold] = {}
        for name, spec in data.items():
            try:
                out[name] = Threshold(int(spec["good_at_least"]), int(spec.get("bad_at_most", 1)))
            except (KeyError, TypeError, ValueError) as exc:
                raise ConfigError(
                    f"rule book entry {name!r} needs integer good_at_least (and bad_at_most)"
                ) from exc
        return cls(out)

    @classmethod
    def from_file(cls, path: str | Path) -> RuleBook:
        """Read a rule book from a JSON or YAML file."""
        text = Path(path).read_text(encoding="utf-8")
        if str(path).endswith((".yaml", ".yml")):
            import yaml

            data = yaml.safe_load(text)
        else:
            data = json.loads(text)
        if not isinstance(data, dict):
            raise ConfigError(f"rule book {path} must be a mapping of metric -> thresholds")
        return cls.from_dict(data)

    def threshold(self, metric: str) -> Threshold:
        """The thresholds of `metric`; raises `ConfigError` if the book has none."""
        try:
            return self.thresholds[metric]
        except KeyError as exc:
            raise ConfigError(f"the rule book has no thresholds for metric {metric!r}") from exc


DEFAULT_RULE_BOOK = RuleBook(
    {
        "coherence": Threshold(good_at_least=2, bad_at_most=1),
        "consistency": Threshold(good_at_least=3, bad_at_most=1),
        "relevance": Threshold(good_at_least=3, bad_at_most=1),
        "fluency": Threshold(good_at_least=2, bad_at_most=1),
    }
)


@dataclass(frozen=True)
class Rating:
    """The aggregate verdict for one summary."""

    relevancy_rating: str | None
    score: float | None
    binary_score: int | None
    avg_score: float | None
    global_explanation: str
    possible_issues: list[str]


def normalize(score: int, scale_max: int = 3) -> float:
    """`score / scale_max` rounded half-up to 2 decimals (2 -> 0.67, 3 -> 1.0)."""
    return _round2(Decimal(score) / Decimal(scale_max))


def _round2(value: Decimal) -> float:
    return float(value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def rate(
    scores: Mapping[str, int | None],
    enabled: Sequence[str],
    book: RuleBook = DEFAULT_RULE_BOOK,
    *,
    failures: Mapping[str, str] | None = None,
) -> Rating:
    """Apply the rule book to the enabled metrics' integer scores.

    A metric that failed (score None) makes the rating uncomputable: every aggregate is
    None and `global_explanation` says why. It is never guessed.
    """
    failures = dict(failures or {})
    missing = [m for m in enabled if scores.get(m) is None]
    if missing:
        reasons = "; ".join(f"{m}: {failures.get(m, 'no score')}" for m in missing)
        return Rating(
            relevancy_rating=None,
            score=None,
            binary_score=None,
            avg_score=None,
            global_explanation=f"Rating not computed because these metrics failed: {reasons}",
            possible_issues=[],
        )
    values = {m: int(scores[m]) for m in enabled}  # type: ignore[arg-type]
    short: list[str] = []
    issues: list[str] = []
    for m in enabled:
        th = book.threshold(m)
        s = values[m]
        if s < th.good_at_least:
            short.append(f"{m} scored {s} (expected >= {th.good_at_least})")
            why = _SHORTFALL.get(m, "below the expected value")
            issues.append(f"{m}: {why} (score {s}, expected >= {th.good_at_least})")
    rating = _verdict(values, enabled, book)
    score = _VERDICT_SCORE[rating]
    if rating == "good":
        explanation = ALL_MESSAGE
    else:
        lead = (
            "At least one metric is at the failing level"
            if rating == "bad"
            else "Not all metrics met the expected values"
        )
        explanation = f"{lead}: " + "; ".join(short) + "."
    avg = (
        _round2(sum(Decimal(str(normalize(values[m]))) for m in enabled) / Decimal(len(enabled)))
        if enabled
        else None
    )
    return Rating(
        relevancy_rating=rating,
        score=score,
        binary_score=1 if rating == "good" else 0,
        avg_score=avg,
        global_explanation=explanation,
        possible_issues=issues,
    )


_VERDICT_SCORE = {"bad": 0.0, "incomplete": 0.5, "good": 1.0}


def _verdict(values: Mapping[str, int], enabled: Sequence[str], book: RuleBook) -> str:
    """The rating alone, which `rate` and `rating_confidence` share.

    "bad" if any metric is at its failing level, "incomplete" if any is short of its
    expected value, else "good".
    """
    return _RATINGS[max((_rank(values[m], book.threshold(m)) for m in enabled), default=0)]


def _rank(score: int, threshold: Threshold) -> int:
    """Where one score stands: 2 at the failing level, 1 short of the expected value, else 0.

    A rating is decided by the worst rank among the metrics (`_RATINGS`).
    """
    if score <= threshold.bad_at_most:
        return 2
    return 1 if score < threshold.good_at_least else 0


_RATINGS = ("good", "incomplete", "bad")
"""The rating of scores whose worst rank (`_rank`) is the index."""


def rating_confidence(
    distributions: Mapping[str, Mapping[int, float]],
    enabled: Sequence[str],
    rating: str,
    book: RuleBook = DEFAULT_RULE_BOOK,
) -> float:
    """The probability that the rule book gives `rating` when scores are drawn at random.

    Each enabled metric's score is drawn from its own distribution (score -> probability),
    the metrics independently of one another (an assumption: one judge's verdicts on one
    summary are in truth correlated). Exact: every combination of scores is enumerated
    and rated (3^4 = 81 combinations for the four metrics), so any rule book is honoured.
    """
    names = list(enabled)
    # A combination's rating depends only on each score's rank (`_verdict`), so each score
    # is ranked once, not once per combination.
    support = [
        [(p, _rank(s, book.threshold(m))) for s, p in distributions[m].items() if p > 0]
        for m in names
    ]
    wanted = _RATINGS.index(rating) if rating in _RATINGS else -1
    total = 0.0
    for combo in itertools.product(*support):
        probability = 1.0
        worst = 0
        for p, rank in combo:
            probability *= p
            if rank > worst:
                worst = rank
        if worst == wanted:
            total += probability
    return total
