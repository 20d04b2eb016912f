"""The fixed output columns of a distributed job, and one record as one row of them.

A distributed engine needs the output schema before any row is judged (Spark's
`mapInPandas` takes it up front), so the columns depend only on the evaluator kind and
its metrics, never on the results. The input columns come first, unchanged; then:

- summaries (`evaluate_*`): per metric `<m>_score` (int), `<m>_explanation`,
  `<m>_normalized` (double), `<m>_weighted` (double), `<m>_error`; then
  `relevancy_rating`, `score` (double), `binary_score` (int), `avg_score` (double),
  `global_explanation`, `status`, `error`, `result_json`;
- conversations (`autoeval_*`): per metric `<m>_score` (double, the pooled percentage),
  `<m>_error`; then `status`, `error`, `result_json`.

`result_json` is the record's JSON line, as `sumjudge evaluate -o` writes it (with
`meta.run.cost_usd`, which the job summary adds up). Missing values are nulls.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal

from ..errors import ConfigError
from ..evaluators.records import Record

__all__ = ["Column", "Kind", "check_input_columns", "output_columns", "record_row"]

Kind = Literal["summary", "conversation"]
Column = tuple[str, Literal["int", "double", "string"]]

_SUMMARY_METRIC: tuple[tuple[str, Literal["int", "double", "string"]], ...] = (
    ("score", "int"),
    ("explanation", "string"),
    ("normalized", "double"),
    ("weighted", "double"),
    ("error", "string"),
)
_SUMMARY_OVERALL: tuple[Column, ...] = (
    ("relevancy_rating", "string"),
    ("score", "double"),
    ("binary_score", "int"),
    ("avg_score", "double"),
    ("global_explanation", "string"),
)
_TAIL: tuple[Column, ...] = (("status", "string"), ("error", "string"), ("result_json", "string"))


def output_columns(kind: Kind, metrics: Sequence[str]) -> list[Column]:
    """The columns a job adds to its input, in order, with their types."""
    if kind == "summary":
        per_metric = [(f"{m}_{name}", t) for m in metrics for name, t in _SUMMARY_METRIC]
        return [*per_metric, *_SUMMARY_OVERALL, *_TAIL]
    return [
        *[c for m in metrics for c in ((f"{m}_score", "double"), (f"{m}_error", "string"))],
        *_TAIL,
    ]


def check_input_columns(inputs: Sequence[str], added: Sequence[Column]) -> None:
    """Refuse an input whose columns would be overwritten by the added ones."""
    clash = sorted(set(inputs) & {name for name, _ in added})
    if clash:
        raise ConfigError(
            f"the input already has column(s) {', '.join(clash)}, which the results add: "
            "rename or drop them first"
        )


def record_row(record: Record, kind: Kind, metrics: Sequence[str]) -> dict[str, Any]:
    """The added columns' values for one record (None where there is no value)."""
    row: dict[str, Any] = dict.fromkeys(name for name, _ in output_columns(kind, metrics))
    result = record.result
    if result is not None:
        for m in metrics:
            metric = result.metrics.get(m)
            if metric is None:
                continue
            row[f"{m}_score"] = metric.score
            row[f"{m}_error"] = metric.error
            if kind == "summary":
                row[f"{m}_explanation"] = metric.explanation
                row[f"{m}_normalized"] = metric.normalized_score
                row[f"{m}_weighted"] = metric.weighted_score
        if kind == "summary":
            overall = result.to_dict()["summary"]
            for name, _ in _SUMMARY_OVERALL:
                row[name] = overall.get(name)
    flat = record.to_flat_dict()
    row["status"] = record.status
    row["error"] = flat.get("error")
    row["result_json"] = json.dumps(record.to_dict(), ensure_ascii=False, separators=(",", ":"))
    return row
