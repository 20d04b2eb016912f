"""Who a summary sentence is about: pronoun subjects for the swap check, names listed twice."""

from __future__ import annotations

import numpy as np
import pytest

from sumjudge.offline import OfflineScorer
from sumjudge.offline.closeness import closeness_features
from sumjudge.offline.dialogue import Person
from sumjudge.offline.mentions import listed_twice, pronoun_subjects

PEOPLE = [(p.name, p.pattern()) for p in (Person("Sam", ""), Person("Lia", ""))]


def test_a_pronoun_subject_is_the_previous_sentence_s_first_person() -> None:
    texts = ["Sam wants the white earphones.", "He will collect them from Lia.", "She's happy."]
    assert pronoun_subjects(texts, PEOPLE) == [
        None,
        "Sam will collect them from Lia.",
        "Lia's happy.",
    ]


@pytest.mark.parametrize(
    "texts",
    [
        ["Sam wants the earphones.", "Then he collects them."],  # not the opening word
        ["The earphones are white.", "He collects them."],  # nobody named before
        ["Sam wants the earphones.", "Here they are."],  # "He" inside another word
        ["He wants the earphones."],  # no previous sentence
    ],
)
def test_no_pronoun_subject_is_invented(texts: list[str]) -> None:
    assert pronoun_subjects(texts, PEOPLE) == [None] * len(texts)


@pytest.mark.parametrize(
    ("sentence", "name"),
    [
        ("Jake informs Nadia, Vanessa and Vanessa that there is no English today.", "Vanessa"),
        ("Mark, Clint, Phil and Phil are going.", "Phil"),
        ("Mark, Julia, Anna, George, and George will meet.", "George"),
    ],
)
def test_a_name_listed_twice_is_found(sentence: str, name: str) -> None:
    assert listed_twice(sentence) == name


@pytest.mark.parametrize(
    "sentence",
    [
        "Frank loves Hope and Hope loves Frank.",  # two clauses, not one list
        "Tom, Anna and Tom's wife came.",  # a possessive is another person
        "Nadia, Vanessa and Jake will go.",
        "Ann and Ann's mother will go.",
    ],
)
def test_ordinary_lists_are_not_flagged(sentence: str) -> None:
    assert listed_twice(sentence) == ""


def test_closeness_is_the_best_cosine_without_a_ceiling() -> None:
    sims = np.array([[0.5, 0.97], [0.80, 0.81]], dtype=np.float32)
    feats = closeness_features(sims, [None, 0.9])
    assert feats["ecos_mean"] == pytest.approx((0.97 + 0.9) / 2)


def test_a_name_listed_twice_is_evidence() -> None:
    source = (
        "Jake: no English today, Smith called in sick\nNadia: yay\nVanessa: great\n"
        "Jake: tell the others"
    )
    summary = "Jake informs Nadia, Vanessa and Vanessa that they don't have English today."
    scorer = OfflineScorer(use_embeddings=False)
    result = scorer.score(source, summary, ("consistency",))["consistency"]
    assert any('"Vanessa" twice' in e for e in result.evidence)
    fixed = summary.replace("Vanessa and Vanessa", "Vanessa and the others")
    clean = scorer.score(source, fixed, ("consistency",))["consistency"]
    assert not any("twice" in e for e in clean.evidence)
