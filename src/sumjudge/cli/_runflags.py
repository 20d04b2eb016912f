"""The batch subcommands' shared flags, typed: `RunFlags`, made once from the parsed args.

`evaluate`, `autoeval` and `pairwise` build a `RunFlags` at the start of the command and
pass it down (the runner, the output, the sink, the distributed engines) instead of the
argparse namespace; what a subcommand alone has (its columns, its evaluator's own
options) it reads from its own flags. The methods turn the flags into what they configure:
the judge(s), the metric list, the evaluator's keyword arguments, the retry policy, the
response cache, the prices and the provider-batch options.
"""

from __future__ import annotations

import argparse
import shlex
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from ..batch.options import BatchOptions
from ..cache import ResponseCache, default_cache_dir
from ..cost import ModelTable, Price
from ..runner import RetryPolicy
from ._common import choose_model, eprint, metric_names
from ._flags import use_http_client

__all__ = ["RunFlags"]


@dataclass(frozen=True)
class RunFlags:
    """The flags every batch subcommand shares (see `add_run_arguments`), as typed values.

    Attributes mirror the flags of the same names; `model` is every --model given (more
    than one: a judge panel), `argv` the command line (what a batch job's "collect with"
    line repeats). A flag a subcommand does not have keeps its default here (pairwise has
    no --engine: "local").
    """

    command: str
    argv: tuple[str, ...] = ()
    file: str | None = None
    id_column: str = "id"
    model: tuple[str, ...] = ()
    base_url: str | None = None
    http_client: str | None = None
    metrics: str | None = None
    language: str | None = None
    long_source: str = "fail"
    encoding: str | None = None
    format: str | None = None
    output: str | None = None
    concurrency: int = 8
    calls_in_flight: int | None = None
    rpm: float | None = None
    tpm: float | None = None
    max_attempts: int = 5
    timeout: float = 120.0
    no_cache: bool = False
    cache_dir: str | None = None
    resume: bool = False
    dry_run: bool = False
    max_cost: float | None = None
    price: str | None = None
    prices: str | None = None
    context_window: int | None = None
    summary_json: str | None = None
    report: str | None = None
    no_progress: bool = False
    batch_api: bool = False
    no_wait: bool = False
    batch_poll: float = 30.0
    engine: str = "local"
    workers: int | None = None
    spark_master: str | None = None
    ray_address: str | None = None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> RunFlags:
        """The shared flags of the parsed `args` (the one place that reads them)."""
        given = vars(args)
        values = {f.name: given[f.name] for f in fields(cls) if f.name in given}
        values["model"] = tuple(given.get("model") or ())
        values["argv"] = tuple(given.get("argv") or ())
        return cls(**values)

    def models(self) -> str | list[str]:
        """The judge: one (chosen and announced when --model is not given), or a panel."""
        if len(self.model) <= 1:
            return choose_model(self.model[0] if self.model else None, self.base_url)
        return list(self.model)

    def metric_list(self) -> list[str] | None:
        """The --metrics value as a list (None: the evaluator's default)."""
        return metric_names(self.metrics)

    def retry_policy(self) -> RetryPolicy:
        """The retry policy of --max-attempts and --timeout."""
        return RetryPolicy(max_attempts=self.max_attempts, timeout=self.timeout)

    def open_cache(self) -> ResponseCache | None:
        """The response cache of --cache-dir (None with --no-cache)."""
        if self.no_cache:
            return None
        return ResponseCache(self.cache_dir) if self.cache_dir else ResponseCache()

    def price_table(self) -> tuple[ModelTable, Price | None]:
        """The price table of --prices and the judge's price of --price."""
        table = ModelTable(self.prices) if self.prices else ModelTable()
        return table, Price.parse(self.price) if self.price else None

    def batch_options(self) -> BatchOptions | bool:
        """The `batch_api` evaluator argument of --batch-api, --no-wait and --batch-poll."""
        if not self.batch_api:
            return False
        argv = [a for a in self.argv if a != "--no-wait"]
        base = self.cache_dir or default_cache_dir()
        return BatchOptions(
            wait=not self.no_wait,
            poll_interval=self.batch_poll,
            jobs_dir=Path(base) / "jobs",
            progress=lambda line: eprint(f"sumjudge: {line}"),
            command=("sumjudge " + shlex.join(argv)) if argv else "",
        )

    def evaluator_options(self) -> dict[str, Any]:
        """The evaluator arguments every batch subcommand takes from these flags.

        Makes --http-client the run's choice (`use_http_client`) and opens the cache.
        """
        table, price = self.price_table()
        use_http_client(self.http_client)
        return {
            "base_url": self.base_url,
            "explanation_language": self.language,
            "retry_policy": self.retry_policy(),
            "timeout": self.timeout,
            "cache": self.open_cache(),
            "prices": table,
            "price": price,
            "context_window": self.context_window,
            "long_source": self.long_source,
            "batch_api": self.batch_options(),
        }
