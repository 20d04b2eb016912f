"""One offline scorer per worker process, kept across the tasks and batches it serves.

The offline judge's cost is mostly what its scorer keeps: the fitted models, the analysis
of every source it has read, the sentence embeddings (model `local`). Spark runs the
partitions' tasks one after another in Python workers that it keeps
(`spark.python.worker.reuse`, on by default), and a Ray actor lives for the whole job; a
scorer built per task would throw that away and read every source again. So the scorer
is built once per process and model, and each evaluator gets a fresh `OfflineJudge`
around it (the judge's own state belongs to one event loop; the scorer's is plain data
behind locks, which the evaluator's worker threads already share).

LLM judges are built per evaluator, as before: what they keep (HTTP connections) belongs
to the event loop that opened them, and building one is cheap. A calibration profile
builds its own offline judge (`evaluators/calibration.py`), so none is shared then.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

__all__ = ["judge_model"]

_SCORERS: dict[str, Any] = {}
_LOCK = threading.Lock()


def judge_model(model: str | tuple[str, ...], options: Mapping[str, Any]) -> tuple[Any, bool]:
    """What to pass an evaluator as `model`, and whether this process had built it already.

    The offline judges (`local`, `local-lexical`) come back as an `OfflineJudge` around
    this process's scorer for that model; anything else comes back unchanged (and False:
    nothing is kept).
    """
    from ..judges import LOCAL_MODELS
    from ..offline.backend import OfflineJudge, load_scorer

    if not isinstance(model, str) or model not in LOCAL_MODELS:
        return model, False
    if options.get("calibration") is not None:
        return model, False
    with _LOCK:
        scorer = _SCORERS.get(model)
        reused = scorer is not None
        if scorer is None:
            scorer = _SCORERS[model] = load_scorer(model)
    return OfflineJudge(model, scorer=scorer), reused
