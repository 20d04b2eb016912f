"""The one runner of the batch subcommands (`evaluate`, `autoeval`).

`run_evaluator_command` is all a subcommand calls once it has its inputs: it builds the
evaluator from the flags (`build_evaluator`: a dry run needs no API key) and hands it to
`run_batch_command`, which does everything after the evaluator exists, identically for
every batch subcommand: the dry run, the output (in input order, as JSON lines, one JSON
array or a table: `_output.py`), resume, progress, per-row error lines, the run summary
and its JSON, key redaction everywhere, the report and the exit code. A subcommand
supplies only its inputs, how to build its evaluator, the report's inputs and, optionally,
a dataset summary printed at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

from ..batch.options import BatchOptions, BatchReport
from ..errors import DataError, MissingCredentialsError
from ..evaluators.base import Evaluator
from ..evaluators.records import Record, item_id
from ..runner import RunSummary
from ..tokens import check_context
from ._batch import EXIT_STOPPED, BatchProgress, _Spinner, run_records
from ._common import (
    EXIT_CONFIG,
    EXIT_ITEM_ERRORS,
    EXIT_OK,
    eprint,
    redact,
    secrets_from_env,
)
from ._flags import chosen_models, evaluator_options, metric_list
from ._output import InOrder, Output
from ._sink import write_summary_json

__all__ = [
    "DRY_RUN_KEY",
    "DatasetSummary",
    "build_evaluator",
    "run_batch_command",
    "run_evaluator_command",
]

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


def build_evaluator(args: argparse.Namespace, make: Callable[[str | None], E]) -> E:
    """`make(model_credentials)`; a dry run without the provider's key gets a placeholder.

    The dry run only plans and counts (it never calls the judge), so the placeholder
    `DRY_RUN_KEY` is never sent anywhere; a real run without a key fails as before.
    """
    try:
        return make(None)
    except MissingCredentialsError as exc:
        if not args.dry_run:
            raise
        eprint(
            f"sumjudge: {exc.env_var} is not set: fine for a dry run, which sends nothing "
            "(a real run needs it)"
        )
        return make(DRY_RUN_KEY)


async def run_evaluator_command(
    args: argparse.Namespace,
    make: Callable[[dict[str, Any], list[str] | None], E],
    items: Iterable[Any],
    total: int | None,
    *,
    kind: str,
    report_inputs: Callable[[argparse.Namespace], Any],
    single: bool = False,
    dataset: DatasetSummary | None = None,
    summary: RunSummary | None = None,
) -> int:
    """Build the subcommand's evaluator from the flags and run the batch; the exit code.

    Args:
        args: the parsed flags.
        make: builds the evaluator from the keyword arguments every batch subcommand
            shares (`model` of `choose_model`, `model_credentials`: see `build_evaluator`,
            and the `evaluator_options` of the flags) and the --metrics list (None: the
            evaluator's default).
        items: the inputs (pulled lazily).
        total: how many there are, when known (for the progress bar).
        kind: the table's kind ("summary" or "conversation", see `ResultTable`).
        report_inputs: the report's input rows (`--report`), read after the run.
        single: one pair of files (no progress bar; a spinner on a long item).
        dataset: dataset-level figures printed at the end.
        summary: the run summary to fill (default: a new one).
    """
    model = chosen_models(args)
    options = evaluator_options(args)
    metrics = metric_list(args)

    def build(credentials: str | None) -> E:
        return make({"model": model, "model_credentials": credentials, **options}, metrics)

    evaluator = build_evaluator(args, build)
    return await run_batch_command(
        args,
        evaluator,
        items,
        total,
        kind=kind,
        metrics=list(evaluator.metric_versions),  # the requested metrics, in order
        single=single,
        dataset=dataset,
        write_report=lambda args, judge: _write_report(args, judge, report_inputs(args)),
        summary=summary,
    )


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


def _write_report(args: argparse.Namespace, judge: str, inputs: Any) -> None:
    from ..report import write_report

    path = write_report(
        args.output, args.report, inputs=inputs, title=f"sumjudge {args.command} ({judge})"
    )
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


def _dry_run(
    args: argparse.Namespace,
    evaluator: Evaluator[Any, Any],
    items: Iterable[Any],
    secrets: list[str],
) -> int:
    unfit: list[dict[str, Any]] = []
    estimate = evaluator.estimate_cost(_unfit_items(evaluator, items, unfit))
    for line in estimate.lines():
        eprint(redact(f"sumjudge: {line}", secrets))
    window = evaluator.context_window
    if unfit:
        then = (
            "they will be judged by parts (--long-source chunked)"
            if args.long_source == "chunked"
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
                    f"(source ~{u['source_tokens']})",
                    secrets,
                )
            )
        if len(unfit) > _UNFIT_LISTED:
            eprint(f"sumjudge:   ... and {len(unfit) - _UNFIT_LISTED} more (see the JSON)")
    elif window is not None:
        eprint(f"sumjudge: every item fits {evaluator.judge_name}'s window of {window} tokens")
    doc = {**estimate.to_dict(), "context_window": window, "over_context_window": unfit}
    print(redact(json.dumps(doc, indent=2), secrets))
    return EXIT_OK


async def run_batch_command(
    args: argparse.Namespace,
    evaluator: Evaluator[Any, Any],
    items: Iterable[Any],
    total: int | None,
    *,
    kind: str,
    metrics: Sequence[str],
    single: bool = False,
    dataset: DatasetSummary | None = None,
    write_report: Callable[[argparse.Namespace, str], None] | None = None,
    summary: RunSummary | None = None,
) -> int:
    """Run the batch (or the dry run) and report it; returns the exit code.

    Args:
        args: the parsed flags.
        evaluator: the evaluator, closed at the end.
        items: the inputs (pulled lazily).
        total: how many there are, when known (for the progress bar).
        kind: the table's kind ("summary" or "conversation", see `ResultTable`).
        metrics: the table's metric columns.
        single: one pair of files (no progress bar; a spinner on a long item).
        dataset: dataset-level figures printed at the end.
        write_report: writes the HTML report after the run (`--report`).
        summary: the run summary to fill (default: a new one).
    """
    secrets = secrets_from_env()
    try:
        if args.dry_run:
            return _dry_run(args, evaluator, items, secrets)
        if args.report and not args.output:
            args.output = str(Path(args.report).with_suffix(".jsonl"))
            eprint(f"sumjudge: results for the report go to {args.output}")
        output = Output(
            args, single=single, kind=kind, metrics=metrics, secrets=secrets, stdout=sys.stdout
        )
        try:
            with output.sink(args) as sink:
                code = await _judge(
                    args, evaluator, items, total, sink, output, secrets, dataset, summary
                )
        except _BatchWaiting as waiting:  # --no-wait: the job runs on; nothing is written
            for line in waiting.lines:
                eprint(redact(f"sumjudge: {line}", secrets))
            return EXIT_OK
        if args.report and write_report is not None:
            write_report(args, evaluator.judge_name)
        return code
    finally:
        await evaluator.aclose()
        if evaluator.cache is not None:
            evaluator.cache.close()


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
    args: argparse.Namespace,
    evaluator: Evaluator[Any, Any],
    items: Iterable[Any],
    total: int | None,
    sink: Any,
    output: Output,
    secrets: list[str],
    dataset: DatasetSummary | None,
    summary: RunSummary | None,
) -> int:
    summary = summary if summary is not None else RunSummary()
    if sink.done:
        eprint(f"sumjudge: resuming: {len(sink.done)} item(s) already done in {args.output}")
        if total is not None:
            total -= len(sink.done)
    single = output.single
    offline = evaluator.capabilities.mode == "offline"
    progress = BatchProgress(
        total, enabled=not single and not args.no_progress, show_spend=not offline
    )
    in_order: InOrder[dict[str, Any]] = InOrder(sink.done)
    spinner = _Spinner(sys.stderr, enabled=single and not args.no_progress)
    records, batch = run_records(args, evaluator, items, skip=sink.done, summary=summary)
    try:
        with spinner:
            async for record in records:
                if dataset is not None:
                    dataset.add(record)
                for data in in_order.add(record.index, record.to_dict()):
                    output.emit(sink, data)
                if record.error is not None:
                    progress.write(redact(f"sumjudge: error: {record.error.located}", secrets))
                elif record.status == "failed":
                    reasons = "; ".join(
                        f"{f.get('metric') or 'item'}: {f['reason']}" for f in record.failures
                    )
                    progress.write(
                        redact(f"sumjudge: row {record.index} failed: {reasons}", secrets)
                    )
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
                f"sumjudge: {args.command} by {evaluator.judge_name}{done_note}: "
                f"{dataset.render()}",
                secrets,
            )
        )
        extra["averages"] = dataset.to_dict()
        failures = summary.failed + summary.invalid
        eprint(
            f"sumjudge: {summary.ok + summary.failed} {dataset.unit}(s) judged, "
            f"{failures} with errors"
        )
    for line in summary_lines(summary, evaluator):
        eprint(redact(f"sumjudge: {line}", secrets))
    for line in batch.report.lines() if batch is not None else []:
        eprint(redact(f"sumjudge: {line}", secrets))
    if args.summary_json:
        summary_data = {"judge": evaluator.judge_name, **summary.to_dict(), **extra}
        write_summary_json(args.summary_json, summary_data, secrets)
    if summary.key_refused:
        eprint(_refused_line(evaluator, summary, args))
        return EXIT_CONFIG  # the key is the user's to fix; --resume continues after
    if summary.unreachable:
        eprint(redact(_unreachable_line(summary, args), secrets))
        return EXIT_ITEM_ERRORS  # items were not judged; --resume judges them later
    if summary.stopped:
        return EXIT_STOPPED
    return EXIT_ITEM_ERRORS if (summary.failed or summary.invalid) else EXIT_OK


def _unreachable_line(summary: RunSummary, args: argparse.Namespace) -> str:
    """What to do after the judge's server could not be reached: the reason, how to go on."""
    resume = "the same command with --resume" if getattr(args, "output", None) else "it"
    again = f"start it (or fix --base-url) and rerun {resume}"
    return (
        f"sumjudge: error: the run stopped: {summary.stopped} ({summary.not_run} item(s) "
        f"not run): {again}"
    )


def _refused_line(evaluator: Any, summary: RunSummary, args: argparse.Namespace) -> str:
    """What to do after the judge refused the key: which variable, and how to continue."""
    env_var = getattr(getattr(evaluator.caller, "judge", None), "env_var", None)
    where = f"set {env_var} to a valid key" if env_var else "check the judge's API key"
    again = " and rerun with --resume" if getattr(args, "output", None) else " and rerun"
    return (
        f"sumjudge: error: the judge refused the API key, so the run stopped "
        f"({summary.not_run} item(s) not run): {where}{again}"
    )
