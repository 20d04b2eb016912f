"""Relevance: does the summary capture the source's important content, and stay focused?"""

from __future__ import annotations

from ._base import ScoreMetric

RELEVANCE = ScoreMetric(
    name="relevance",
    version="3",
    title="complete and focused coverage of what matters",
    definition=(
        "it carries the source's important information (main topics, decisions, "
        "outcomes, action items with owners and dates) and leaves out what is minor. "
        "Missing key content and space spent on trivia both lower it."
    ),
    steps=(
        "Read the source and list its key points: what a reader who missed it must know.",
        "Check which key points the summary covers, and how accurately in emphasis.",
        "Note key points that are missing and content that is unimportant or redundant.",
        "Decide how complete and how focused the summary is overall.",
    ),
    rubric={
        3: "Complete and focused: every key point, no significant filler.",
        2: "Partial coverage: some key points missing or diluted by minor details.",
        1: "Major omissions: most key points missing, or off-focus.",
    },
)
