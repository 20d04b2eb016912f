"""Token estimates, and whether an item's requests fit the judge's context window.

Before an item is judged, every request it would send is measured with the rough token
estimator. If any request plus its reply budget exceeds the judge's context window, the
item either fails with a clear error stating the window and the size (default), or, with
`long_source="chunked"`, is judged by the chunked strategy (`evaluators/longsource.py`).
Nothing is ever cut silently.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .protocol import JudgeRequest

__all__ = [
    "CHARS_PER_TOKEN",
    "ContextFit",
    "check_context",
    "estimate_prompt_tokens",
    "estimate_tokens",
]

CHARS_PER_TOKEN = 4.0


def estimate_tokens(text: str) -> int:
    """A rough token count: one token per 4 characters (real tokenizers vary +-25%)."""
    return max(1, math.ceil(len(text) / CHARS_PER_TOKEN)) if text else 0


def estimate_prompt_tokens(request: JudgeRequest) -> int:
    """`estimate_tokens(request.prompt_text())`, counted without joining the text."""
    parts = [len(p) for m in request.messages for p in m.parts]
    chars = sum(parts) + max(len(request.messages) - 1, 0)  # prompt_text joins with newlines
    return max(1, math.ceil(chars / CHARS_PER_TOKEN)) if chars else 0


@dataclass(frozen=True)
class ContextFit:
    """How the largest request of an item compares with the judge's window."""

    fits: bool
    needed_tokens: int
    prompt_tokens: int
    reply_tokens: int
    window: int | None
    source_tokens: int

    def message(self, judge: str) -> str:
        """The item's error when it does not fit, naming the judge, window and sizes."""
        return (
            f"the source does not fit {judge}'s context window: the largest request needs "
            f"~{self.needed_tokens} tokens (prompt ~{self.prompt_tokens}, of which the source "
            f"~{self.source_tokens}, plus up to {self.reply_tokens} for the reply) but the "
            f"window is {self.window} tokens. sumjudge never truncates the source: judge it by "
            'parts with --long-source chunked (long_source="chunked" in the API), use a judge '
            "with a larger window, or set its window with --context-window if our table is out "
            "of date. Token counts are estimates (~4 characters per token)."
        )

    def to_dict(self) -> dict[str, object]:
        """The record's `meta.context` entry for a source judged whole (or not at all)."""
        return {
            "strategy": "whole_source",
            "context_window": self.window,
            "estimated_request_tokens": self.needed_tokens,
            "source_seen_fraction": 1.0 if self.fits else 0.0,
        }


def check_context(requests: Sequence[JudgeRequest], window: int | None, source: str) -> ContextFit:
    """Whether every request fits `window` (None: unknown window, assumed to fit)."""
    prompt = max((estimate_prompt_tokens(r) for r in requests), default=0)
    reply = max((r.max_tokens for r in requests), default=0)
    needed = prompt + reply
    return ContextFit(
        fits=window is None or needed <= window,
        needed_tokens=needed,
        prompt_tokens=prompt,
        reply_tokens=reply,
        window=window,
        source_tokens=estimate_tokens(source),
    )
