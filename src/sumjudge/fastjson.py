"""JSON on the hot path: with orjson when it is installed, else the standard library.

A judged call decodes the provider's reply (~12 KB with logprobs: ~150 us with `json`,
its largest cost after the transport, docs/http.md) and, on a cache hit, the stored
value. orjson decodes the same text 3-4x faster. It is optional (`pip install
'sumjudge[fast]'`); nothing else changes when it is absent.

What is read stays what `json.loads` reads: any text orjson refuses (NaN and Infinity,
lone surrogates, encodings other than UTF-8) goes through `json.loads`, which decodes it
or raises its own `ValueError`. Where both accept a text they give the same values, with
one difference: orjson reads an integer beyond 64 bits as a float; no field we read from
a reply or a cache value holds one.

Encoding (`dumps`) is for texts that are read back, never hashed: a request's body and
the response cache's values. orjson writes them 5-10x faster; its text may spell a value
differently (a float as 0.00001 where `json` writes 1e-05) but reads back to the same
values, with one exception, non-finite floats, which orjson writes as null. So orjson's
text is taken only when it holds no null at all; any other text is written by `json`.
Cache keys hash `json`'s exact text and keep using it (`protocol.py`).

The same extra brings msgspec, whose typed decoders read a text straight into the few
fields we keep; they live where that shape is known (`judges/openai_reply.py` for an
OpenAI reply, `cache.read_typed` for a stored value), and hand anything off their form
back to `loads`.
"""

from __future__ import annotations

import functools
import importlib
import json
from collections.abc import Callable
from typing import Any

__all__ = ["FAST", "dumps", "loads"]

_fast: Callable[[bytes | str], Any] | None
_fast_dumps: Callable[[Any], bytes] | None
try:  # imported by name: type checkers need not have the optional package
    _orjson = importlib.import_module("orjson")
    _fast = _orjson.loads
    # Dataclasses, datetimes and subclasses of str, int, dict and list are left to `json`,
    # as it writes them (or refuses them), not as orjson would.
    _fast_dumps = functools.partial(
        _orjson.dumps,
        option=_orjson.OPT_PASSTHROUGH_DATACLASS
        | _orjson.OPT_PASSTHROUGH_DATETIME
        | _orjson.OPT_PASSTHROUGH_SUBCLASS,
    )
except ImportError:  # the optional extra is not installed
    _fast = _fast_dumps = None

# json.dumps(value, ensure_ascii=False, separators=(",", ":")) without building an encoder
# per call or recording every list and dict it enters to detect cycles (values are trees)
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)

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


def dumps(value: Any) -> bytes:
    """`json.dumps(value, ensure_ascii=False, separators=(",", ":"))` as UTF-8, or the same values.

    orjson's bytes when it is installed, can write `value` and wrote no null (a null may
    stand for a non-finite float, which `json` writes as NaN or Infinity); else the
    standard library's text, encoded. What orjson cannot write (an integer beyond 64 bits,
    a key that is not a string, a lone surrogate, a type it leaves to `json`) goes to
    `json` too, which writes it or raises as it always did. (orjson also writes enums and
    UUIDs, which `json` refuses; no body or cache value holds one.)

    Raises:
        TypeError, ValueError: `json` cannot write `value`.
        UnicodeEncodeError: `value` holds a lone surrogate (no UTF-8 for it).
    """
    if _fast_dumps is not None:
        try:
            data = _fast_dumps(value)
        except TypeError:  # orjson.JSONEncodeError
            pass
        else:
            if b"null" not in data:
                return data
    return _COMPACT.encode(value).encode("utf-8")
