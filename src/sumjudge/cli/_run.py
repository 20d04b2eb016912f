"""The one runner of the batch subcommands (`evaluate`, `autoeval`) and their judge flags.

`add_judge_arguments` and `add_output_arguments` add the flags that choose and configure
the judge and the output; `check_flags` rejects impossible values in one line;
`evaluator_options` turns the flags, with the engine flags, into evaluator arguments;
`build_evaluator` builds it (a dry run needs no API key); and `run_batch_command` does
everything after the evaluator exists, identically for every batch subcommand: the dry
run, the output (in input order, as JSON lines, one JSON array or a table), resume,
progress, per-row error lines, the run summary and its JSON, key redaction everywhere,
the report and the exit code. A subcommand supplies only its inputs, its evaluator and,
optionally, a dataset summary printed at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import sys
import time
from collections.abc import Callable, Container, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Generic, Protocol, TextIO, TypeVar

from ..errors import ConfigError, DataError, MissingCredentialsError
from ..evaluators.base import Evaluator
from ..evaluators.records import Record, item_id
from ..metrics._base import _LANGUAGES
from ..runner import RunSummary
from ..tokens import check_context
from ._batch import (
    EXIT_STOPPED,
    BatchProgress,
    RecordSink,
    cache_from_args,
    price_from_args,
    redact,
    retry_policy_from_args,
    secrets_from_env,
    write_summary_json,
)
from ._common import _KEYED_DEFAULTS, EXIT_ITEM_ERRORS, EXIT_OK, eprint
from ._table import ResultTable

__all__ = [
    "DRY_RUN_KEY",
    "DatasetSummary",
    "DefaultsHelpFormatter",
    "InOrder",
    "add_judge_arguments",
    "add_output_arguments",
    "build_evaluator",
    "check_flags",
    "evaluator_options",
    "run_batch_command",
]

T = TypeVar("T")

DRY_RUN_KEY = "sumjudge-dry-run-placeholder"
"""The credential a dry run builds a keyless judge with; a dry run sends nothing."""

FORMATS = ("table", "jsonl", "json")
_SPINNER_AFTER_S = 2.0
_UNFIT_LISTED = 20

_DEFAULT_TEXT = {
    # What an option whose default is None means, for --help (see DefaultsHelpFormatter).
    "output": "stdout",
    "rpm": "no cap",
    "tpm": "no cap",
    "max_cost": "no cap",
    "price": "the built-in price table",
    "prices": "the built-in table",
    "context_window": "the built-in table; a model not in it is not checked",
    "summary_json": "not written",
    "report": "not written",
    "cache_dir": "$SUMJUDGE_CACHE_DIR or the user cache dir",
    "base_url": "the provider's own API",
    "metrics": "all of them",
    "format": "table on a terminal, else jsonl; always jsonl into -o",
}


class DefaultsHelpFormatter(argparse.HelpFormatter):
    """Help that states every option's default: its value, or what None means."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if "default" in text or action.default is argparse.SUPPRESS or action.nargs == 0:
            return text  # states it already; or a flag (default: off)
        if action.default in (None, ""):
            meaning = _DEFAULT_TEXT.get(action.dest)
            return f"{text} (default: {meaning})" if meaning else text
        return f"{text} (default: %(default)s)"


class DatasetSummary(Protocol):
    """Dataset-level figures a subcommand prints after its run (autoeval's averages)."""

    unit: str

    def add(self, record: Record) -> None: ...

    def render(self) -> str: ...

    def to_dict(self) -> dict[str, Any]: ...


def _model_help() -> str:
    keyed = ", ".join(f"{env} -> {model}" for env, model in _KEYED_DEFAULTS)
    return (
        "the judge: provider/model (e.g. openai/gpt-4o-mini) or 'local' / 'local-lexical' "
        "for the offline judge (default: with --base-url, openai/default, the server's own "
        f"model; else the first API key set among {keyed}; with none, local)"
    )


def add_judge_arguments(p: argparse.ArgumentParser, *, metrics: str, language: str) -> None:
    """--model, --base-url, --metrics (choices named in `metrics`), --language, --long-source."""
    p.add_argument("--model", help=_model_help())
    p.add_argument("--base-url", help="OpenAI-compatible server URL, e.g. http://127.0.0.1:8000/v1")
    p.add_argument("--metrics", help=f"comma-separated subset of {metrics}")
    codes = ", ".join(sorted(_LANGUAGES))
    p.add_argument("--language", help=f"{language}; a code ({codes}) or a language name")
    p.add_argument(
        "--long-source",
        choices=["fail", "chunked"],
        default="fail",
        help="a source larger than the judge's window: fail the item, or judge it by parts "
        "(chunked: the most relevant passages; notes of every part where all is needed)",
    )


def add_input_arguments(p: argparse.ArgumentParser) -> None:
    """--encoding: how the input files' text is encoded."""
    p.add_argument(
        "--encoding",
        help="the input files' text encoding, e.g. latin-1 or cp1252 (default: UTF-8, with "
        "or without a byte-order mark; a line that does not decode fails that row only)",
    )


def warn(message: str) -> None:
    """Print a reader's warning (e.g. repeated ids) as one line on stderr."""
    eprint(f"sumjudge: warning: {message}")


def add_output_arguments(p: argparse.ArgumentParser) -> None:
    """--format: what stdout shows (the -o file is always JSON lines)."""
    p.add_argument(
        "--format",
        choices=FORMATS,
        help="stdout: a table for people (id, rating, scores, reason, counts), JSON lines, "
        "or one JSON array",
    )


_CODE = re.compile(r"^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$")


def check_flags(args: argparse.Namespace) -> None:
    """Reject flag values the run cannot use, in one line naming the flag (exit 2).

    Raises:
        ConfigError: --language is an unknown code, or --resume has no -o.
    """
    language = getattr(args, "language", None)
    if language is not None:
        code = language.strip().lower()
        base = re.split(r"[-_]", code)[0]
        known = code in _LANGUAGES or base in _LANGUAGES
        if not code or (_CODE.match(code) and len(base) <= 3 and not known):
            raise ConfigError(
                f"--language {language!r} is not a language code we know: use one of "
                f"{', '.join(sorted(_LANGUAGES))}, or write the language's name "
                "(e.g. --language Swedish)"
            )
    if getattr(args, "resume", False) and not args.output:
        raise ConfigError("--resume needs -o/--output FILE: the results file to continue")


def metric_list(args: argparse.Namespace) -> list[str] | None:
    """The --metrics value as a list (None: the evaluator's default)."""
    if not args.metrics:
        return None
    return [m.strip() for m in args.metrics.split(",") if m.strip()]


def evaluator_options(args: argparse.Namespace) -> dict[str, Any]:
    """The evaluator arguments every batch subcommand takes from its flags."""
    table, price = price_from_args(args)
    return {
        "base_url": args.base_url,
        "explanation_language": args.language,
        "retry_policy": retry_policy_from_args(args),
        "timeout": args.timeout,
        "cache": cache_from_args(args),
        "prices": table,
        "price": price,
        "context_window": args.context_window,
        "long_source": args.long_source,
    }


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


class InOrder(Generic[T]):
    """Releases values added out of order as the contiguous prefix of indices 0, 1, 2, ...

    Indices in `skip` (already done: resume) count as present. Holds only the values that
    finished ahead of an earlier, unfinished index.
    """

    def __init__(self, skip: Container[int] = ()) -> None:
        self._next = 0
        self._held: dict[int, T] = {}
        self._skip = skip

    @property
    def held(self) -> int:
        """How many values wait for an earlier index."""
        return len(self._held)

    def add(self, index: int, value: T) -> list[T]:
        """Add the value of `index`; returns the values now ready, in index order."""
        self._held[index] = value
        out: list[T] = []
        while True:
            if self._next in self._held:
                out.append(self._held.pop(self._next))
            elif self._next not in self._skip:
                return out
            self._next += 1

    def rest(self) -> list[T]:
        """Whatever is still held (after an interruption), in index order."""
        out = [self._held[i] for i in sorted(self._held)]
        self._held.clear()
        return out


class _NoSink(contextlib.AbstractContextManager["_NoSink"]):
    """Stands in for `RecordSink` when stdout shows a table or an array and there is no -o."""

    done: set[int] = set()  # noqa: RUF012 - never mutated
    written = 0

    def __exit__(self, *exc_info: object) -> None:
        return None

    def write(self, data: dict[str, Any]) -> None:
        self.written += 1


class _Output:
    """Where records go, in input order: the -o file (JSON lines), and what stdout shows."""

    def __init__(
        self,
        args: argparse.Namespace,
        *,
        single: bool,
        kind: str,
        metrics: Sequence[str],
        secrets: list[str],
        stdout: TextIO,
    ) -> None:
        self.tty = stdout.isatty()
        self.stdout = stdout
        self.to_file = bool(args.output)
        if args.format:
            self.fmt: str | None = args.format
        elif self.to_file:
            self.fmt = "table" if self.tty else None  # the file has the records
        else:
            self.fmt = "table" if self.tty else "jsonl"
        self.single = single
        self.secrets = secrets
        self.table = ResultTable(kind, metrics) if self.fmt == "table" else None
        self.collected: list[dict[str, Any]] = []

    def sink(self, args: argparse.Namespace) -> contextlib.AbstractContextManager[Any]:
        """The JSON-lines sink: the -o file, stdout (jsonl), or none."""
        if self.to_file or self.fmt == "jsonl":
            return RecordSink(args.output, resume=args.resume, secrets=self.secrets)
        return _NoSink()

    def emit(self, sink: Any, data: dict[str, Any]) -> None:
        """One record, in input order."""
        sink.write(data)
        if self.fmt == "jsonl" and self.to_file:
            self._print(json.dumps(data, ensure_ascii=False))
        elif self.fmt == "json":
            self.collected.append(data)
        elif self.table is not None:
            self.table.add(data)

    def finish(self) -> None:
        """Print the array or the table (after the run, so no progress bar interleaves)."""
        if self.fmt == "json":
            indent = 2 if self.tty else None
            doc: Any = self.collected[0] if self.single and self.collected else self.collected
            self._print(json.dumps(doc, ensure_ascii=False, indent=indent))
        elif self.table is not None and self.table.rows:
            for line in self.table.render():
                self._print(line)

    def _print(self, text: str) -> None:
        self.stdout.write(redact(text, self.secrets) + "\n")
        self.stdout.flush()


class _Spinner:
    """An elapsed-time line on stderr while one long item is judged (a terminal only)."""

    FRAMES = "|/-\\"

    def __init__(self, stream: TextIO, *, enabled: bool, after: float = _SPINNER_AFTER_S):
        self.stream = stream
        self.enabled = enabled and stream.isatty()
        self.after = after
        self._task: asyncio.Task[None] | None = None
        self._shown = False

    async def _spin(self) -> None:
        start = time.monotonic()
        await asyncio.sleep(self.after)
        frame = 0
        while True:
            elapsed = time.monotonic() - start
            spin = self.FRAMES[frame % len(self.FRAMES)]
            self.stream.write(f"\r{spin} sumjudge: judging the item... {elapsed:.0f} s")
            self.stream.flush()
            self._shown = True
            frame += 1
            await asyncio.sleep(0.25)

    def __enter__(self) -> _Spinner:
        if self.enabled:
            self._task = asyncio.ensure_future(self._spin())
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._task is not None:
            self._task.cancel()
        if self._shown:
            self.stream.write("\r\033[K")
            self.stream.flush()


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
    """
    secrets = secrets_from_env()
    try:
        if args.dry_run:
            return _dry_run(args, evaluator, items, secrets)
        if args.report and not args.output:
            args.output = str(Path(args.report).with_suffix(".jsonl"))
            eprint(f"sumjudge: results for the report go to {args.output}")
        output = _Output(
            args, single=single, kind=kind, metrics=metrics, secrets=secrets, stdout=sys.stdout
        )
        with output.sink(args) as sink:
            code = await _judge(args, evaluator, items, total, sink, output, secrets, dataset)
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
    output: _Output,
    secrets: list[str],
    dataset: DatasetSummary | None,
) -> int:
    summary = RunSummary()
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
    try:
        with spinner:
            async for record in evaluator.evaluate_batch(
                items,
                concurrency=args.concurrency,
                requests_per_minute=args.rpm,
                tokens_per_minute=args.tpm,
                max_cost=args.max_cost,
                skip=sink.done,
                summary=summary,
            ):
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
    output.finish()  # the table (or the array) before the run's summary lines
    extra: dict[str, Any] = {}
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
    if args.summary_json:
        summary_data = {"judge": evaluator.judge_name, **summary.to_dict(), **extra}
        write_summary_json(args.summary_json, summary_data, secrets)
    if summary.stopped:
        return EXIT_STOPPED
    return EXIT_ITEM_ERRORS if (summary.failed or summary.invalid) else EXIT_OK
