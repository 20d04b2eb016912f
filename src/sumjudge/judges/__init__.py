"""Judges: the LLM providers and the offline judge, behind one protocol (`sumjudge.protocol`).

Other packages import from here, not from the underscore modules: `get_judge` (the
registry, `_registry`), `LOCAL_MODELS` (the offline judge's names; its backend lives
beside the offline scorer, in `sumjudge.offline.backend`) and `status_error` (an HTTP
status as our error, `_http`).
"""

from __future__ import annotations

from ..protocol import Judge, JudgeRequest, JudgeResponse, Message, TokenLogprob, Usage
from ._http import status_error
from ._registry import LOCAL_MODELS, available_providers, get_judge, register_provider
from .scripted import ScriptedJudge

__all__ = [
    "LOCAL_MODELS",
    "Judge",
    "JudgeRequest",
    "JudgeResponse",
    "Message",
    "ScriptedJudge",
    "TokenLogprob",
    "Usage",
    "available_providers",
    "get_judge",
    "register_provider",
    "status_error",
]
