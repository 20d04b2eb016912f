"""Consistency: are the summary's claims supported by the source, with nothing invented?"""

from __future__ import annotations

from ._base import ScoreMetric

CONSISTENCY = ScoreMetric(
    name="consistency",
    version="1",
    title="factual alignment with the source",
    definition=(
        "A consistent summary states only what the source supports. Every claim (who did or "
        "said what, numbers, dates, names, decisions, outcomes, negations) must be backed by "
        "the source. Anything added, altered or attributed to the wrong person counts as a "
        "hallucination, however plausible it sounds."
    ),
    steps=(
        "Split the summary into its individual factual claims.",
        "For each claim, find the passage in the source that supports it; check numbers, "
        "dates, names, speakers and negations exactly.",
        "List the claims that are contradicted by the source or have no support in it.",
        "Weigh how many and how serious the unsupported claims are.",
    ),
    rubric={
        3: "No hallucinations: every claim is supported by the source.",
        2: "Some hallucinations: one or a few claims are unsupported or wrong, but most of "
        "the summary is faithful.",
        1: "Hallucinations dominate: many or central claims are unsupported or contradict "
        "the source.",
    },
)
