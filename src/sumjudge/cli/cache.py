"""`sumjudge cache merge`: combine response caches (e.g. a distributed job's worker files)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..cache import ResponseCache, merge_caches
from ..errors import ConfigError
from ._common import EXIT_OK, eprint
from ._flags import DefaultsHelpFormatter

__all__ = ["add_parser", "run_merge"]


def add_parser(sub: Any) -> None:
    """Add the `cache` subcommand (with `merge`) to the subparsers `sub`."""
    p = sub.add_parser(
        "cache",
        help="work with response caches",
        description="Work with response caches.",
        formatter_class=DefaultsHelpFormatter,
    )
    actions = p.add_subparsers(dest="cache_command", required=True)
    m = actions.add_parser(
        "merge",
        help="combine cache files into one",
        description="Copy every response of SOURCE cache files (or of every *.sqlite3 file "
        "in a SOURCE directory, such as a distributed job's cache_dir) into one cache. "
        "Responses already in the target are kept; the sources are not changed.",
        formatter_class=DefaultsHelpFormatter,
    )
    m.add_argument("sources", nargs="+", metavar="SOURCE", help="cache files or directories")
    m.add_argument(
        "-o",
        "--output",
        help="the merged cache: a .sqlite3 file, or a directory to hold responses.sqlite3 "
        "(default: the default cache, $SUMJUDGE_CACHE_DIR or the user cache dir)",
    )
    m.set_defaults(handler=run_merge)


def _source_files(sources: list[str], target: Path) -> list[Path]:
    files: list[Path] = []
    for source in sources:
        path = Path(source)
        if path.is_dir():
            found = sorted(p for p in path.glob("*.sqlite3") if p.resolve() != target)
            if not found:
                raise ConfigError(f"{source}: no *.sqlite3 cache files in this directory")
            files.extend(found)
        elif path.is_file():
            if path.resolve() == target:
                raise ConfigError(f"{source} is the output: merge other files into it")
            files.append(path)
        else:
            raise ConfigError(f"{source}: no such cache file or directory")
    return files


def run_merge(args: argparse.Namespace) -> int:
    """Run `sumjudge cache merge`; returns the exit code."""
    with ResponseCache(args.output) as target:
        files = _source_files(args.sources, target.path.resolve())
        added = 0
        for path in files:
            try:
                added += merge_caches(target, path)
            except Exception as exc:  # sqlite3.DatabaseError: not a cache file
                raise ConfigError(f"{path}: not a sumjudge response cache ({exc})") from None
        total = len(target)
        eprint(
            f"sumjudge: merged {added} new response(s) from {len(files)} file(s) into "
            f"{target.path} ({total} in all)"
        )
    return EXIT_OK
