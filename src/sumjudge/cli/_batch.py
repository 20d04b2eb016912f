"""Batch flags and output helpers shared by the batch subcommands (evaluate, autoeval).

- `add_batch_arguments` adds the engine flags (concurrency, rate limits, cache, resume,
  dry run, cost cap, prices, retries, progress).
- `RecordSink` streams one JSON line per finished item to the output, flushed at once, so
  a crash loses nothing already written. With `resume=True` it first rewrites the file
  keeping only finished records (status "ok" or "invalid"; a torn last line, "failed"
  and "not_run" records are dropped) and reports their indices, which the run then skips;
  new records are appended. Each index therefore appears exactly once.
- `BatchProgress`: a tqdm bar on stderr with items/s, ETA, failures and spend.
- Secrets (API keys from the environment) are redacted from everything written.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from ..cache import ResponseCache
from ..cost import ModelTable, Price
from ..runner import RetryPolicy, RunSummary

__all__ = [
    "EXIT_STOPPED",
    "KEY_ENV_VARS",
    "BatchProgress",
    "RecordSink",
    "add_batch_arguments",
    "cache_from_args",
    "price_from_args",
    "redact",
    "retry_policy_from_args",
    "secrets_from_env",
]

EXIT_STOPPED = 4  # the run stopped early (max cost); the output holds "not_run" records
KEY_ENV_VARS = ("OPENAI_API_KEY", "GOOGLE_API_KEY", "GEMINI_API_KEY", "ANTHROPIC_API_KEY")
FINISHED = ("ok", "invalid")


def add_batch_arguments(p: argparse.ArgumentParser) -> None:
    """The engine's flags, identical for every batch subcommand."""
    g = p.add_argument_group("batch engine")
    g.add_argument(
        "-o",
        "--output",
        help="write JSONL results here, one line per item as it finishes (default: stdout)",
    )
    g.add_argument("--concurrency", type=int, default=8, help="items judged at once (default 8)")
    g.add_argument(
        "--rpm",
        "--requests-per-minute",
        dest="rpm",
        type=float,
        help="cap on judge requests per minute",
    )
    g.add_argument(
        "--tpm",
        "--tokens-per-minute",
        dest="tpm",
        type=float,
        help="cap on prompt+completion tokens per minute",
    )
    g.add_argument("--max-attempts", type=int, default=5, help="tries per judge call (default 5)")
    g.add_argument("--timeout", type=float, default=120.0, help="seconds per judge call")
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
        "--max-cost", type=float, help="stop starting new items once this many USD were spent"
    )
    g.add_argument("--price", help="the judge's price, USD per 1M tokens: IN,CACHED,OUT")
    g.add_argument(
        "--prices",
        help="JSON file of model -> {input, cached_input, output, "
        "context_window} overriding the built-in table",
    )
    g.add_argument("--context-window", type=int, help="the judge's context window in tokens")
    g.add_argument("--summary-json", help="also write the run summary as JSON to this file")
    g.add_argument(
        "--report",
        metavar="HTML",
        help="also write a self-contained HTML report here (results go to -o, or next to it)",
    )
    g.add_argument("--no-progress", action="store_true", help="hide the progress bar")


def retry_policy_from_args(args: argparse.Namespace) -> RetryPolicy:
    return RetryPolicy(max_attempts=max(1, args.max_attempts), timeout=args.timeout)


def cache_from_args(args: argparse.Namespace) -> ResponseCache | None:
    if args.no_cache:
        return None
    return ResponseCache(args.cache_dir) if args.cache_dir else ResponseCache()


def price_from_args(args: argparse.Namespace) -> tuple[ModelTable, Price | None]:
    table = ModelTable(args.prices) if args.prices else ModelTable()
    return table, Price.parse(args.price) if args.price else None


def secrets_from_env() -> list[str]:
    """API key values present in the environment (long enough to be worth redacting)."""
    return [v for k in KEY_ENV_VARS if len(v := os.environ.get(k, "")) >= 8]


def redact(text: str, secrets: list[str]) -> str:
    for s in secrets:
        if s in text:
            text = text.replace(s, "[REDACTED]")
    return text


def _finished_lines(path: Path) -> tuple[list[str], set[int]]:
    keep: list[str] = []
    done: set[int] = set()
    with path.open(encoding="utf-8", errors="replace") as fh:
        for line in fh:
            if not line.endswith("\n"):
                break  # torn by a crash mid-write
            try:
                data = json.loads(line)
            except ValueError:
                continue
            if not isinstance(data, dict) or not isinstance(data.get("index"), int):
                continue
            if data.get("status") in FINISHED and data["index"] not in done:
                done.add(data["index"])
                keep.append(line)
    return keep, done


class RecordSink(contextlib.AbstractContextManager["RecordSink"]):
    """Writes records as JSON lines as they finish (see the module docstring for resume).

    Args:
        path: the output file; None for stdout.
        resume: keep the finished records of an existing `path` and report their indices
            in `.done`.
        pretty: indent the JSON (single-item mode).
        secrets: strings to redact from every line.
    """

    def __init__(
        self,
        path: str | Path | None,
        *,
        resume: bool = False,
        pretty: bool = False,
        secrets: list[str] | None = None,
    ) -> None:
        self.done: set[int] = set()
        self.secrets = secrets or []
        self.pretty = pretty
        self.written = 0
        self._own = path is not None
        if path is None:
            if resume:
                raise SystemExit("sumjudge: --resume needs --output FILE")
            self._fh: TextIO = sys.stdout
            return
        p = Path(path)
        if resume and p.exists():
            keep, self.done = _finished_lines(p)
            tmp = p.with_name(p.name + ".resume-tmp")
            with tmp.open("w", encoding="utf-8") as fh:
                fh.writelines(keep)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, p)  # atomic: a crash leaves the old file or the new one
            self._fh = p.open("a", encoding="utf-8")
        else:
            self._fh = p.open("w", encoding="utf-8")

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def write(self, data: dict[str, Any]) -> None:
        """Write one record as a line, redacted, flushed at once."""
        text = json.dumps(data, ensure_ascii=False, indent=2 if self.pretty else None)
        self._fh.write(redact(text, self.secrets) + "\n")
        self._fh.flush()
        self.written += 1

    def close(self) -> None:
        """Close the output file (stdout stays open)."""
        if self._own:
            self._fh.close()


class BatchProgress:
    """A tqdm bar on stderr: items/s and ETA (tqdm's own), plus failures and spend."""

    def __init__(self, total: int | None, *, enabled: bool = True) -> None:
        self._bar: Any = None
        if enabled:
            from tqdm import tqdm

            self._bar = tqdm(total=total, unit="item", file=sys.stderr, dynamic_ncols=True)

    def update(self, summary: RunSummary) -> None:
        if self._bar is None:
            return
        self._bar.update(1)
        post = {"failed": summary.failed + summary.invalid}
        if summary.priced:
            post["spent"] = f"${summary.cost_usd:.4f}"  # type: ignore[assignment]
        if summary.cache_hits:
            post["cached"] = summary.cache_hits
        self._bar.set_postfix(post, refresh=False)

    def write(self, message: str) -> None:
        if self._bar is not None:
            self._bar.write(message, file=sys.stderr)
        else:
            print(message, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
