"""Per-source analysis, done once per source and shared by all its summaries."""

from __future__ import annotations

import gc
import itertools
import math
import re
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np

from ..transcripts import normalize_source
from .dialogue import source_units
from .embed import Embedder, FloatArray
from .entities import name_parts
from .focus import IntArray, embed_texts, is_long, sample_units, turn_sentences
from .lexicon import MULTIPLIERS, NEGATIONS, NEGATIVE_MEANING, SCALES, STOP, TITLES, word_set
from .numbers import numbers
from .records import SourceInfo, Unit
from .text import content_of, date_word, stem, words

MAX_WINDOW = 3
# Units embedded per call when progress is reported.
EMBED_BATCH = 256
Progress = Callable[[int, int], None]
_NEGATED = NEGATIONS | NEGATIVE_MEANING
# Hyphenated words ("Al-Farsi"), tried only where a run of letters starts: a match can start
# nowhere else, and trying every letter of every word cost time quadratic in word length.
_HYPHENATED = re.compile(r"(?<![^\W\d_])[^\W\d_]+(?:-[^\W\d_]+)+")
KEYWORDS = 20
_COURTESY = frozenset(stem(w) for w in word_set("courtesy") | TITLES) | word_set("courtesy")
# parts of number words ("dua belas", "empat puluh", "dua ratus ribu"): numbers, not terms
_NUMBER_PARTS = frozenset(
    stem(w) for w in ["belas", "puluh", "ratus", "ribu", *SCALES, *MULTIPLIERS]
)
# A turn with fewer content words than this ("That's great, thank you.") is not content a
# summary leaves out: never cited as omitted, and of no weight in the coverage of a dialogue
CONTENT_TURN_WORDS = 4


def norm_tokens(text: str) -> list[str]:
    """Stemmed word tokens, stopwords kept (for n-gram novelty)."""
    return list(map(stem, words(text)))


def analyse_source(
    text: str, embedder: Embedder | None, progress: Progress | None = None
) -> SourceInfo:
    """Analyse one source: its units, windows of consecutive units, vocabulary and facts.

    Args:
        text: The source document or transcript. WebVTT, SRT and JSON turn lists are read
            by `sumjudge.transcripts` first (cue numbers, timings and voice tags are markup,
            not content); the analysis's `text` is the normalised one.
        embedder: Embeds the units and windows when given; None for lexical-only scoring.
        progress: Called with (passages embedded, passages) while a long source is embedded.

    Returns:
        The analysis `features.analyse` scores summaries against.
    """
    with collector_paused():
        info = _analyse_text(text)
    if embedder is not None:
        _embed_source(info, embedder, progress)
    return info


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for the block.

    Reading a long source makes millions of small lists, sets and tuples, none in a
    reference cycle; the collector's passes over them took some 15% of the time of a 2 MB
    transcript (and the window index a summary's support is counted from, built on first
    use). Reference counting still frees everything as usual. (When another thread
    has it paused already, it is left to that thread to resume it.)
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _analyse_text(text: str) -> SourceInfo:
    """The lexical part of `analyse_source` (everything but the embeddings)."""
    raw, text = text, normalize_source(text)
    units, dialogue = source_units(text)
    if not units:
        units = [Unit(text, 0, len(text), "", text)]
    unit_words = [words(u.resolved) for u in units]
    unit_terms = [content_of(ws) for ws in unit_words]
    unit_content = [set(c) for c in unit_terms]
    negated, body_terms, ws = _read_bodies(text, units, dialogue, unit_words, unit_terms)
    windows: list[tuple[int, int]] = []
    for size in range(1, MAX_WINDOW + 1 if dialogue else 3):
        for i in range(len(units) - size + 1):
            windows.append((i, i + size))
    chunks = text.split()  # white-space separated, for `folded` and hyphenated names
    distinct = set(ws)  # the per-word readings below need each word once
    toks = list(map(stem, ws))  # (map: no Python frame per word)
    if dialogue:  # "I"/"you" rewritten to names: the resolved turns add their words
        toks += map(stem, itertools.chain.from_iterable(unit_words))
    # importance: centrality (shared content words) plus a lead prior for prose
    freq = Counter(itertools.chain.from_iterable(unit_content))
    shared = {w: math.log1p(n - 1) for w, n in freq.items()}
    imp: list[float] = []
    for i, c in enumerate(unit_content):
        cent = sum(map(shared.__getitem__, c)) / (1.0 + math.sqrt(len(c)))  # (same order)
        lead = 1.0 / (1.0 + i / 3.0) if not dialogue else 0.0
        imp.append(cent + 2.0 * lead)
    return SourceInfo(
        text=text,
        raw=raw,
        folded=" ".join(chunks).casefold(),  # `fold(text)`, from the chunks split once
        units=units,
        dialogue=dialogue,
        windows=windows,
        unit_content=unit_content,
        # content forms too: "kilometres" is also "km", "megabits" "mbps"
        vocab=set(toks) | distinct | set(content_of(list(distinct))),
        bigrams=set(itertools.pairwise(toks)),
        trigrams=set(zip(toks, toks[1:], toks[2:], strict=False)),
        nums=numbers(text),
        name_set=_name_set(chunks, distinct),
        neg_units=negated,
        importance=imp,
        n_words=len(ws),
        speakers={u.speaker.lower() for u in units if u.speaker},
        tokens=ws,
        # lenient on the source side: "Sat", "Mon", "Mar" count as the day or month here
        dates={d for d in map(date_word, distinct) if d},
        keywords=_keywords(body_terms, units if dialogue else None),
    )


def _embed_source(info: SourceInfo, embedder: Embedder, progress: Progress | None) -> None:
    """Embed the units, windows and (for dialogues) the sentences of long turns.

    A long source (`focus.is_long`) has only a sample of its units embedded here; the
    passages each summary needs are embedded with it (`focus.summary_vectors`).
    """
    if is_long(info.units):
        ids = sample_units(info.importance)
        texts = [info.units[i].resolved for i in ids]
        info.emb_units = embed_texts(embedder, texts, progress)
        info.emb_unit_ids = ids
        sampled = [content_turn(info, int(i)) for i in ids]
        info.emb_weights = _embedding_importance(info.emb_units, info.dialogue, sampled, ids)
        return
    emb = _embed_units(embedder, [u.resolved for u in info.units], progress)
    info.emb_units = emb
    win = np.stack([emb[a:b].mean(axis=0) for a, b in info.windows])
    win /= np.linalg.norm(win, axis=1, keepdims=True) + 1e-9
    info.emb_windows = win.astype(np.float32)
    substantive = [content_turn(info, i) for i in range(len(info.units))]
    info.emb_weights = _embedding_importance(emb, info.dialogue, substantive)
    parts = turn_sentences(info.units) if info.dialogue else []
    if parts:
        info.emb_parts = _embed_units(embedder, parts, progress)


class SourceCache:
    """Analysed sources, the least recently used dropped first; bounded in number and size.

    A comparison judges many summaries of one source, which is analysed (and embedded)
    once. Keys are the sources themselves (a dict uses their hash; equal text is the same
    source). The bound on characters keeps a few long transcripts from holding gigabytes:
    a 2 MB transcript's analysis takes some 150 MB. The newest source is always kept.
    """

    def __init__(self, max_sources: int = 64, max_chars: int = 4_000_000) -> None:
        self._infos: OrderedDict[str, SourceInfo] = OrderedDict()
        self._chars = 0
        self._max_sources = max_sources
        self._max_chars = max_chars
        # The offline judge analyses items in worker threads (`asyncio.to_thread`); the
        # lock guards the dict and the character count, never the analysis itself.
        self._lock = threading.Lock()

    def get(self, source: str, analyse: Callable[[str], SourceInfo]) -> SourceInfo:
        """The analysis of `source`, from `analyse(source)` when it is not held."""
        with self._lock:
            info = self._infos.get(source)
            if info is not None:
                self._infos.move_to_end(source)
                return info
        info = analyse(source)
        with self._lock:
            held = self._infos.get(source)
            if held is not None:  # another thread analysed it meanwhile: keep one
                self._infos.move_to_end(source)
                return held
            self._infos[source] = info
            self._chars += len(source)
            while len(self._infos) > 1 and (
                len(self._infos) > self._max_sources or self._chars > self._max_chars
            ):
                old, _ = self._infos.popitem(last=False)
                self._chars -= len(old)
        return info

    @property
    def chars(self) -> int:
        """Characters of the sources held."""
        return self._chars

    def __len__(self) -> int:
        return len(self._infos)


def _name_set(chunks: list[str], ws: set[str]) -> set[str]:
    """Lower-case words of the source (`ws`, each once) as names may be written in a summary.

    "O'Donnell" also gives "odonnell", "o" and "donnell"; "Al-Farsi" also "alfarsi".
    `chunks` is the source split at white space: a hyphenated word holds none (no
    white-space character is a letter), so only the chunks with a hyphen are searched.
    """
    out = set(ws)
    out |= {p for w in ws if "'" in w for p in name_parts(w)}
    hyphenated = [c for c in chunks if "-" in c]
    out |= {m.lower().replace("-", "") for c in hyphenated for m in _HYPHENATED.findall(c)}
    return out


def _embed_units(embedder: Embedder, texts: list[str], progress: Progress | None) -> FloatArray:
    """The units' embeddings, in batches with progress reports for a long source."""
    return embed_texts(embedder, texts, progress, EMBED_BATCH)


def _read_bodies(
    text: str,
    units: list[Unit],
    dialogue: bool,
    unit_words: list[list[str]],
    unit_terms: list[list[str]],
) -> tuple[list[bool], list[list[str]], list[str]]:
    """Per unit, a negation in its own text and its body's content words; `words(text)`.

    The body is a turn's text after "Name (Role):" (every turn would repeat its speaker),
    a prose unit's whole text. A prose unit's text is its resolved text, whose words
    (`unit_words`, `unit_terms`) are already read; a turn's words are those of its head and
    of its body (no word spans the colon). The words of the whole text are those of its
    units and of the text between them, in order: units start after white space (or at
    the start) and end before white space or after a colon or a full stop, which no word
    holds, so no word spans two. (Lower case is per character but for capital sigma,
    whose form depends on its neighbours: a text with one is read whole.)
    """
    negated: list[bool] = []
    terms: list[list[str]] = []
    whole: list[str] = []
    end = 0
    heads: dict[str, tuple[list[str], bool]] = {}  # "Name (Role):" repeats: each read once
    for u, uw, ut in zip(units, unit_words, unit_terms, strict=True):
        gap = text[end : u.start]
        if gap and not gap.isspace():
            whole += words(gap)
        end = u.end
        if dialogue:
            cut = u.text.index(":") + 1
            head = u.text[:cut]
            read = heads.get(head)
            if read is None:
                hw = words(head)
                read = heads[head] = hw, not _NEGATED.isdisjoint(hw)
            body = words(u.text[cut:])
            negated.append(read[1] or not _NEGATED.isdisjoint(body))
            terms.append(content_of(body))
            whole += read[0]
            whole += body
        elif u.text == u.resolved:
            negated.append(not _NEGATED.isdisjoint(uw))
            terms.append(ut)
            whole += uw
        else:
            own = words(u.text)
            negated.append(not _NEGATED.isdisjoint(own))
            terms.append(content_of(own))
            whole += own
    if end < len(text):
        whole += words(text[end:])
    if "\u03a3" in text:
        whole = words(text)
    return negated, terms, whole


def spoken_form(w: str) -> bool:
    """Whether a content word is a function word's contraction ("i'll", "we're", "it's").

    ("it's" has the content form "it".) Speech is full of them and a written summary has
    none: they are not terms of its content (`_keywords`, `content_turn`).
    """
    return w in STOP or ("'" in w and w.split("'", 1)[0] in STOP)


def content_turn(info: SourceInfo, i: int) -> bool:
    """Whether unit `i` has content a summary may leave out (CONTENT_TURN_WORDS words or more).

    A turn's own words count, not its speaker's name ("Marcus Lee: I'm in favour." has one).
    """
    u = info.units[i]
    if not u.speaker:
        return len(info.unit_content[i]) >= CONTENT_TURN_WORDS
    name = set(content_of(words(u.speaker))) | {u.role}
    own = [
        w
        for w in info.unit_content[i]
        if w not in name and not spoken_form(w) and w not in _COURTESY
    ]
    return len(own) >= CONTENT_TURN_WORDS


def _keywords(body_terms: list[list[str]], turns: list[Unit] | None) -> list[tuple[str, int]]:
    """The source's most repeated content words (stemmed) with their counts.

    Counted in the units' bodies (`_read_bodies`: turn prefixes such as "Rina (PM):" are
    left out, since every turn would repeat its speaker's name), without bare digit groups
    ("000" of "110,000") and contractions of function words ("i'll": `spoken_form`). In a
    transcript (`turns` given) greetings, thanks and forms of address ("Siang, Mbak",
    `words/courtesy.txt`, `words/titles.txt`) are the register of every call, not its terms.
    """
    counts = Counter(itertools.chain.from_iterable(body_terms))
    drop = [w for w in counts if w.isdigit() or spoken_form(w) or w in _NUMBER_PARTS]
    if turns is not None:
        drop += [w for w in counts if w in _COURTESY]
    for w in set(drop):  # (the others keep their order: ties too)
        del counts[w]
    return counts.most_common(KEYWORDS)


def _embedding_importance(
    emb: FloatArray,
    dialogue: bool,
    substantive: list[bool],
    positions: IntArray | None = None,
) -> FloatArray:
    """Weights of source units for coverage, softmax-normalised.

    The weight is semantic centrality (mean cosine to the other units, standardised) plus,
    for prose, a lead prior. In a dialogue only turns with content count (`substantive`):
    greetings and thanks are the centre of a conversation's register, not of its content.
    `positions` are the units' places in the source when `emb` holds a sample of them (a
    long source), else `emb` holds every unit in order.
    """
    n = len(emb)
    # mean cosine to the other units, from the sum of the unit vectors: linear in n
    cent = (emb @ emb.sum(axis=0) - 1.0) / max(1, n - 1)
    score = (cent - cent.mean()) / (cent.std() + 1e-9)
    if not dialogue:
        place = np.arange(n) if positions is None else positions
        score = score + 1.0 / (1.0 + place / 3.0)
    elif any(substantive):
        score = np.where(substantive, score, -np.inf)
    w = np.exp(1.5 * (score - score[np.isfinite(score)].max()))
    weights: FloatArray = (w / w.sum()).astype(np.float32)
    return weights
