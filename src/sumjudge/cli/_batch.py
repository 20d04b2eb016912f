"""The batch subcommands' engine flags and progress (evaluate, autoeval).

- `add_batch_arguments` adds the engine flags (concurrency, rate limits, cache, resume,
  dry run, cost cap, prices, retries, progress), with checked values (`--concurrency 0`
  is a one-line argparse error, exit 2), and declares the command's files (`batch_paths`)
  so that `main` refuses an output that is one of its inputs before anything is written.
- What those flags build (retry policy, cache, prices) is `RunFlags`'s (`_runflags.py`).
- `run_records`: the run's records, online or through the provider's batch endpoint
  (`--batch-api`: then with the `BatchRun`, whose report the run summary shows).
- `BatchProgress`: a tqdm bar on stderr with items/s, ETA, failures and spend;
  `_Spinner`: an elapsed-time line while the one item of a pair of files is judged.
- The results file (`RecordSink`, resume, partial files) is `_sink.py`'s.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import AsyncIterator, Container, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ..evaluators.base import Evaluator
from ..evaluators.records import Record
from ..runner import RunSummary
from ._common import int_at_least, non_negative_float, positive_float
from ._safety import CommandPaths, NamedPath
from ._sink import RecordSink

if TYPE_CHECKING:
    from ..batch.run import BatchRun
    from ._runflags import RunFlags

__all__ = [
    "EXIT_STOPPED",
    "BatchProgress",
    "RecordSink",
    "add_batch_arguments",
    "batch_paths",
    "run_records",
]

EXIT_STOPPED = 4  # the run stopped early (max cost); the output holds "not_run" records
_SPINNER_AFTER_S = 2.0

# The batch subcommands' file flags: (flag as typed, args attribute). A flag a subcommand
# does not have is skipped. --rubric-cache is read and written back, so it is state.
BATCH_INPUTS = (
    ("FILE", "file"),
    ("--input-file", "input_file"),
    ("--summary-file", "summary_file"),
    ("--sections", "sections"),
    ("--prices", "prices"),
)
BATCH_STATE = (("--rubric-cache", "rubric_cache"),)
BATCH_OUTPUTS = (
    ("-o/--output", "output"),
    ("--summary-json", "summary_json"),
    ("--report", "report"),
)


def _named(args: argparse.Namespace, flags: tuple[tuple[str, str], ...]) -> list[NamedPath]:
    return [(flag, value) for flag, dest in flags if (value := getattr(args, dest, None))]


def batch_paths(args: argparse.Namespace) -> CommandPaths:
    """The files a batch command line reads and writes (what `main` checks first).

    With --report and no -o, the results go next to the report (`_run.py` derives the
    path the same way), so that derived path is an output too.
    """
    outputs = _named(args, BATCH_OUTPUTS)
    if getattr(args, "report", None) and not getattr(args, "output", None):
        outputs.append(("-o (derived from --report)", str(Path(args.report).with_suffix(".jsonl"))))
    return CommandPaths(
        inputs=_named(args, BATCH_INPUTS),
        outputs=outputs,
        state=_named(args, BATCH_STATE),
    )


def add_batch_arguments(p: argparse.ArgumentParser) -> None:
    """The engine's flags, identical for every batch subcommand."""
    g = p.add_argument_group("batch engine")
    g.add_argument(
        "-o",
        "--output",
        help="write JSON lines here, in input order (default: stdout; see --format)",
    )
    g.add_argument(
        "--concurrency", type=int_at_least(1), default=8, help="items judged at once (default 8)"
    )
    g.add_argument(
        "--calls-in-flight",
        type=int_at_least(1),
        help="judge calls in flight at most, across items (default: no bound but "
        "--concurrency); set --concurrency above it / metrics so no slot waits idle",
    )
    g.add_argument(
        "--rpm",
        "--requests-per-minute",
        dest="rpm",
        type=positive_float,
        help="cap on judge requests per minute",
    )
    g.add_argument(
        "--tpm",
        "--tokens-per-minute",
        dest="tpm",
        type=positive_float,
        help="cap on prompt+completion tokens per minute",
    )
    g.add_argument(
        "--max-attempts", type=int_at_least(1), default=5, help="tries per judge call (default 5)"
    )
    g.add_argument("--timeout", type=positive_float, default=120.0, help="seconds per judge call")
    g.add_argument(
        "--no-cache", action="store_true", help="do not read or write the response cache"
    )
    g.add_argument(
        "--cache-dir",
        help="response cache location (default: $SUMJUDGE_CACHE_DIR or the user cache dir)",
    )
    g.add_argument(
        "--resume",
        action="store_true",
        help="keep finished records already in --output and judge only the rest",
    )
    g.add_argument(
        "--dry-run", action="store_true", help="estimate requests, tokens and cost, call nothing"
    )
    g.add_argument(
        "--max-cost",
        type=non_negative_float,
        help="stop starting new items once this many USD were spent",
    )
    g.add_argument("--price", help="the judge's price, USD per 1M tokens: IN,CACHED,OUT")
    g.add_argument(
        "--prices",
        help="JSON file of model -> {input, cached_input, output, "
        "context_window} overriding the built-in table",
    )
    g.add_argument(
        "--context-window", type=int_at_least(1), help="the judge's context window in tokens"
    )
    g.add_argument("--summary-json", help="also write the run summary as JSON to this file")
    g.add_argument(
        "--report",
        metavar="HTML",
        help="also write a self-contained HTML report here (results go to -o, or next to it)",
    )
    g.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.set_defaults(paths=batch_paths)


def run_records(
    flags: RunFlags,
    evaluator: Evaluator[Any, Any],
    items: Iterable[Any],
    *,
    skip: Container[int],
    summary: RunSummary,
) -> tuple[AsyncIterator[Record], BatchRun | None]:
    """The run's records by the engine flags, and the batch run (None when online).

    With `--batch-api` (the evaluator's `batch_options`) the records come from a
    `BatchRun`, held here so that its report reaches the summary; rate limits do not apply
    to a batch.
    """
    if evaluator.batch_options is None:
        records = evaluator.evaluate_batch(
            items,
            concurrency=flags.concurrency,
            requests_per_minute=flags.rpm,
            tokens_per_minute=flags.tpm,
            max_cost=flags.max_cost,
            skip=skip,
            summary=summary,
            calls_in_flight=flags.calls_in_flight,
        )
        return records, None
    from ..batch.run import BatchRun

    batch = BatchRun(evaluator, evaluator.batch_options, max_cost=flags.max_cost)
    return batch.records(items, concurrency=flags.concurrency, skip=skip, summary=summary), batch


class BatchProgress:
    """A tqdm bar on stderr: items/s and ETA (tqdm's own), plus failures and spend."""

    def __init__(self, total: int | None, *, enabled: bool = True, show_spend: bool = True) -> None:
        self._bar: Any = None
        self._show_spend = show_spend  # off for the offline judge: it spends nothing
        if enabled:
            from tqdm import tqdm

            self._bar = tqdm(total=total, unit="item", file=sys.stderr, dynamic_ncols=True)

    def update(self, summary: RunSummary) -> None:
        """Advance by one item and show the failures and spend so far."""
        if self._bar is None:
            return
        self._bar.update(1)
        post = {"failed": summary.failed + summary.invalid}
        if summary.priced and self._show_spend:
            post["spent"] = f"${summary.cost_usd:.4f}"  # type: ignore[assignment]
        if summary.cache_hits:
            post["cached"] = summary.cache_hits
        self._bar.set_postfix(post, refresh=False)

    def write(self, message: str) -> None:
        """Print a line above the bar (or on stderr without one)."""
        if self._bar is not None:
            self._bar.write(message, file=sys.stderr)
        else:
            print(message, file=sys.stderr, flush=True)

    def close(self) -> None:
        """Remove the bar."""
        if self._bar is not None:
            self._bar.close()


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
