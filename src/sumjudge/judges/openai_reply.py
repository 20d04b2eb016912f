"""Reading a chat-completions reply: the few fields a judge uses, from bytes or a dict.

A reply with logprobs is ~13 KB of JSON: ~36 tokens, each with five alternatives, and each
token and alternative with a `bytes` list nobody reads. Decoding it whole into dicts and
walking them for the fields we keep was the largest cost of a judged call after the
transport (docs/http.md). With msgspec installed (the `fast` extra), `read_bytes` decodes
the reply straight into typed records of only those fields (text, finish reason, usage,
model, each token's log-probability and alternatives), skipping the rest without
building it, in records the garbage collector does not track.

The result is the same as the dict path's (`read_dict`, which also reads a batch's
answers) or there is none: any reply off the typed form (a value of another type, a
missing field, a number out of range, text that is not UTF-8 JSON, no choices) gives
None, and the caller reads it with `fastjson.loads` and `read_dict`, which decide as they
always did, errors included. Where both accept a reply, their values are equal and of
the same types (tests/unit/test_openai_reply.py); log-probabilities written as integers
become floats on both.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from operator import attrgetter, itemgetter
from types import GenericAlias
from typing import Annotated, Any, NamedTuple

from ..errors import TransientProviderError
from ..logprobs import float_pairs, token_logprobs
from ..protocol import TokenLogprob, Usage

__all__ = ["TYPED", "ChatReply", "read_bytes", "read_dict"]


class ChatReply(NamedTuple):
    """What a judge keeps of a chat-completions reply.

    Attributes:
        text: the first choice's message content ("" when absent).
        finish_reason: as sent ("stop" when absent).
        usage: the token counts (zero when absent).
        logprobs: the first choice's token logprobs; None when the reply has none (or
            they were not asked for).
        model: the model the reply names, or None.
    """

    text: Any
    finish_reason: Any
    usage: Usage
    logprobs: tuple[TokenLogprob, ...] | None
    model: Any


def read_dict(data: Any, logprobs: bool) -> ChatReply:
    """The reply decoded as JSON (`fastjson.loads`), read; `logprobs`: whether to read them.

    Raises:
        TransientProviderError: the reply has no choices.
    """
    choices = data.get("choices") if isinstance(data, dict) else None
    if not choices:
        raise TransientProviderError("the server returned no choices")
    choice = choices[0]
    text = (choice.get("message") or {}).get("content") or ""
    finish = choice.get("finish_reason") or "stop"
    usage = Usage()
    u = data.get("usage")
    if isinstance(u, dict):
        details = u.get("prompt_tokens_details") or {}
        usage = Usage(
            prompt_tokens=int(u.get("prompt_tokens") or 0),
            completion_tokens=int(u.get("completion_tokens") or 0),
            cached_prompt_tokens=int(details.get("cached_tokens") or 0),
            cache_write_tokens=int(details.get("cache_write_tokens") or 0),
        )
    tokens: tuple[TokenLogprob, ...] | None = None
    if logprobs:
        content = (choice.get("logprobs") or {}).get("content")
        if content:
            tokens = _token_logprobs(content)
    return ChatReply(text, finish, usage, tokens, data.get("model"))


def _token_logprobs(content: list[Any]) -> tuple[TokenLogprob, ...]:
    """A reply's `logprobs.content` as `TokenLogprob`s, log-probabilities as floats.

    ~30 tokens x 5 alternatives per reply: each alternative's (token, logprob) is taken
    by `itemgetter` in C, and converted by `float()` only when some value is not a float
    already (`float_pairs`).
    """
    tops = float_pairs([tuple(map(_ALTERNATIVE, t.get("top_logprobs") or ())) for t in content])
    pairs = zip(content, tops, strict=True)
    return token_logprobs([(t["token"], float(t["logprob"]), top) for t, top in pairs])


_ALTERNATIVE = itemgetter("token", "logprob")


def _typed_decoders() -> tuple[Callable[[bytes], Any], Callable[[bytes], Any], type[Exception]]:
    """The typed decoders of a reply (with and without logprobs), and msgspec's error.

    The records are made with `defstruct`, not class statements, so that type checkers
    need not have the optional package. `gc=False`: decoded JSON is a tree, so these
    records can never be part of a reference cycle, msgspec's documented condition for
    leaving them untracked by the garbage collector.

    Raises:
        ImportError: msgspec is not installed.
    """
    msgspec = importlib.import_module("msgspec")

    def record(name: str, fields: list[tuple[str, Any] | tuple[str, Any, Any]]) -> Any:
        return msgspec.defstruct(name, fields, gc=False)

    def optional(kind: Any) -> Any:
        return kind | None

    def list_of(kind: Any) -> Any:
        return GenericAlias(list, (kind,))  # list[kind], spelled for type checkers

    alternative = record("Alternative", [("token", str), ("logprob", float)])
    token = record(
        "Token",
        [
            ("token", str),
            ("logprob", float),
            ("top_logprobs", optional(list_of(alternative)), None),
        ],
    )
    content = record("Logprobs", [("content", optional(list_of(token)), None)])
    message = record("Message", [("content", optional(str), None)])
    # fastjson.loads (orjson) reads an integer beyond 64 bits as a float: left to it
    count = optional(Annotated[int, msgspec.Meta(ge=-(2**63), le=2**63 - 1)])
    details = record(
        "Details", [("cached_tokens", count, None), ("cache_write_tokens", count, None)]
    )
    usage = record(
        "Usage",
        [
            ("prompt_tokens", count, None),
            ("completion_tokens", count, None),
            ("prompt_tokens_details", optional(details), None),
        ],
    )

    def reply(with_logprobs: bool) -> Callable[[bytes], Any]:
        choice: list[tuple[str, Any] | tuple[str, Any, Any]] = [
            ("message", optional(message), None),
            ("finish_reason", optional(str), None),
        ]
        if with_logprobs:
            choice.append(("logprobs", optional(content), None))
        fields: list[tuple[str, Any] | tuple[str, Any, Any]] = [
            ("choices", optional(list_of(record("Choice", choice))), None),
            ("usage", optional(usage), None),
            ("model", optional(str), None),
        ]
        decode: Callable[[bytes], Any] = msgspec.json.Decoder(record("Reply", fields)).decode
        return decode

    return reply(True), reply(False), msgspec.DecodeError


try:
    _WITH_LOGPROBS, _WITHOUT_LOGPROBS, _DecodeError = _typed_decoders()
except ImportError:  # the optional extra is not installed: every reply goes through dicts
    TYPED = False
else:
    TYPED = True
"""Whether msgspec reads replies (`read_bytes`), for benchmarks and reports."""


def read_bytes(content: bytes, logprobs: bool) -> ChatReply | None:
    """The reply read straight from its bytes by msgspec; None: read it with `read_dict`.

    None when msgspec is not installed, and for any reply off the typed form (see the
    module docstring), so that `read_dict` decides what it means.
    """
    if not TYPED:
        return None
    try:
        data = (_WITH_LOGPROBS if logprobs else _WITHOUT_LOGPROBS)(content)
    except _DecodeError:  # msgspec.ValidationError too (a subclass)
        return None
    if not data.choices:
        return None  # read_dict raises the error for it
    choice = data.choices[0]
    text = (choice.message.content if choice.message is not None else None) or ""
    usage = Usage()
    u = data.usage
    if u is not None:
        details = u.prompt_tokens_details
        usage = Usage(
            prompt_tokens=u.prompt_tokens or 0,
            completion_tokens=u.completion_tokens or 0,
            cached_prompt_tokens=(details.cached_tokens if details else None) or 0,
            cache_write_tokens=(details.cache_write_tokens if details else None) or 0,
        )
    tokens: tuple[TokenLogprob, ...] | None = None
    if logprobs and choice.logprobs is not None and choice.logprobs.content:
        tokens = token_logprobs(
            [
                (t.token, t.logprob, tuple(map(_TYPED_ALTERNATIVE, t.top_logprobs or ())))
                for t in choice.logprobs.content
            ]
        )
    return ChatReply(text, choice.finish_reason or "stop", usage, tokens, data.model)


_TYPED_ALTERNATIVE = attrgetter("token", "logprob")
