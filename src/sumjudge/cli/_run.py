"""The one runner of the batch subcommands (`evaluate`, `autoeval`, `pairwise`).

`run_batch` is all a subcommand calls once it has its inputs and its `RunFlags`: it
builds the evaluator from the flags (a dry run needs no API key) and does everything
after, identically for every batch subcommand: the dry run, the output (in input order,
as JSON lines, one JSON array or a table: `_output.py`), resume, progress, per-row error
lines, the run summary and its JSON, key redaction everywhere (`sumjudge.redaction`: the
environment's keys are recorded first), the report and the exit code. A subcommand
supplies only its inputs, how to build its evaluator, the report's inputs and,
optionally, a dataset summary printed at the end.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol, TypeVar

from ..batch.options import BatchOptions, BatchReport
from ..errors import DataError, MissingCredentialsError
from ..evaluators.base import Evaluator
from ..evaluators.records import Record, item_id
from ..redaction import redact, remember_env_keys
from ..runner import RunSummary
from ..tokens import check_context
from ._batch import EXIT_STOPPED, BatchProgress, _Spinner, run_records
from ._common import EXIT_CONFIG, EXIT_ITEM_ERRORS, EXIT_OK, eprint
from ._output import InOrder, Output
from ._runflags import RunFlags
from ._sink import write_summary_json

__all__ = ["DRY_RUN_KEY", "DatasetSummary", "run_batch"]

DRY_RUN_KEY = "sumjudge-dry-run-placeholder"
"""The credential a dry run builds a keyless judge with; a dry run sends nothing."""

_UNFIT_LISTED = 20


class DatasetSummary(Protocol):
    """Dataset-level figures a subcommand prints after its run (autoeval's averages)."""

    unit: str

    def add(self, record: Record) -> None: ...

    def render(self) -> str: ...

    def to_dict(self) -> dict[str, Any]: ...


E = TypeVar("E", bound=Evaluator[Any, Any])


def _build_evaluator(flags: RunFlags, make: Callable[[dict[str, Any], list[str] | None], E]) -> E:
    """`make` with the shared evaluator arguments; a keyless dry run gets a placeholder.

    The dry run only plans and counts (it never calls the judge), so the placeholder
    `DRY_RUN_KEY` is never sent anywhere; a real run without a key fails as before.
    """
    model = flags.models()
    options = flags.evaluator_options()
    metrics = flags.metric_list()

    def build(credentials: str | None) -> E:
        return make({"model": model, "model_credentials": credentials, **options}, metrics)

    try:
        return build(None)
    except MissingCredentialsError as exc:
        if not flags.dry_run:
            raise
        eprint(
            f"sumjudge: {exc.env_var} is not set: fine for a dry run, which sends nothing "
            "(a real run needs it)"
        )
        return build(DRY_RUN_KEY)


async def run_batch(
    flags: RunFlags,
    make: Callable[[dict[str, Any], list[str] | None], E],
    items: Iterable[Any],
    total: int | None,
    *,
    kind: str,
    report_inputs: Callable[[], Any],
    single: bool = False,
    dataset: DatasetSummary | None = None,
    summary: RunSummary | None = None,
) -> int:
    """Build the subcommand's evaluator, run the batch (or the dry run), report; the exit code.

    Args:
        flags: the shared flags.
        make: builds the evaluator from the keyword arguments every batch subcommand
            shares (`model` of `RunFlags.models`, `model_credentials`, and
            `RunFlags.evaluator_options`) and the --metrics list (None: the evaluator's
            default).
        items: the inputs (pulled lazily).
        total: how many there are, when known (for the progress bar).
        kind: the table's kind ("summary", "conversation" or "pairwise", see `ResultTable`).
        report_inputs: the report's input rows (`--report`), read after the run.
        single: one pair of files (no progress bar; a spinner on a long item).
        dataset: dataset-level figures printed at the end.
        summary: the run summary to fill (default: a new one).
    """
    evaluator = _build_evaluator(flags, make)
    remember_env_keys()
    try:
        if flags.dry_run:
            return _dry_run(flags, evaluator, items)
        if flags.report and not flags.output:
            output = str(Path(flags.report).with_suffix(".jsonl"))
            flags = dataclasses.replace(flags, output=output)
            eprint(f"sumjudge: results for the report go to {output}")
        metrics = list(evaluator.metric_versions)  # the requested metrics, in order
        out = Output(flags, single=single, kind=kind, metrics=metrics, stdout=sys.stdout)
        try:
            with out.sink() as sink:
                code = await _judge(flags, evaluator, items, total, sink, out, dataset, summary)
        except _BatchWaiting as waiting:  # --no-wait: the job runs on; nothing is written
            for line in waiting.lines:
                eprint(redact(f"sumjudge: {line}"))
            return EXIT_OK
        if flags.report and flags.output:  # the output is set: given, or derived above
            title = f"sumjudge {flags.command} ({evaluator.judge_name})"
            _write_report(flags.output, flags.report, title, report_inputs())
        return code
    finally:
        await evaluator.aclose()
        if evaluator.cache is not None:
            evaluator.cache.close()


class _BatchWaiting(Exception):
    """--no-wait: the batches were submitted and are still running."""

    def __init__(self, report: BatchReport, options: BatchOptions) -> None:
        command = options.command
        self.lines = [
            f"batch job {report.job_id}: {report.submitted} request(s) submitted now in "
            f"{report.batches} batch(es) (round {report.rounds}); they are still running",
            "nothing is written until the job is collected; see its progress with `sumjudge jobs`",
            f"collect with: {command or 'the same command without --no-wait'}",
        ]
        super().__init__(self.lines[0])


def _write_report(results: str, report: str, title: str, inputs: Any) -> None:
    from ..report import write_report

    path = write_report(results, report, inputs=inputs, title=title)
    eprint(f"sumjudge: report written to {path}")


def _unfit_items(
    evaluator: Evaluator[Any, Any], items: Iterable[Any], found: list[dict[str, Any]]
) -> Iterator[Any]:
    """Pass `items` through, noting each one whose first requests exceed the window."""
    window = evaluator.context_window
    for index, raw in enumerate(items):
        yield raw
        if window is None or isinstance(raw, DataError):
            continue
        try:
            item = evaluator.coerce(raw, index)
            requests = evaluator.plan_requests(item)
        except DataError:
            continue
        fit = check_context(requests, window, evaluator.source_text(item))
        if not fit.fits:
            found.append(
                {
                    "index": index,
                    "id": item_id(item),
                    "needed_tokens": fit.needed_tokens,
                    "source_tokens": fit.source_tokens,
                }
            )


def _dry_run(flags: RunFlags, evaluator: Evaluator[Any, Any], items: Iterable[Any]) -> int:
    unfit: list[dict[str, Any]] = []
    estimate = evaluator.estimate_cost(_unfit_items(evaluator, items, unfit))
    for line in estimate.lines():
        eprint(redact(f"sumjudge: {line}"))
    window = evaluator.context_window
    if unfit:
        then = (
            "they will be judged by parts (--long-source chunked)"
            if flags.long_source == "chunked"
            else "they will fail; judge them by parts with --long-source chunked, or use a "
            "judge with a larger window"
        )
        eprint(
            f"sumjudge: {len(unfit)} item(s) do not fit {evaluator.judge_name}'s context "
            f"window of {window} tokens: {then}"
        )
        for u in unfit[:_UNFIT_LISTED]:
            name = f"row {u['index']}" + (f" (id {u['id']})" if u["id"] is not None else "")
            eprint(
                redact(
                    f"sumjudge:   {name}: ~{u['needed_tokens']} tokens needed "
                    f"(source ~{u['source_tokens']})"
                )
            )
        if len(unfit) > _UNFIT_LISTED:
            eprint(f"sumjudge:   ... and {len(unfit) - _UNFIT_LISTED} more (see the JSON)")
    elif window is not None:
        eprint(f"sumjudge: every item fits {evaluator.judge_name}'s window of {window} tokens")
    doc = {**estimate.to_dict(), "context_window": window, "over_context_window": unfit}
    print(redact(json.dumps(doc, indent=2)))
    return EXIT_OK


def summary_lines(summary: RunSummary, evaluator: Evaluator[Any, Any]) -> list[str]:
    """The run summary's lines; without tokens and spend for the offline judge."""
    lines = summary.lines()
    if evaluator.capabilities.mode != "offline":
        return lines
    # lines(): counts, calls and cache, tokens and spend, [stopped]. The offline judge has
    # no tokens, no spend and no response cache: its calls and the time are what is left.
    calls = f"{summary.judge_calls} offline judge call(s); {summary.elapsed_s:.1f} s"
    return [lines[0], calls, *lines[3:]]


async def _judge(
    flags: RunFlags,
    evaluator: Evaluator[Any, Any],
    items: Iterable[Any],
    total: int | None,
    sink: Any,
    output: Output,
    dataset: DatasetSummary | None,
    summary: RunSummary | None,
) -> int:
    summary = summary if summary is not None else RunSummary()
    if sink.done:
        eprint(f"sumjudge: resuming: {len(sink.done)} item(s) already done in {flags.output}")
        if total is not None:
            total -= len(sink.done)
    single = output.single
    offline = evaluator.capabilities.mode == "offline"
    progress = BatchProgress(
        total, enabled=not single and not flags.no_progress, show_spend=not offline
    )
    in_order: InOrder[dict[str, Any]] = InOrder(sink.done)
    spinner = _Spinner(sys.stderr, enabled=single and not flags.no_progress)
    records, batch = run_records(flags, evaluator, items, skip=sink.done, summary=summary)
    try:
        with spinner:
            async for record in records:
                if dataset is not None:
                    dataset.add(record)
                for data in in_order.add(record.index, record.to_dict()):
                    output.emit(sink, data)
                if record.error is not None:
                    progress.write(redact(f"sumjudge: error: {record.error.located}"))
                elif record.status == "failed":
                    reasons = "; ".join(
                        f"{f.get('metric') or 'item'}: {f['reason']}" for f in record.failures
                    )
                    progress.write(redact(f"sumjudge: row {record.index} failed: {reasons}"))
                progress.update(summary)
    finally:
        # Normally empty; after an interruption, what finished is still written (in order).
        with contextlib.suppress(Exception):
            for data in in_order.rest():
                output.emit(sink, data)
        progress.close()
    if batch is not None and batch.report.waiting:
        raise _BatchWaiting(batch.report, batch.options)
    output.finish()  # the table (or the array) before the run's summary lines
    extra: dict[str, Any] = {}
    if batch is not None:
        extra["batch"] = batch.report.to_dict()
    if dataset is not None:
        done_note = " (this run; resumed items not included)" if sink.done else ""
        eprint(
            redact(
                f"sumjudge: {flags.command} by {evaluator.judge_name}{done_note}: "
                f"{dataset.render()}"
            )
        )
        extra["averages"] = dataset.to_dict()
        failures = summary.failed + summary.invalid
        eprint(
            f"sumjudge: {summary.ok + summary.failed} {dataset.unit}(s) judged, "
            f"{failures} with errors"
        )
    for line in summary_lines(summary, evaluator):
        eprint(redact(f"sumjudge: {line}"))
    for line in batch.report.lines() if batch is not None else []:
        eprint(redact(f"sumjudge: {line}"))
    if flags.summary_json:
        summary_data = {"judge": evaluator.judge_name, **summary.to_dict(), **extra}
        write_summary_json(flags.summary_json, summary_data)
    if summary.key_refused:
        eprint(_refused_line(evaluator, summary, flags))
        return EXIT_CONFIG  # the key is the user's to fix; --resume continues after
    if summary.unreachable:
        eprint(redact(_unreachable_line(summary, flags)))
        return EXIT_ITEM_ERRORS  # items were not judged; --resume judges them later
    if summary.stopped:
        return EXIT_STOPPED
    return EXIT_ITEM_ERRORS if (summary.failed or summary.invalid) else EXIT_OK


def _unreachable_line(summary: RunSummary, flags: RunFlags) -> str:
    """What to do after the judge's server could not be reached: the reason, how to go on."""
    resume = "the same command with --resume" if flags.output else "it"
    again = f"start it (or fix --base-url) and rerun {resume}"
    return (
        f"sumjudge: error: the run stopped: {summary.stopped} ({summary.not_run} item(s) "
        f"not run): {again}"
    )


def _refused_line(evaluator: Any, summary: RunSummary, flags: RunFlags) -> str:
    """What to do after the judge refused the key: which variable, and how to continue."""
    env_var = getattr(getattr(evaluator.caller, "judge", None), "env_var", None)
    where = f"set {env_var} to a valid key" if env_var else "check the judge's API key"
    again = " and rerun with --resume" if flags.output else " and rerun"
    return (
        f"sumjudge: error: the judge refused the API key, so the run stopped "
        f"({summary.not_run} item(s) not run): {where}{again}"
    )
