"""Fluency: is the summary's language clear, grammatical and natural?"""

from __future__ import annotations

from ._base import ScoreMetric

FLUENCY = ScoreMetric(
    name="fluency",
    version="2",
    title="readability, grammar and clarity of the language",
    definition=(
        "A fluent summary is written in clear, natural, grammatical language that reads "
        "easily. Judge the language only, in the summary's own language: grammar, word "
        "choice, broken or repeated phrases, garbled passages and punctuation. Do not "
        "judge factual accuracy or coverage here."
    ),
    steps=(
        "Read the summary sentence by sentence.",
        "Note grammatical errors, awkward or unnatural wording, broken or unfinished "
        "sentences, repeated phrases and unclear passages.",
        "Decide how much these problems hinder reading.",
    ),
    rubric={
        3: "Clear and natural language with no noticeable problems.",
        2: "Minor language issues that slightly reduce naturalness but not understanding.",
        1: "Major readability problems: garbled, broken or hard-to-understand text.",
    },
)
