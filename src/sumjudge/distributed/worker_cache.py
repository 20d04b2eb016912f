"""The response cache of one worker: its own file, and its siblings' answers on a miss.

Each worker writes only its own SQLite file under the job's cache directory (no two
machines write one file over a network share). On a miss it looks the key up in the other
cache files of that directory, read-only in effect: what another worker, an earlier run or
`sumjudge cache merge` already answered is not asked again, whatever the partitioning of
this run. A retried task on the same worker name finds its own earlier answers first.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

from ..cache import ResponseCache
from ..protocol import JudgeResponse

__all__ = ["WorkerCache", "worker_cache_path"]

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def worker_cache_path(cache_dir: str | Path, worker: str) -> Path:
    """The file of the worker named `worker` under `cache_dir`."""
    return Path(cache_dir) / f"worker-{_UNSAFE.sub('_', worker)}.sqlite3"


class WorkerCache(ResponseCache):
    """A `ResponseCache` in `worker_cache_path(cache_dir, worker)` that also reads siblings.

    Args:
        cache_dir: the job's cache directory (every worker's file is there).
        worker: this worker's name (Spark: its partition; Ray: its actor).
    """

    def __init__(self, cache_dir: str | Path, worker: str) -> None:
        super().__init__(worker_cache_path(cache_dir, worker))
        self._siblings: dict[Path, ResponseCache] = {}

    def _sibling_caches(self) -> list[ResponseCache]:
        # Listed on every miss: other workers create their files while the job runs.
        for path in sorted(self.path.parent.glob("*.sqlite3")):
            if path != self.path and path not in self._siblings:
                with contextlib.suppress(Exception):  # a file being created or not a cache
                    self._siblings[path] = ResponseCache(path)
        return list(self._siblings.values())

    def get(self, key: str) -> JudgeResponse | None:
        """Our own answer, else a sibling's; None (a miss) when nobody has one."""
        own = super().get(key)
        if own is not None:
            return own
        for sibling in self._sibling_caches():
            with contextlib.suppress(Exception):  # e.g. a file another worker is rewriting
                found = sibling.get(key)
                if found is not None:
                    self.misses -= 1
                    self.hits += 1
                    return found
        return None

    def __contains__(self, key: object) -> bool:
        if super().__contains__(key):
            return True
        return any(key in sibling for sibling in self._sibling_caches())

    def close(self) -> None:
        """Close our file and every sibling opened for reading."""
        for sibling in self._siblings.values():
            sibling.close()
        self._siblings.clear()
        super().close()
