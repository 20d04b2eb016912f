"""Wire types and the judge protocol: what crosses between sumjudge and a judge.

This module imports nothing of ours but `subjects` (a request's typed material) and
`logprobs` (`TokenLogprob` and its fast builders), whose types it re-exports, so every
layer (metrics, types, runner, judges) can depend on it without depending on each other.
Backends (OpenAI, Google, Anthropic, the offline judge, scripted) implement `Judge`.
Retries, caching and concurrency are the runner's business, never an adapter's: an
adapter makes exactly one provider call per `complete` and maps every failure onto
`sumjudge.errors`.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal, Protocol, TypeAlias, runtime_checkable

from .logprobs import TokenLogprob, stored_logprobs
from .subjects import PairSubject, ScoreSubject, Subject, TurnsSubject, subject_payload

__all__ = [
    "LLM_CAPABILITIES",
    "Capabilities",
    "Judge",
    "JudgeRequest",
    "JudgeResponse",
    "Message",
    "PairSubject",
    "RequestKind",
    "ScoreSubject",
    "Subject",
    "TokenLogprob",
    "TurnsSubject",
    "Usage",
]

RequestKind: TypeAlias = Literal[
    "score", "single_call", "accuracy", "questions", "rubric", "notes", "pairwise", "other"
]
"""What a request asks for, whatever its task string's version, layout or tags:

- "score": one 1-3 verdict (`{"explanation", "score"}`) of `ScoreSubject.metrics[0]`, in
  any layout (default, rubrics-first; sampled, calibrated or repaired alike);
- "single_call": one such verdict per metric of `ScoreSubject.metrics`, in one object;
- "accuracy": the conversation summary's points checked against its turns (`TurnsSubject`);
- "questions": numbered rubric questions about sections (adherence, completeness);
- "rubric": rubric questions generated from a section definition;
- "notes": key-point notes of one part of a long source;
- "pairwise": which of two summaries is better (`PairSubject`);
- "other": anything else (a plugin's request, a test's).
"""


@dataclass(frozen=True)
class Message:
    """One chat message.

    `parts` are concatenated to form the content. The boundaries between parts are where
    a provider may place prompt-cache breakpoints (Anthropic), so the stable prefix shared
    by every metric of one item goes into the first parts.
    """

    role: str
    parts: tuple[str, ...]

    @property
    def content(self) -> str:
        """The message text: its parts joined."""
        return "".join(self.parts)

    @classmethod
    def of(cls, role: str, content: str) -> Message:
        """A message of one part."""
        return cls(role=role, parts=(content,))


@dataclass(frozen=True)
class JudgeRequest:
    """Everything a judge needs for one call. With the judge's name it forms the cache key.

    Attributes:
        messages: the conversation, system message first if any (none: see subject).
        task: what the call is for, with its version ("coherence@1"); part of the cache key
            and a routing hint for scripted judges.
        schema: JSON schema the reply must follow, or None for free text.
        schema_name: a short identifier for the schema (some providers require one).
        temperature: sampling temperature; 0 for judging.
        max_tokens: cap on the reply length.
        logprobs: ask for token log-probabilities where the provider offers them.
        top_logprobs: how many alternatives per token.
        kind: what the request asks for (`RequestKind`), set by the metric that built
            it, so a backend that does not read the prompt dispatches on it rather than on
            the task string. Not part of the fingerprint (the task already says it).
        subject: the material being judged in structured form (`ScoreSubject`,
            `TurnsSubject`, `PairSubject`), for backends that judge without reading the
            prompt (the offline judge, whose requests have no messages). LLM adapters
            ignore it; only a request without messages is fingerprinted over it.
    """

    messages: tuple[Message, ...]
    task: str
    schema: dict[str, Any] | None = None
    schema_name: str = "verdict"
    temperature: float = 0.0
    max_tokens: int = 1024
    logprobs: bool = False
    top_logprobs: int = 5
    kind: RequestKind = field(default="other", compare=False)
    subject: Subject | None = field(default=None, compare=False, repr=False)

    def fingerprint(self) -> str:
        """A stable hash of the request's content (not of any credentials).

        The SHA-256 of `fingerprint_payload` written as sorted, compact JSON. Every metric
        of one item sends the same leading messages and parts (the source once), so the
        hash of everything before the last part is computed once and carried on
        (`_fingerprint`): the same digest as hashing the whole text anew.
        """
        return _fingerprint(self)

    def fingerprint_payload(self) -> dict[str, Any]:
        """What the fingerprint covers: messages, task, schema and sampling settings.

        Without messages the subject tells two items apart, so it joins them (only then).
        """
        payload = {
            "messages": [[m.role, list(m.parts)] for m in self.messages],
            "task": self.task,
            "schema": self.schema,
            "schema_name": self.schema_name,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "logprobs": self.logprobs,
            "top_logprobs": self.top_logprobs,
        }
        if not self.messages and self.subject is not None:
            payload["subject"] = subject_payload(self.subject)
        return payload

    def prompt_text(self) -> str:
        """All message text, for token estimates and logging."""
        return "\n".join(m.content for m in self.messages)


# json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":")), in pieces.
# No check for cycles (the same text; our values are trees): it records every list and dict
# it enters, a quarter of the encoding time of a reply's nested logprobs.
_SORTED = json.JSONEncoder(
    sort_keys=True, ensure_ascii=False, separators=(",", ":"), check_circular=False
)


def _fingerprint(request: JudgeRequest) -> str:
    """`request.fingerprint()`: the SHA-256 of its payload's sorted compact JSON.

    The JSON is written piece by piece, in the order `sort_keys` gives (logprobs,
    max_tokens, messages, schema, schema_name, task, temperature, top_logprobs), and the
    hash of everything up to the last message's last part is shared by the requests that
    have those bytes in common (`_head`). A request without a last part is hashed whole.
    """
    messages = request.messages
    if not messages or not messages[-1].parts:
        return _whole(request)
    last = messages[-1]
    try:
        head = _head(
            request.logprobs, request.max_tokens, messages[:-1], last.role, last.parts[:-1]
        )
    except TypeError:  # parts given as lists, not tuples: nothing hashable to share
        return _whole(request)
    digest = head.copy()
    # the keys after "messages", in sorted order: one small object, its brace dropped
    rest = _SORTED.encode(
        {
            "schema": request.schema,
            "schema_name": request.schema_name,
            "task": request.task,
            "temperature": request.temperature,
            "top_logprobs": request.top_logprobs,
        }
    )
    tail = f"{_SORTED.encode(last.parts[-1])}]]],{rest[1:]}"
    digest.update(tail.encode("utf-8"))
    hexdigest: str = digest.hexdigest()
    return hexdigest


def _whole(request: JudgeRequest) -> str:
    blob = _SORTED.encode(request.fingerprint_payload())
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


@functools.lru_cache(maxsize=16)  # an item's requests share it; a few items are in flight
def _head(
    logprobs: bool,
    max_tokens: int,
    messages: tuple[Message, ...],
    role: str,
    parts: tuple[str, ...],
) -> Any:
    """The hash state after the JSON up to the last message's last part (not copied)."""
    first = _SORTED.encode({"logprobs": logprobs, "max_tokens": max_tokens})
    text = [first[:-1] + ',"messages":[']
    for m in messages:
        text.append(f"[{_SORTED.encode(m.role)},[{','.join(map(_SORTED.encode, m.parts))}]],")
    text.append(f"[{_SORTED.encode(role)},[")
    text.extend(f"{_SORTED.encode(p)}," for p in parts)
    digest = hashlib.sha256()
    for piece in text:
        digest.update(piece.encode("utf-8"))
    return digest


@dataclass(frozen=True)
class Usage:
    """Token counts reported by the provider for one call."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_prompt_tokens: int = 0
    cache_write_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        # Spelled out, not via dataclasses.astuple: this runs for every call (hot path).
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.cached_prompt_tokens + other.cached_prompt_tokens,
            self.cache_write_tokens + other.cache_write_tokens,
        )

    def __sub__(self, other: Usage) -> Usage:
        """The counts since `other` (an earlier reading of the same counter)."""
        return Usage(
            self.prompt_tokens - other.prompt_tokens,
            self.completion_tokens - other.completion_tokens,
            self.cached_prompt_tokens - other.cached_prompt_tokens,
            self.cache_write_tokens - other.cache_write_tokens,
        )

    def to_dict(self) -> dict[str, int]:
        """The counts by field name (results and the cache store this)."""
        return {name: getattr(self, name) for name in _USAGE_FIELDS}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Usage:
        """From `to_dict`'s form; missing counts are 0."""
        return cls(*(int(data.get(name, 0)) for name in _USAGE_FIELDS))


_USAGE_FIELDS = tuple(f.name for f in fields(Usage))


@dataclass(frozen=True)
class JudgeResponse:
    """What a judge returned for one request.

    Attributes:
        text: the reply text as generated.
        parsed: JSON the provider already parsed (native structured output), if any.
        finish_reason: "stop", "length", ... as normalised by the adapter.
        usage: token counts.
        logprobs: per-token log-probabilities, or None when the provider gave none.
        logprobs_note: why logprobs are absent when they were asked for.
        latency_s: wall time of the provider call.
        model: the model that answered.
    """

    text: str
    parsed: Any = None
    finish_reason: str = "stop"
    usage: Usage = field(default_factory=Usage)
    logprobs: tuple[TokenLogprob, ...] | None = None
    logprobs_note: str | None = None
    latency_s: float = 0.0
    model: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form, as the response cache stores it (`to_json`)."""
        logprobs = self.logprobs
        return self._as_dict(
            None
            if logprobs is None
            else [[t.token, t.logprob, [list(a) for a in t.top]] for t in logprobs]
        )

    def to_json(self) -> str:
        """`to_dict` as compact JSON text.

        The same text as `json.dumps(to_dict(), ensure_ascii=False, separators=(",", ":"))`,
        made without copying every token's alternatives into lists (JSON writes a tuple as
        a list): one reply with logprobs has a few hundred of them.
        """
        return _COMPACT.encode(self._as_dict(self._logprob_rows()))

    def stored_form(self) -> dict[str, Any]:
        """What the response cache stores, as JSON: `to_dict()` without its None fields.

        `from_dict` reads an absent field as None (every version has), and a value
        without null can be written by the fast encoder (`fastjson.dumps`). Each token's
        alternatives stay tuples, which JSON writes as lists.
        """
        value = self._as_dict(self._logprob_rows())
        return {k: v for k, v in value.items() if v is not None}

    def _logprob_rows(self) -> list[list[Any]] | None:
        logprobs = self.logprobs
        return None if logprobs is None else [[t.token, t.logprob, t.top] for t in logprobs]

    def _as_dict(self, logprobs: list[list[Any]] | None) -> dict[str, Any]:
        return {
            "text": self.text,
            "parsed": self.parsed,
            "finish_reason": self.finish_reason,
            "usage": self.usage.to_dict(),
            "logprobs": logprobs,
            "logprobs_note": self.logprobs_note,
            "latency_s": self.latency_s,
            "model": self.model,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> JudgeResponse:
        """Rebuild a response from its `to_dict` form; missing optional fields take defaults."""
        lp = data.get("logprobs")
        return cls(
            text=data["text"],
            parsed=data.get("parsed"),
            finish_reason=data.get("finish_reason", "stop"),
            usage=Usage.from_dict(data.get("usage") or {}),
            logprobs=None if lp is None else stored_logprobs(lp),
            logprobs_note=data.get("logprobs_note"),
            latency_s=float(data.get("latency_s", 0.0)),
            model=data.get("model", ""),
        )


_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)


@dataclass(frozen=True)
class Capabilities:
    """What a judge can do, for the metrics that adapt their plan to it.

    Attributes:
        mode: how results are labelled: "judge" (an LLM) or "offline".
        declined: task (or "task/part", e.g. "accuracy@1/categorical") -> the reason this
            judge cannot judge it; metrics report such parts as not applicable with it.
        version: replaces every metric's version in results (the offline judge's models
            are versioned as a whole); None: the metrics' own versions.
        cacheable: whether replies belong in the response cache (the offline judge
            computes them locally, so caching would only risk serving an older model's).
        reads_prompt: False: it reads only `kind` and `subject`; requests get no messages.
    """

    mode: str = "judge"
    declined: Mapping[str, str] = field(default_factory=dict)
    version: str | None = None
    cacheable: bool = True
    reads_prompt: bool = True

    def declines(self, task: str) -> str | None:
        """Why this judge cannot judge `task`, or None when it can."""
        return self.declined.get(task)


LLM_CAPABILITIES = Capabilities()
"""An LLM judge: judges every task; its replies are cached."""


@runtime_checkable
class Judge(Protocol):
    """An LLM (or the offline judge, or a scripted stand-in) that answers judging requests.

    Attributes:
        name: "provider/model", as shown in results.
        identity: what the response cache keys replies by: the name, plus the base URL
            for a custom server (two servers answering to one model name differ).
        capabilities: what it can judge (`LLM_CAPABILITIES` for every LLM adapter).
    """

    name: str
    identity: str
    capabilities: Capabilities

    async def complete(self, request: JudgeRequest) -> JudgeResponse:
        """Make exactly one call; raise `sumjudge.errors.ProviderError` subclasses on failure."""
        ...

    async def aclose(self) -> None:
        """Release network resources."""
        ...
