"""The driver's side of a distributed job: its spec from the caller's arguments, its summary.

`job_spec` checks everything that can be checked before a worker starts (metric names,
column names, limits, that no key is passed) and returns the `JobSpec` the engines ship.
`JobSummary` adds up the workers' rows: the counts by status and the spend each record
carries in `meta.run.cost_usd` (its worker's spend for it), so the job's spend is the sum
of every worker's.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..evaluators.auto import _ALL_METRICS, AUTO_METRICS
from ..evaluators.options import choose_metrics
from ..metrics import SUMMARY_METRICS
from .budget import Budget, WorkerShare
from .columns import Kind, check_input_columns, output_columns
from .task import JobSpec

__all__ = ["JobSummary", "budget_of", "job_spec"]


def job_spec(
    kind: Kind,
    *,
    columns: Sequence[str],
    fields: Mapping[str, str],
    id_col: str | None,
    model: str | Sequence[str],
    metrics: Sequence[str] | None,
    share: WorkerShare,
    cache_dir: str | Path | None,
    credentials_env: str | None,
    options: Mapping[str, Any],
) -> JobSpec:
    """The checked `JobSpec` of a job over a table with `columns`."""
    names = [model] if isinstance(model, str) else list(model)
    if not names or not all(isinstance(m, str) for m in names):
        raise ConfigError(
            "model must be a judge's name, or a list of names for a panel (a Judge object "
            "cannot be shipped to workers)"
        )
    if kind == "summary":
        chosen = choose_metrics(metrics, list(SUMMARY_METRICS), "enabled_metrics")
    else:
        chosen = choose_metrics(metrics, _ALL_METRICS, "metrics", AUTO_METRICS)
    wanted = [*fields.values(), *([id_col] if id_col else [])]
    missing = [c for c in wanted if c not in columns]
    if missing:
        raise ConfigError(
            f"column(s) {', '.join(missing)} not in the input (it has {', '.join(columns)}); "
            "name the right ones with input_col=, summary_col=, id_col="
        )
    check_input_columns(columns, output_columns(kind, chosen))
    return JobSpec(
        kind=kind,
        model=model if isinstance(model, str) else tuple(names),
        metrics=tuple(chosen),
        fields=dict(fields),
        id_col=id_col,
        share=share,
        cache_dir=None if cache_dir is None else str(Path(cache_dir).expanduser().resolve()),
        credentials_env=credentials_env,
        options=dict(options),
    )


def budget_of(options: dict[str, Any]) -> Budget:
    """Take the job's global limits out of the caller's keyword arguments."""
    return Budget(
        concurrency=int(options.pop("concurrency", 8)),
        rpm=options.pop("rpm", None),
        tpm=options.pop("tpm", None),
        max_cost=options.pop("max_cost", None),
        calls_in_flight=options.pop("calls_in_flight", None),
    )


@dataclass
class JobSummary:
    """Counts by status and the spend of every worker, added up from the result rows."""

    counts: dict[str, int] = field(default_factory=dict)
    cost_usd: float = 0.0

    def add(self, status: str, result_json: str | None) -> None:
        """Count one output row."""
        self.counts[status] = self.counts.get(status, 0) + 1
        if result_json:
            run = json.loads(result_json).get("meta", {}).get("run") or {}
            self.cost_usd += float(run.get("cost_usd") or 0.0)

    def add_rows(self, rows: Iterable[tuple[str, str | None]]) -> JobSummary:
        """Count many (status, result_json) rows; returns self."""
        for status, result_json in rows:
            self.add(status, result_json)
        return self

    def merge(self, other: JobSummary) -> JobSummary:
        """Add another part's counts and spend; returns self."""
        for status, n in other.counts.items():
            self.counts[status] = self.counts.get(status, 0) + n
        self.cost_usd += other.cost_usd
        return self

    @property
    def items(self) -> int:
        """Rows counted."""
        return sum(self.counts.values())

    def line(self) -> str:
        """One line: the counts and the spend."""
        states = ", ".join(
            f"{self.counts.get(s, 0)} {s}" for s in ("ok", "failed", "invalid", "not_run")
        )
        return f"{self.items} item(s): {states}; spent ${self.cost_usd:.4f} over all workers"

    def to_dict(self) -> dict[str, Any]:
        """The summary as JSON."""
        return {"items": self.items, **self.counts, "cost_usd": round(self.cost_usd, 6)}
