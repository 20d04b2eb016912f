"""Per-source analysis, done once per source and shared by all its summaries."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np

from .dialogue import source_units
from .embed import Embedder, FloatArray
from .lexicon import NEGATIONS
from .numbers import numbers
from .records import SourceInfo, Unit
from .text import content, date_word, ngrams, stem, words

MAX_WINDOW = 3
KEYWORDS = 20


def norm_tokens(text: str) -> list[str]:
    """Stemmed word tokens, stopwords kept (for n-gram novelty)."""
    return [stem(w) for w in words(text)]


def analyse_source(text: str, embedder: Embedder | None) -> SourceInfo:
    """Analyse one source: its units, windows of consecutive units, vocabulary and facts.

    Args:
        text: The source document or transcript.
        embedder: Embeds the units and windows when given; None for lexical-only scoring.

    Returns:
        The analysis `features.analyse` scores summaries against.
    """
    units, dialogue = source_units(text)
    if not units:
        units = [Unit(text, 0, len(text), "", text)]
    unit_content = [set(content(u.resolved)) for u in units]
    windows: list[tuple[int, int]] = []
    for size in range(1, MAX_WINDOW + 1 if dialogue else 3):
        for i in range(len(units) - size + 1):
            windows.append((i, i + size))
    window_content = [set().union(*unit_content[a:b]) for a, b in windows]
    toks = norm_tokens(text) + [t for u in units for t in norm_tokens(u.resolved)]
    # importance: centrality (shared content words) plus a lead prior for prose
    freq: dict[str, int] = {}
    for c in unit_content:
        for w in c:
            freq[w] = freq.get(w, 0) + 1
    imp: list[float] = []
    for i, c in enumerate(unit_content):
        cent = sum(math.log1p(freq[w] - 1) for w in c) / (1.0 + math.sqrt(len(c)))
        lead = 1.0 / (1.0 + i / 3.0) if not dialogue else 0.0
        imp.append(cent + 2.0 * lead)
    info = SourceInfo(
        text=text,
        units=units,
        dialogue=dialogue,
        windows=windows,
        window_content=window_content,
        unit_content=unit_content,
        vocab=set(toks) | {w for w in words(text)},
        bigrams=set(ngrams(toks, 2)),
        trigrams=set(ngrams(toks, 3)),
        nums=numbers(text),
        name_set={w.lower() for w in words(text)},
        neg_units=[any(w in NEGATIONS for w in words(u.text)) for u in units],
        importance=imp,
        n_words=len(words(text)),
        speakers={u.speaker.lower() for u in units if u.speaker},
        tokens=words(text),
        # lenient on the source side: "Sat", "Mon", "Mar" count as the day or month here
        dates={d for d in map(date_word, words(text)) if d},
        keywords=_keywords(units, dialogue),
    )
    if embedder is not None:
        emb = embedder.embed([u.resolved for u in units])
        info.emb_units = emb
        win = np.stack([emb[a:b].mean(axis=0) for a, b in windows])
        win /= np.linalg.norm(win, axis=1, keepdims=True) + 1e-9
        info.emb_windows = win.astype(np.float32)
        info.emb_weights = _embedding_importance(emb, dialogue)
    return info


def _keywords(units: list[Unit], dialogue: bool) -> list[tuple[str, int]]:
    """The source's most repeated content words (stemmed) with their counts.

    Turn prefixes ("Rina (PM):") are left out, since every turn would repeat its speaker's
    name, and so are bare digit groups ("000" of "110,000").
    """
    bodies = [u.text[u.text.index(":") + 1 :] if dialogue else u.text for u in units]
    counts = Counter(w for b in bodies for w in content(b) if not w.isdigit())
    return counts.most_common(KEYWORDS)


def _embedding_importance(emb: FloatArray, dialogue: bool) -> FloatArray:
    """Weights of source units for coverage, softmax-normalised.

    The weight is semantic centrality (mean cosine to the other units, standardised) plus,
    for prose, a lead prior.
    """
    n = len(emb)
    sims = emb @ emb.T
    cent = (sims.sum(axis=1) - 1.0) / max(1, n - 1)
    score = (cent - cent.mean()) / (cent.std() + 1e-9)
    if not dialogue:
        score = score + 1.0 / (1.0 + np.arange(n) / 3.0)
    w = np.exp(1.5 * (score - score.max()))
    weights: FloatArray = (w / w.sum()).astype(np.float32)
    return weights
