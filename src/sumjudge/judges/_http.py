"""Helpers shared by the HTTP-based adapters."""

from __future__ import annotations

import email.utils
import os
import time
from collections.abc import Mapping
from typing import Any

from ..errors import MissingCredentialsError

__all__ = ["resolve_key", "retry_after_seconds"]


def retry_after_seconds(headers: Mapping[str, Any] | None) -> float | None:
    """Seconds to wait from `Retry-After-Ms` or `Retry-After` (delta or HTTP date).

    Returns None when the header is absent or unreadable.
    """
    if headers is None:
        return None
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            return max(0.0, float(value) * scale)
        except (TypeError, ValueError):
            if name == "retry-after" and (t := email.utils.parsedate_tz(str(value))) is not None:
                return max(0.0, email.utils.mktime_tz(t) - time.time())
    return None


def resolve_key(explicit: str | None, env_var: str, provider: str, *, required: bool = True) -> str:
    """The API key from the argument, else the environment; never logged."""
    if explicit:
        return explicit
    value = os.environ.get(env_var, "")
    if value:
        return value
    if required:
        raise MissingCredentialsError(provider, env_var)
    return ""
