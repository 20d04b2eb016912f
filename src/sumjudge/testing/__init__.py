"""Test and benchmark helpers for sumjudge (local fake servers; no network).

`FakeOpenAIServer` speaks OpenAI chat completions, Gemini `generateContent` and Anthropic
Messages on 127.0.0.1; `Reply` scripts its answers.

These helpers need aiohttp (`pip install 'sumjudge[testing]'`). Without it, importing
`sumjudge.testing` (or any module in it) raises `sumjudge.errors.MissingDependencyError`
naming the extra, at import time, since every helper here needs it. The error is also
a `ModuleNotFoundError`, so `pytest.importorskip` and `except ImportError` still treat the
helpers as absent.
"""

from __future__ import annotations

from ..errors import MissingDependencyError


class _MissingAiohttpError(MissingDependencyError, ModuleNotFoundError):
    """aiohttp is not installed; the `testing` extra provides it."""


try:
    import aiohttp  # noqa: F401  # checked here once for every module of the package
except ImportError as exc:
    missing = _MissingAiohttpError("aiohttp", "testing")
    missing.name = "aiohttp"
    raise missing from exc

from .replies import FAULTS, Reply, Responder, tokenize  # noqa: E402
from .schema_fill import response_schema  # noqa: E402
from .server import FakeOpenAIServer  # noqa: E402

__all__ = ["FAULTS", "FakeOpenAIServer", "Reply", "Responder", "response_schema", "tokenize"]
