"""Coherence: is the summary logically organised, with clear links between its parts?"""

from __future__ import annotations

from ._base import ScoreMetric

COHERENCE = ScoreMetric(
    name="coherence",
    version="3",
    title="logical organisation and flow",
    definition=(
        "its parts come in a sensible order, each follows from what precedes it, and "
        "related points are grouped and linked, not scattered. Judge structure and links "
        "only, not facts or grammar."
    ),
    steps=(
        "Read the source to learn its main topics and the order in which they matter.",
        "Read the summary and outline its structure: its sections or its run of sentences.",
        "Look for abrupt jumps, points placed out of context, contradictions between parts, "
        "dangling references and sections that do not connect to the rest.",
        "Decide how much these breaks disturb a reader following the summary.",
    ),
    rubric={
        3: "Fully coherent: organised, smooth, clearly linked throughout.",
        2: "Mostly coherent: the structure holds but some parts are disconnected.",
        1: "Fragmented: the parts do not form an organised whole.",
    },
)
