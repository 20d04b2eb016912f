"""Closeness of summary sentences to their best source passage, as the raw cosine.

`esup_mean` maps each sentence's best cosine onto 0..1 support and stops at 1 from 0.93 on
("fully supported"): right for evidence and explanations, but one summary in nine of the
dialogue dev sets then ties at the top, whatever else is in it. The dialogue consistency
combination ranks summaries, so it uses the cosine itself: the same comparison (windows of
1-3 turns and the single sentences of long turns) without the ceiling.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .embed import FloatArray


def closeness_features(sims: FloatArray, parts: Sequence[float | None]) -> dict[str, float]:
    """`ecos_mean`: the mean over sentences of the best cosine to a window or a single sentence.

    Args:
        sims: Cosines of each summary sentence (rows) to every source window.
        parts: Each sentence's best cosine to a single sentence of a long turn (None when
            the source has none).
    """
    best = [
        max(float(row.max()), part if part is not None else -1.0)
        for row, part in zip(sims, parts, strict=True)
    ]
    return {"ecos_mean": float(np.mean(best))}
