"""Fluency: is the summary's language clear, grammatical and natural?"""

from __future__ import annotations

from ._base import ScoreMetric

FLUENCY = ScoreMetric(
    name="fluency",
    version="3",
    title="readability, grammar and clarity of the language",
    definition=(
        "the language is clear, natural and grammatical and reads easily, judged in the "
        "summary's own language: grammar, word choice, broken or repeated phrases, garbled "
        "passages, punctuation. Not facts or coverage."
    ),
    steps=(
        "Read the summary sentence by sentence.",
        "Note grammatical errors, awkward or unnatural wording, broken or unfinished "
        "sentences, repeated phrases and unclear passages.",
        "Decide how much these problems hinder reading.",
    ),
    rubric={
        3: "Clear and natural language, no noticeable problems.",
        2: "Minor language issues that reduce naturalness, not understanding.",
        1: "Major readability problems: garbled, broken or hard to understand.",
    },
)
