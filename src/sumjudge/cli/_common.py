"""Pieces shared by the subcommands: judge choice, output, error reporting."""

from __future__ import annotations

import os
import sys
from typing import TextIO

__all__ = ["EXIT_CONFIG", "EXIT_ITEM_ERRORS", "EXIT_OK", "choose_model", "eprint"]

EXIT_OK = 0
EXIT_CONFIG = 2
EXIT_ITEM_ERRORS = 3

_KEYED_DEFAULTS = (
    ("GOOGLE_API_KEY", "google/gemini-2.5-flash"),
    ("OPENAI_API_KEY", "openai/gpt-4o-mini"),
    ("ANTHROPIC_API_KEY", "anthropic/claude-haiku-4-5"),
)


def eprint(*parts: object, file: TextIO | None = None) -> None:
    print(*parts, file=file or sys.stderr, flush=True)


def choose_model(explicit: str | None, base_url: str | None) -> str:
    """The judge to use when --model is not given, announced on stderr.

    First judge whose key is present (Google, then OpenAI, then Anthropic), else the
    offline judge. With --base-url and no --model, the server's own default model is used
    through the OpenAI protocol.
    """
    if explicit:
        return explicit
    if base_url:
        model = "openai/default"
        eprint(f"sumjudge: judging with {model} at {base_url} (pick another with --model)")
        return model
    for env_var, model in _KEYED_DEFAULTS:
        if os.environ.get(env_var):
            eprint(
                f"sumjudge: judging with {model} because {env_var} is set "
                "(pick another with --model, e.g. --model local for the offline judge)"
            )
            return model
    eprint(
        "sumjudge: no API key found (GOOGLE_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY); "
        "judging with the offline judge 'local' (pick another with --model provider/model)"
    )
    return "local"
