"""Importance-weighted semantic coverage of a source (`wcov`), read alike for prose and speech.

A source unit counts as covered by how closely the summary's best sentence restates it:
the cosine mapped linearly from COS_LO (0) to COS_HI (1). Transcripts differ from prose in
two ways that used to make a faithful call summary look incomplete ("covers only 62% of
the weighted source content"), and both are read here as omissions are read:

- turns are speech: a report restates them in the third person and never copies them, so
  its sentences sit further from their turns than a news summary from its article. In a
  dialogue the ramp ends at how closely the summary restates the turns it restates best
  (the median of its sentences' best cosines, at most COS_HI): a turn restated as closely
  as that is covered;
- a question's content is its answer: a question turn counts as covered as far as the turn
  after it is (the rule that keeps it from being cited as left out). Turns too short to be
  cited as left out ("That's great, thank you.") weigh nothing (`source.CONTENT_TURN_WORDS`).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .embed import FloatArray
from .records import SourceInfo

# (the same mapping as the support of a sentence: `features.COS_LO`, `features.COS_HI`)
COS_LO, COS_HI = 0.78, 0.93


def weighted_coverage(
    info: SourceInfo, cos: FloatArray, weights: FloatArray, ids: Iterable[int] | None = None
) -> float:
    """The share of the source's weighted content the summary covers.

    Args:
        info: The analysed source.
        cos: The cosines of the summary's sentences (rows) to the source units (columns).
        weights: The units' weights (`SourceInfo.emb_weights`, summing to 1).
        ids: The units the columns are, when they are a sample of a long source
            (`SourceInfo.emb_unit_ids`); None: every unit, in order.

    Returns:
        0 (nothing covered) to 1.
    """
    best = cos.max(axis=0).astype(np.float64)
    lo, hi = COS_LO, COS_HI
    if info.dialogue:
        hi = min(COS_HI, float(np.median(cos.max(axis=1))))
        lo = hi - (COS_HI - COS_LO)
    covered = np.clip((best - lo) / (hi - lo), 0.0, 1.0)
    if info.dialogue:
        units = list(range(len(covered))) if ids is None else [int(i) for i in ids]
        column = {unit: col for col, unit in enumerate(units)}
        for col, unit in enumerate(units):
            answer = column.get(unit + 1)  # the next turn, when it is among the columns
            if answer is not None and info.units[unit].text.rstrip().endswith("?"):
                covered[col] = max(covered[col], covered[answer])
    return float(weights @ covered)
