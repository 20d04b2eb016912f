"""The fake server's prompt-prefix cache, billed like the providers' prompt caching."""

from __future__ import annotations

import threading
from collections import deque

from .options import ServerOptions

__all__ = ["PrefixCache"]


class PrefixCache:
    """Remembers block-aligned prompt prefixes per model, as `options.cache_*` say.

    The options are read on every lookup, so changing them on a running server takes effect.
    """

    def __init__(self, options: ServerOptions) -> None:
        self.options = options
        self._lock = threading.Lock()
        self._cache: dict[int, float] = {}
        self._order: deque[tuple[float, int]] = deque()

    def clear(self) -> None:
        """Forget every cached prefix."""
        with self._lock:
            self._cache.clear()
            self._order.clear()

    def lookup(self, model: str, tokens: list[str]) -> int:
        """Longest block-aligned prefix seen before within the TTL; then remember this one."""
        opts = self.options
        block, min_tokens, n = opts.cache_block, opts.cache_min_tokens, len(tokens)
        if n < max(min_tokens, block):
            return 0
        now = opts.clock()
        expires = now + opts.cache_ttl
        h = hash(model)
        cached, hit = 0, True
        with self._lock:
            self._expire(now)
            cache = self._cache
            for end in range(block, n + 1, block):
                h = hash((h, *tokens[end - block : end]))
                if end < min_tokens:
                    continue
                old = cache.get(h)
                if hit and old is not None and old > now:
                    cached = end
                else:
                    hit = False
                if old is None:
                    self._order.append((expires, h))
                cache[h] = expires
        return cached

    def _expire(self, now: float) -> None:
        # The queue holds (expiry when queued, hash) in insertion order, one entry per stored
        # hash. A refreshed entry reaching the front is re-queued with its new expiry, so the
        # work is amortised O(1) per stored block, never a scan of the whole history.
        cache, order = self._cache, self._order
        limit = self.options.cache_max_entries
        while order:
            queued, h = order[0]
            exp = cache[h]
            if len(cache) > limit or exp <= now:
                order.popleft()
                del cache[h]
            elif exp != queued:
                order.popleft()
                order.append((exp, h))
            else:
                break
