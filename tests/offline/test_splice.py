"""Splices: fires on copied fragments glued mid-clause, silent on how writers reuse text."""

from __future__ import annotations

import itertools

import pytest

from sumjudge.offline.explain import drivers
from sumjudge.offline.features import analyse
from sumjudge.offline.source import analyse_source
from sumjudge.offline.splice import Joints, splice_rate

from .faithful_corpus import CORPUS, Faithful

SOURCE = (
    "The board suspended the chiropractor after a long review of his practice in the state. "
    "He recommended that patients stop taking medication prescribed by their doctors. "
    "Officials said the clinic would remain closed until further notice. "
    "The agreement requires that he prove the conditions no longer exist before he can "
    "resume practicing chiropractic in the state."
)


def _rate(sentences: list[str], source: str = SOURCE) -> float:
    info = analyse_source(source, None)
    words = [w for s in sentences for w in Joints.of(s).tokens]
    pos = info.pair_starts(set(itertools.pairwise(words)))
    return splice_rate(sentences, info.tokens, lambda: info.joints, pos)


def test_fragments_of_two_passages_glued_mid_clause_are_a_splice() -> None:
    """The start of one sentence runs on into the middle of another: one splice."""
    garbled = (
        "He recommended that patients stop taking medication no longer exist before he can "
        "resume practicing."
    )
    assert _rate([garbled]) == 1.0
    assert _rate([garbled, "Officials said the clinic would remain closed."]) == 0.5


@pytest.mark.parametrize(
    "sentence",
    [
        # the source's own sentence, and one shortened within its passage
        "He recommended that patients stop taking medication prescribed by their doctors.",
        "He recommended that patients stop taking medication.",
        "The board suspended the chiropractor after a review of his practice.",
        # two passages joined at a clause joint, with punctuation or "and"
        "He recommended that patients stop taking medication, and the clinic would remain "
        "closed until further notice.",
        "He recommended that patients stop taking medication and officials said the clinic "
        "would remain closed.",
        # a phrase from elsewhere attached at a preposition
        "The board suspended the chiropractor in the state after a long review.",
        # one word replaced in a copied run
        "Officials said the clinic will remain closed until further notice.",
        # paraphrase
        "The chiropractor was suspended and told patients to quit their prescriptions.",
    ],
)
def test_how_writers_reuse_a_source_is_no_splice(sentence: str) -> None:
    """Copying, compressing, joining at clause joints and paraphrasing are not splices."""
    assert _rate([sentence]) == 0.0


def test_the_source_itself_has_no_splice() -> None:
    """A summary made of the source's sentences is never spliced."""
    info = analyse_source(SOURCE, None)
    assert analyse(info, SOURCE, None, False).features["splice"] == 0.0


@pytest.mark.parametrize("item", CORPUS, ids=[f.id for f in CORPUS])
def test_no_splice_in_the_faithful_corpus(item: Faithful) -> None:
    """Faithful summaries of meetings, calls and memos have no splice."""
    info = analyse_source(item.source, None)
    assert analyse(info, item.summary, None, False).features["splice"] == 0.0


def test_joints_read_punctuation_between_words() -> None:
    """Punctuation (or markup) between two words is a joint; a space is not."""
    j = Joints.of("Budget, then hiring freeze.")
    assert j.tokens == ["budget", "then", "hiring", "freeze"]
    assert list(j.punct_before) == [1, 1, 0, 0]


def test_a_spliced_summary_names_the_signal_when_it_lowers_fluency() -> None:
    """Explanations name the splice signal in words when it pulls a score down."""
    text = drivers({"splice": -0.2}, {"splice": 0.5}, "en")
    assert "mid-clause" in text and "0.50" in text
    assert "tengah klausa" in drivers({"splice": -0.2}, {"splice": 0.5}, "id")
