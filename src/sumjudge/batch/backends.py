"""Which batch backend serves a judge: the one place that knows every provider's module.

Kept apart from `provider.py` (the protocol and its value types, which every backend
imports) so that no backend module imports another through it.
"""

from __future__ import annotations

from ..errors import ConfigError
from ..protocol import Judge
from .provider import BatchBackend

__all__ = ["backend_for"]


def backend_for(judge: Judge) -> BatchBackend:
    """The batch backend of `judge`'s provider; `ConfigError` for a judge without one."""
    from ..judges.anthropic import AnthropicJudge
    from ..judges.google import GoogleJudge
    from ..judges.openai import OpenAIJudge

    if isinstance(judge, OpenAIJudge):
        from .openai import OpenAIBatches

        return OpenAIBatches(judge)
    if isinstance(judge, AnthropicJudge):
        from .anthropic import AnthropicBatches

        return AnthropicBatches(judge)
    if isinstance(judge, GoogleJudge):
        from .gemini import GeminiBatches

        return GeminiBatches(judge)
    raise ConfigError(
        f"--batch-api needs an openai/ (or OpenAI-compatible --base-url), anthropic/ or "
        f"google/ judge; {judge.name} has no batch endpoint"
    )
