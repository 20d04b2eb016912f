"""Coherence: is the summary logically organised, with clear links between its parts?"""

from __future__ import annotations

from ._base import ScoreMetric

COHERENCE = ScoreMetric(
    name="coherence",
    version="2",
    title="logical organisation and flow",
    definition=(
        "A coherent summary reads as one organised whole: its parts come in a sensible "
        "order, each sentence or section follows from what precedes it, and related points "
        "are grouped and linked rather than scattered. Judge the structure and connections, "
        "not factual accuracy or grammar."
    ),
    steps=(
        "Read the source to learn its main topics and the order in which they matter.",
        "Read the summary and outline its structure: its sections or its run of sentences.",
        "Look for abrupt jumps, points placed out of context, contradictions between parts, "
        "dangling references and sections that do not connect to the rest.",
        "Decide how much these breaks disturb a reader following the summary.",
    ),
    rubric={
        3: "Fully coherent: logically organised, smooth flow, clear links throughout.",
        2: "Mostly coherent: the overall structure holds but some parts are disconnected "
        "or out of place.",
        1: "Fragmented: the flow is broken and the parts do not form an organised whole.",
    },
)
