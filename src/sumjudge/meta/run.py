"""Run a judge over human-judged rows and measure it: the engine of `sumjudge meta-eval`.

`meta_eval` reads rows in the schema of the development data (`source`, `summary`,
`source_id`, `system`, `dataset`, `human: {coherence, consistency, relevance,
fluency}`), judges every summary with `sumjudge.SummarizationEvaluator` and hands the
scores to `sumjudge.meta.meta_evaluate`, which returns a `sumjudge.meta.JudgeCard`.

Per metric the card carries up to three variants of the judge's score:

* `score`: the integer 1-3 verdict;
* `weighted_score`: the logprob-weighted expectation, when the judge returned logprobs;
* `raw`: for the offline judge (`model="local"`), its continuous score before binning.

Only the metrics that carry a human label are judged on a row (FacEval rows are labelled for
consistency only), so mixed files cost no more calls than needed.

Example:
    >>> card = await meta_eval("dev.jsonl", model="local", datasets=["summeval"], limit=80)
    >>> print(format_table(card))
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from os import PathLike
from pathlib import Path
from typing import Any, TypedDict

if sys.version_info >= (3, 11):
    from typing import Unpack
else:
    from typing_extensions import Unpack

from .._version import __version__
from ..batch.options import BatchOptions
from ..errors import ConfigError, DataError
from ..evaluators.calibration import CalibrationInput
from ..evaluators.summarization import DEFAULT_MODEL, BatchRecord, SummarizationEvaluator
from ..jsonl import json_objects
from ..judges import LOCAL_MODELS
from ..metrics import SUMMARY_METRICS
from ..protocol import Judge
from ..types import SummaryData
from .card import JudgeCard, meta_evaluate
from .card import hash_file as _hash_file

__all__ = [
    "VARIANT_NOTES",
    "MetaEvalOptions",
    "MetaEvalRun",
    "load_rows",
    "meta_eval",
    "run_meta_eval",
]

VARIANT_NOTES: dict[str, str] = {
    "score": "the judge's integer 1-3 verdict",
    "weighted_score": "logprob-weighted expectation of the 1-3 verdict",
    "raw": "offline judge's continuous score, before it is binned to 1-3 (own scale)",
}

Rows = Sequence[Mapping[str, Any]]


@dataclass
class MetaEvalRun:
    """A meta-evaluation's card together with what produced it.

    Attributes:
        card: The figures.
        rows: The human-judged rows that were judged, in order.
        records: One `BatchRecord` per row, in row order (`None` for rows that
            carried no label for any requested metric).
    """

    card: JudgeCard
    rows: list[Mapping[str, Any]]
    records: list[BatchRecord | None] = field(default_factory=list)

    def result_dicts(self) -> list[dict[str, Any]]:
        """Per-row result JSON (as `evaluate` writes) with the row's human labels added."""
        out: list[dict[str, Any]] = []
        for i, (row, rec) in enumerate(zip(self.rows, self.records, strict=True)):
            data: dict[str, Any] = rec.to_dict() if rec is not None else {"index": i}
            data["index"] = i
            if row.get("id") is not None:
                data["id"] = row["id"]
            data["human"] = dict(row.get("human") or {})
            for key in ("dataset", "source_id", "system"):
                if row.get(key) is not None:
                    data[key] = row[key]
            out.append(data)
        return out


def load_rows(path: str | PathLike[str]) -> list[dict[str, Any]]:
    """Read human-judged rows from a JSONL file.

    Raises:
        DataError: A line is not a JSON object (the error names the line).
    """
    return [row for _, row in json_objects(path, _bad_line)]


def _bad_line(lineno: int, problem: str) -> DataError:
    return DataError(f"line {lineno} {problem}", item=lineno)


def select_rows(
    rows: Iterable[Mapping[str, Any]],
    *,
    datasets: Sequence[str] | None = None,
    limit: int | None = None,
) -> list[Mapping[str, Any]]:
    """Rows whose `dataset` is one of `datasets` (all when `None`), at most `limit`.

    `limit` keeps whole source documents (the first documents met, in file order) so that
    summary-level correlations stay defined; it can stop short of `limit` rows but never
    splits a document.
    """
    wanted = set(datasets) if datasets else None
    chosen = [r for r in rows if wanted is None or str(r.get("dataset")) in wanted]
    if limit is None or limit >= len(chosen):
        return chosen
    if limit <= 0:
        return []
    by_doc: dict[str, list[Mapping[str, Any]]] = {}
    for r in chosen:
        by_doc.setdefault(str(r.get("source_id")), []).append(r)
    out: list[Mapping[str, Any]] = []
    for members in by_doc.values():
        room = limit - len(out)
        if len(members) > room:
            if not out:  # a single document larger than the limit: take its first rows
                out.extend(members[:room])
            break
        out.extend(members)
    return out


def _labelled(row: Mapping[str, Any], metrics: Sequence[str]) -> tuple[str, ...]:
    human = row.get("human") or {}
    return tuple(m for m in metrics if human.get(m) is not None)


def _item(row: Mapping[str, Any], index: int) -> SummaryData | DataError:
    try:
        return SummaryData(
            input=str(row.get("source") or row.get("input") or ""),
            summary=str(row.get("summary") or ""),
            id=None if row.get("id") is None else str(row["id"]),
        )
    except ValueError:
        missing = "source" if not (row.get("source") or row.get("input")) else "summary"
        return DataError("is missing or empty", item=index, field=missing)


async def run_meta_eval(
    data: str | PathLike[str] | Rows,
    *,
    model: str | Judge = DEFAULT_MODEL,
    model_credentials: str | None = None,
    base_url: str | None = None,
    metrics: Sequence[str] | None = None,
    concurrency: int = 8,
    limit: int | None = None,
    datasets: Sequence[str] | None = None,
    n_resamples: int = 1000,
    seed: int = 0,
    alpha: float = 0.05,
    logprobs: bool = True,
    data_hash: str | None = None,
    on_record: Callable[[BatchRecord], None] | None = None,
    batch_api: bool | BatchOptions = False,
    calibration: CalibrationInput = None,
) -> MetaEvalRun:
    """Judge human-judged rows and measure the judge, keeping what produced the card.

    `meta_eval` is this function returning only the card; the rows and per-row records kept
    here are what `sumjudge meta-eval` writes for `sumjudge report`.

    Args:
        data: A JSONL path or the rows themselves (`source`, `summary`, `source_id`,
            `human`; optional `id`, `system`, `dataset`).
        model: `provider/model`, `"local"` for the offline judge, or a Judge object.
        model_credentials: The provider's API key (default: its environment variable).
        base_url: An OpenAI-compatible server to send requests to.
        metrics: A subset of coherence, consistency, relevance, fluency (default: every one
            that has a human label in the selected rows).
        concurrency: Items judged at once.
        limit: Judge at most this many rows, keeping whole source documents.
        datasets: Keep only rows whose `dataset` is one of these (e.g. `["summeval"]`).
        n_resamples: Bootstrap replicates (documents resampled with replacement).
        seed: Bootstrap seed.
        alpha: 1 - confidence level of the intervals.
        logprobs: Ask the judge for logprobs, to report `weighted_score` beside `score`.
        data_hash: Recorded on the card; default: the SHA-256 of the file, or of the rows.
        on_record: Called with each row's record as it finishes (progress bars).
        batch_api: Judge through the provider's batch endpoint (`sumjudge.batch`); the
            rounds always wait (a card needs every row).
        calibration: A calibration profile (or its path) to judge with (docs/align.md);
            it must name this judge. Measure a profile on labels it was not fitted on.

    Returns:
        The card with the rows that were judged and one record per row.

    Raises:
        ConfigError: No rows are left after filtering, or no row carries a requested label.
        DataError: The file has a line that is not a JSON object, or a row has no
            `source_id`.
    """
    if isinstance(data, (str, PathLike)):
        path = Path(data)
        all_rows: Rows = load_rows(path)
        data_hash = data_hash or _hash_file(path)
    else:
        all_rows = list(data)
        data_hash = data_hash or _rows_hash(all_rows)
    rows = select_rows(all_rows, datasets=datasets, limit=limit)
    if not rows:
        where = f" in dataset(s) {', '.join(datasets)}" if datasets else ""
        raise ConfigError(f"no rows to meta-evaluate{where}")
    requested = list(metrics) if metrics is not None else list(SUMMARY_METRICS)
    unknown = [m for m in requested if m not in SUMMARY_METRICS]
    if unknown:
        raise ConfigError(f"unknown metric(s) {unknown}; choose from {', '.join(SUMMARY_METRICS)}")
    for i, row in enumerate(rows):
        if row.get("source_id") is None:
            raise DataError("is missing (needed to group summaries)", item=i, field="source_id")
    wanted = [m for m in requested if any(_labelled(r, [m]) for r in rows)]
    if not wanted:
        raise ConfigError(f"no row has a human label for {', '.join(requested)}")

    # One evaluator per distinct set of labelled metrics: a consistency-only row is judged on
    # consistency only. The offline judge costs nothing per metric but loads its models per
    # evaluator, so it gets one evaluator for every metric (unlabelled scores are ignored).
    offline = isinstance(model, str) and model in LOCAL_MODELS
    groups: dict[tuple[str, ...], list[int]] = {}
    for i, row in enumerate(rows):
        labelled = _labelled(row, wanted)
        if labelled:
            groups.setdefault(tuple(wanted) if offline else labelled, []).append(i)

    records: list[BatchRecord | None] = [None] * len(rows)
    judge_name = ""
    versions: dict[str, str] = {}
    for enabled, members in groups.items():
        evaluator = SummarizationEvaluator(
            model,
            model_credentials,
            enabled_metrics=list(enabled),
            base_url=base_url,
            logprobs=logprobs,
            batch_api=_waiting(batch_api),
            calibration=calibration,
        )
        judge_name = evaluator.judge_name
        versions.update(evaluator.metric_versions)
        try:
            items = [_item(rows[i], i) for i in members]
            async for record in evaluator.evaluate_batch(items, concurrency=concurrency):
                row_index = members[record.index]
                records[row_index] = BatchRecord(
                    index=row_index,
                    id=record.id,
                    result=record.result,
                    error=record.error,
                    meta=record.meta,
                )
                if on_record is not None:
                    on_record(record)
        finally:
            if isinstance(model, str):  # a Judge object passed in belongs to the caller
                await evaluator.aclose()

    predictions, weighted, raw = _predictions(records, wanted)
    extra = {"raw": raw} if offline and raw else None
    present = ["score", *(["weighted_score"] if weighted else []), *(["raw"] if extra else [])]
    card = meta_evaluate(
        rows,
        predictions,
        weighted_predictions=weighted or None,
        extra_predictions=extra,
        variant_notes={v: VARIANT_NOTES[v] for v in present},
        judge=judge_name,
        metric_versions={m: versions[m] for m in wanted if m in versions},
        data_hash=data_hash,
        score_range=(1, 3),
        n_resamples=n_resamples,
        seed=seed,
        alpha=alpha,
        sumjudge_version=__version__,
    )
    selection: dict[str, Any] = {}
    if datasets:
        selection["datasets"] = list(datasets)
    if limit is not None:
        selection["limit"] = limit
    if metrics is not None:
        selection["metrics"] = list(metrics)
    if selection:
        card = card.model_copy(update={"data_selection": selection})
    return MetaEvalRun(card=card, rows=list(rows), records=records)


class MetaEvalOptions(TypedDict, total=False):
    """The keyword arguments `meta_eval` passes on to `run_meta_eval` (documented there)."""

    model: str | Judge
    model_credentials: str | None
    base_url: str | None
    metrics: Sequence[str] | None
    concurrency: int
    limit: int | None
    datasets: Sequence[str] | None
    n_resamples: int
    seed: int
    alpha: float
    logprobs: bool
    calibration: CalibrationInput


async def meta_eval(
    data: str | PathLike[str] | Rows, **options: Unpack[MetaEvalOptions]
) -> JudgeCard:
    """Measure how well a judge agrees with human scores.

    Takes the arguments of `run_meta_eval` (the same defaults; mypy checks the forwarding),
    except `data_hash` and `on_record`.

    Args:
        data: A JSONL path or the rows themselves (`source`, `summary`, `source_id`,
            `human`; optional `id`, `system`, `dataset`).
        **options: `model` (`provider/model`, `"local"` for the offline judge, or a Judge
            object), `model_credentials`, `base_url`, `metrics`, `concurrency`, `limit`
            (rows, keeping whole source documents), `datasets`, `n_resamples`, `seed`,
            `alpha` and `logprobs`.

    Returns:
        The `JudgeCard` (figures per dataset and metric, with intervals).

    Raises:
        ConfigError: No rows are left after filtering, or no row carries a requested label.
        DataError: The file has a line that is not a JSON object, or a row has no
            `source_id`.
    """
    run = await run_meta_eval(data, **options)
    return run.card


def _predictions(
    records: Sequence[BatchRecord | None], metrics: Sequence[str]
) -> tuple[
    dict[str, list[float | None]], dict[str, list[float | None]], dict[str, list[float | None]]
]:
    score: dict[str, list[float | None]] = {m: [] for m in metrics}
    weighted: dict[str, list[float | None]] = {m: [] for m in metrics}
    raw: dict[str, list[float | None]] = {m: [] for m in metrics}
    for rec in records:
        results = rec.result.metrics if rec is not None and rec.result is not None else {}
        for m in metrics:
            r = results.get(m)
            ok = r is not None and r.ok
            score[m].append(
                float(r.score) if ok and r is not None and r.score is not None else None
            )
            weighted[m].append(r.weighted_score if ok and r is not None else None)
            raw[m].append(r.raw if ok and r is not None else None)
    # A variant is reported only for metrics where the judge gave it at least once.
    weighted = {m: v for m, v in weighted.items() if any(x is not None for x in v)}
    raw = {m: v for m, v in raw.items() if any(x is not None for x in v)}
    return score, weighted, raw


def _rows_hash(rows: Rows) -> str:
    digest = hashlib.sha256()
    for row in rows:
        digest.update(json.dumps(row, sort_keys=True, ensure_ascii=False, default=str).encode())
        digest.update(b"\n")
    return digest.hexdigest()


def _waiting(batch_api: bool | BatchOptions) -> bool | BatchOptions:
    """`batch_api` with waiting on: a card is computed from every row's record."""
    if isinstance(batch_api, BatchOptions) and not batch_api.wait:
        return replace(batch_api, wait=True)
    return batch_api
