"""Test and benchmark helpers for sumjudge (local fake servers; no network).

`FakeOpenAIServer` speaks OpenAI chat completions, Gemini `generateContent` and Anthropic
Messages on 127.0.0.1; `Reply` scripts its answers.
"""

from __future__ import annotations

from .replies import FAULTS, Reply, Responder, tokenize
from .schema_fill import response_schema
from .server import FakeOpenAIServer

__all__ = ["FAULTS", "FakeOpenAIServer", "Reply", "Responder", "response_schema", "tokenize"]
