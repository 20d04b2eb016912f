"""Rubric questions per section definition: generated once, kept in memory and in a file.

The cache lives in memory and, optionally, in a JSON file that later runs reuse.
Concurrent conversations wanting the same definition share a single in-flight request.
Generation goes through the item's `ask`, so the response cache and the run's limits
apply to it as to every other request.
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from ..metrics.rubric import TASK, RubricGenerationError, cache_key, read_directives, rubric_request
from ..plan import Call, Judged
from ..protocol import Usage
from ..types import SectionDefinition

__all__ = ["Ask", "RubricCache"]

Ask = Callable[[Call[tuple[str, ...]]], Awaitable[Judged[tuple[str, ...]]]]
"""How the cache sends its generation request (the item's `ItemRun.ask`)."""


class RubricCache:
    """Directives per section definition: in memory, optionally persisted as JSON.

    Args:
        path: a JSON file to load at start and update after each new generation.

    Attributes:
        generated: how many definitions were sent to the judge by this cache.
        usage: tokens spent generating them.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._entries: dict[str, tuple[str, ...]] = {}
        self._pending: dict[str, asyncio.Future[tuple[str, ...]]] = {}
        self.generated = 0
        self.usage = Usage()
        if self.path is not None and self.path.exists():
            self._load(self.path)

    def _load(self, path: Path) -> None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            return  # an unreadable cache is rebuilt, never fatal
        if not isinstance(data, dict):
            return
        for key, entry in data.items():
            if isinstance(entry, dict) and isinstance(entry.get("directives"), list):
                self._entries[key] = tuple(str(d) for d in entry["directives"])

    def _save(self, names: dict[str, str]) -> None:
        if self.path is None:
            return
        existing: dict[str, Any] = {}
        if self.path.exists():
            try:
                loaded = json.loads(self.path.read_text(encoding="utf-8"))
                existing = loaded if isinstance(loaded, dict) else {}
            except (OSError, json.JSONDecodeError):
                existing = {}
        for key, directives in self._entries.items():
            entry = existing.get(key)
            section = names.get(key) or (entry.get("section") if isinstance(entry, dict) else "")
            existing[key] = {"section": section, "task": TASK, "directives": list(directives)}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(existing, fh, ensure_ascii=False, indent=2)
        os.replace(tmp, self.path)

    def cached(self, definition: SectionDefinition) -> tuple[str, ...] | None:
        """The definition's directives if this cache has them (no request)."""
        return self._entries.get(cache_key(definition))

    async def directives(self, definition: SectionDefinition, ask: Ask) -> tuple[str, ...]:
        """The definition's directives, generating them on first use.

        Raises `ParseError` or `ProviderError` when generation fails (nothing is cached
        then, so a later conversation tries again).
        """
        key = cache_key(definition)
        if key in self._entries:
            return self._entries[key]
        pending = self._pending.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[tuple[str, ...]] = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        try:
            judged = await ask(Call(rubric_request(definition), read_directives))
            self.generated += 1
            self.usage = self.usage + judged.usage
            if judged.value is None:
                raise RubricGenerationError(
                    f"rubric questions could not be generated: {judged.error}",
                    raw=judged.raw_reply or "",
                )
            self._entries[key] = judged.value
            self._save({key: definition.name})
            future.set_result(judged.value)
            return judged.value
        except BaseException as exc:
            if not future.done():
                future.set_exception(exc)
                future.exception()  # mark retrieved: waiters may not exist
            raise
        finally:
            self._pending.pop(key, None)
