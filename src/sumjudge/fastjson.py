"""Decoding JSON on the hot path: with orjson when it is installed, else the standard library.

A judged call decodes the provider's reply (~12 KB with logprobs: ~150 us with `json`,
its largest cost after the transport, docs/http.md) and, on a cache hit, the stored
value. orjson decodes the same text 3-4x faster. It is optional (`pip install
'sumjudge[fast]'`); nothing else changes when it is absent.

What is read stays what `json.loads` reads: any text orjson refuses (NaN and Infinity,
lone surrogates, encodings other than UTF-8) goes through `json.loads`, which decodes it
or raises its own `ValueError`. Where both accept a text they give the same values, with
one difference: orjson reads an integer beyond 64 bits as a float; no field we read from
a reply or a cache value holds one.

Encoding stays with `json` everywhere: the cache keys hash its exact text, and orjson
would write infinite floats as null.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from typing import Any

__all__ = ["FAST", "loads"]

_fast: Callable[[bytes | str], Any] | None
try:  # imported by name: type checkers need not have the optional package
    _fast = importlib.import_module("orjson").loads
except ImportError:  # the optional extra is not installed
    _fast = None

FAST = _fast is not None
"""Whether orjson decodes (for benchmarks and reports)."""


def loads(data: bytes | str) -> Any:
    """`json.loads(data)`, by orjson when it is installed and accepts `data`."""
    if _fast is not None:
        try:
            return _fast(data)
        except ValueError:  # orjson.JSONDecodeError: let the standard library decide
            pass
    return json.loads(data)
