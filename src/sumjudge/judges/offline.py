"""The offline judge, kept at its old import path: it lives in `sumjudge.offline.backend`.

The backend moved beside the offline scorer (issue 25) so that no judge imports the
metrics; this module only re-exports it, for code that imported it from here.
"""

from __future__ import annotations

from ..offline.backend import (
    NEEDS_LLM,
    OfflineJudge,
    StderrProgress,
    calibrated_offline_judge,
    load_scorer,
    offline_points,
)
from ._registry import LOCAL_MODELS

__all__ = [
    "LOCAL_MODELS",
    "NEEDS_LLM",
    "OfflineJudge",
    "StderrProgress",
    "calibrated_offline_judge",
    "load_scorer",
    "offline_points",
]
