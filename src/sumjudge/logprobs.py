"""Token log-probabilities: `TokenLogprob`, and building many of them fast.

A reply with logprobs has ~30 tokens with ~5 alternatives each, read from every reply
(the adapters) and every cache hit (`JudgeResponse.from_dict`): building them was one of
the largest costs of a judged call after the transport (docs/http.md). This module
imports nothing of ours; `protocol` re-exports it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import chain
from operator import itemgetter
from typing import Any

__all__ = ["TokenLogprob", "float_pairs", "stored_logprobs", "token_logprobs"]


@dataclass(frozen=True)
class TokenLogprob:
    """One generated token with its log-probability and the top alternatives."""

    token: str
    logprob: float
    top: tuple[tuple[str, float], ...] = ()


_new = object.__new__
_set = object.__setattr__


def token_logprobs(
    tokens: Iterable[tuple[str, float, tuple[tuple[str, float], ...]]],
) -> tuple[TokenLogprob, ...]:
    """`tuple(TokenLogprob(*t) for t in tokens)`, made at twice the speed.

    A frozen dataclass's `__init__` sets each field through `object.__setattr__` behind
    a generated wrapper; a reply has ~30 tokens, read from every reply and every cache
    hit, so the fields are set by `object.__setattr__` directly. (Not through the
    object's `__dict__`: asking for it makes CPython 3.11+ build a dict per object, which
    the object otherwise does without: a third more memory, and one more object for the
    garbage collector to track.) The objects are the same in every way (fields,
    equality, hash, repr); the caller gives the fields their types.
    """
    made: list[TokenLogprob] = []
    for token, logprob, top in tokens:
        one = _new(TokenLogprob)
        _set(one, "token", token)
        _set(one, "logprob", logprob)
        _set(one, "top", top)
        made.append(one)
    return tuple(made)


def float_pairs(tops: list[tuple[tuple[Any, Any], ...]]) -> list[tuple[tuple[Any, float], ...]]:
    """Each top-alternatives tuple with float log-probabilities (a JSON `-4` is an int).

    Checked in one pass over them all; only when some value is not a float yet is every
    pair rebuilt with `float()` (which raises on what is not a number, as it always did).
    """
    kinds = set(map(type, map(_SECOND, chain.from_iterable(tops))))
    if kinds <= {float}:
        return tops
    return [tuple([(a, float(lp)) for a, lp in top]) for top in tops]


_SECOND = itemgetter(1)


def stored_logprobs(rows: list[Any]) -> tuple[TokenLogprob, ...]:
    """`to_dict`'s logprob rows ([token, logprob, [[alternative, logprob], ...]]) as objects.

    Tokens and alternatives are made strings, log-probabilities floats, as they always
    were; what is already of its type (all of it, in the values we write) is not
    converted again, which a cache hit would otherwise pay ~200 times.
    """
    tops = [tuple(map(_PAIR, row[2])) for row in rows]
    if not set(map(type, map(_FIRST, chain.from_iterable(tops)))) <= {str}:
        tops = [tuple([(str(a), lp) for a, lp in top]) for top in tops]
    tops = float_pairs(tops)
    pairs = zip(rows, tops, strict=True)
    return token_logprobs([(row[0], float(row[1]), top) for row, top in pairs])


_FIRST = itemgetter(0)
_PAIR = itemgetter(0, 1)
