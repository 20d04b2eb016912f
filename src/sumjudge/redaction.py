"""Keys never leave the process: the keys in use, and text with every trace of them removed.

A key enters the process through `resolve_key` (an argument or the provider's environment
variable), which records it here; the CLI also records the keys of its environment
(`remember_env_keys`), so that every line it writes is redacted with `redact(text)`. Text
is redacted where it enters our code, before anything shortens it or stores it:

- a provider's error text, in the adapters, before it is cut to a readable length (a
  whole key past the cut would otherwise survive as a fragment);
- every reply, in the runner, before a reader sees it and before it is cached (a server
  that echoes the Authorization header must not put the key in the cache, where a later
  keyless run would copy it into its output);
- every line the CLI writes, as a last net.

Redaction removes the whole key and also every fragment of 8 or more characters of it:
a message cut in the middle of a key, or a key split across a line, still shows nothing
usable. Fragments shorter than 8 characters are left: they are too common in ordinary
text ("sk-", "api") and too short to guess the rest from. For the same reason a "key"
under 8 characters (a local server's placeholder such as "k" or "none") is not treated
as a secret: removing it would cut every "k" out of the text.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterable
from dataclasses import replace
from typing import TypeVar

from .protocol import JudgeResponse

E = TypeVar("E", bound=BaseException)

__all__ = [
    "KEY_ENV_VARS",
    "MIN_FRAGMENT",
    "REDACTED",
    "forget_keys",
    "known_keys",
    "redact",
    "redact_error",
    "redact_response",
    "remember_env_keys",
    "remember_key",
]

#: The shortest run of a key's characters that is removed wherever it appears.
MIN_FRAGMENT = 8
#: What a removed key or fragment is replaced with.
REDACTED = "[REDACTED]"
#: The providers' key variables, whose values `remember_env_keys` records.
KEY_ENV_VARS = ("OPENAI_API_KEY", "GOOGLE_API_KEY", "GEMINI_API_KEY", "ANTHROPIC_API_KEY")

_lock = threading.Lock()
_keys: set[str] = set()
# Rebuilt when the set of keys changes: the 8-character windows of every key, and a
# pattern that finds the runs of text made only of characters that occur in some key
# (any fragment of a key lies inside such a run, so only those runs are examined).
_grams: frozenset[str] = frozenset()
_runs: re.Pattern[str] | None = None


def remember_key(key: str | None) -> None:
    """Record `key` as in use, so that `redact` removes it (keys of 8 characters or more)."""
    global _grams, _runs
    if not key or len(key) < MIN_FRAGMENT or key in _keys:
        return
    with _lock:
        _keys.add(key)
        _grams, _runs = _index(_keys)


def remember_env_keys() -> None:
    """Record the keys set in the environment (`KEY_ENV_VARS`) as in use."""
    for name in KEY_ENV_VARS:
        remember_key(os.environ.get(name))


def forget_keys() -> None:
    """Forget every recorded key (for tests)."""
    global _grams, _runs
    with _lock:
        _keys.clear()
        _grams, _runs = frozenset(), None


def known_keys() -> frozenset[str]:
    """The keys recorded so far."""
    return frozenset(_keys)


def redact(text: str, extra: Iterable[str] = ()) -> str:
    """`text` without any key in use, whole or as a fragment of 8 or more characters.

    Args:
        text: The text to clean.
        extra: More keys to remove, besides the recorded ones (not recorded).

    Returns:
        `text` with each key, and each run of 8 or more characters that is part of a
        key, replaced by `[REDACTED]` (overlapping runs become one).
    """
    extra = [k for k in extra if len(k) >= MIN_FRAGMENT and k not in _keys]
    grams, runs = (_grams, _runs) if not extra else _index(_keys | set(extra))
    if runs is None or not text:
        return text
    spans: list[tuple[int, int]] = []
    for run in runs.finditer(text):
        start, end = run.span()
        i = start
        while i + MIN_FRAGMENT <= end:
            if text[i : i + MIN_FRAGMENT] in grams:
                # extend while consecutive windows are key windows too
                j = i + 1
                while j + MIN_FRAGMENT <= end and text[j : j + MIN_FRAGMENT] in grams:
                    j += 1
                stop = j - 1 + MIN_FRAGMENT
                if spans and spans[-1][1] >= i:
                    spans[-1] = (spans[-1][0], stop)
                else:
                    spans.append((i, stop))
                i = stop
            else:
                i += 1
    if not spans:
        return text
    parts: list[str] = []
    last = 0
    for start, stop in spans:
        parts.append(text[last:start])
        parts.append(REDACTED)
        last = stop
    parts.append(text[last:])
    return "".join(parts)


def redact_response(response: JudgeResponse) -> JudgeResponse:
    """`response` without any key in its text (`redaction`).

    A reply whose text held a key loses its token logprobs and provider-parsed JSON too:
    the tokens would spell the key out in the cache, one piece per token.
    """
    clean = redact(response.text)
    if clean == response.text:
        return response
    return replace(
        response,
        text=clean,
        parsed=None,
        logprobs=None,
        logprobs_note="dropped: the reply held a key",
    )


def redact_error(error: E) -> E:
    """`error` with any key removed from its message (its type and fields kept)."""
    message = str(error)
    clean = redact(message)
    if clean != message:
        error.args = (clean, *error.args[1:])
    return error


def _index(keys: Iterable[str]) -> tuple[frozenset[str], re.Pattern[str] | None]:
    keys = [k for k in keys if k]
    if not keys:
        return frozenset(), None
    grams = frozenset(
        k[i : i + MIN_FRAGMENT] for k in keys for i in range(len(k) - MIN_FRAGMENT + 1)
    )
    chars = "".join(sorted({c for k in keys for c in k}))
    return grams, re.compile(f"[{re.escape(chars)}]{{{MIN_FRAGMENT},}}")
