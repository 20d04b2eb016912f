"""Judges: the LLM providers and the offline judge, behind one protocol (`sumjudge.protocol`)."""

from __future__ import annotations

from ..protocol import Judge, JudgeRequest, JudgeResponse, Message, TokenLogprob, Usage
from ._registry import available_providers, get_judge, register_provider
from .scripted import ScriptedJudge

__all__ = [
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
]
