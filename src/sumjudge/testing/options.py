"""The constructor options of `FakeOpenAIServer`, kept on it as public attributes."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from .replies import FAULTS

__all__ = ["ServerOptions"]


@dataclass(kw_only=True, eq=False, repr=False)
class ServerOptions:
    """How the fake server behaves; every field is a keyword argument of `FakeOpenAIServer`.

    Attributes:
        host: Interface to bind.
        port: Port to bind; 0 picks a free one (the bound port once started).
        model: Model id listed by `GET /v1/models`.
        latency: Seconds every chat request waits before it is answered.
        jitter: Uniform +/- jitter added to `latency`.
        error_rate: Fraction of responder-answered requests that get a fault.
        faults: Fault kinds to draw from (subset of `FAULTS`).
        seed: Seed of the fault and jitter RNGs.
        timeout_sleep: Seconds a "timeout" fault waits before answering.
        retry_after: `Retry-After` header value of a "429" fault.
        json_schema_support: "native", or "reject_500"/"reject_400" to refuse
            `response_format.type == "json_schema"` (llama.cpp answers 500 there).
        logprobs_support: True; False silently ignores `logprobs`; "reject_400" refuses it.
        raw_newlines_in_strings: Default-responder JSON strings contain a literal newline.
        digit_probs: Probabilities of a digit score token, its nearest alternative, and so on.
        cache_block: Prompt-prefix cache granularity in tokens.
        cache_min_tokens: Shortest cacheable prefix.
        cache_ttl: Seconds a cached prefix stays valid after it was last seen.
        cache_max_entries: Bound on stored prefix hashes (oldest are evicted first).
        record_requests: Keep every request in `.requests` (disable for long benchmarks).
        clock: Monotonic clock used for the cache TTL (tests may inject one).
    """

    host: str = "127.0.0.1"
    port: int = 0
    model: str = "fake-model"
    latency: float = 0.0
    jitter: float = 0.0
    error_rate: float = 0.0
    faults: Sequence[str] = FAULTS
    seed: int = 0
    timeout_sleep: float = 30.0
    retry_after: float = 0.0
    json_schema_support: Literal["native", "reject_500", "reject_400"] = "native"
    logprobs_support: bool | Literal["reject_400"] = True
    raw_newlines_in_strings: bool = False
    digit_probs: Sequence[float] = (0.8, 0.15, 0.05)
    cache_block: int = 64
    cache_min_tokens: int = 256
    cache_ttl: float = 300.0
    cache_max_entries: int = 2_000_000
    record_requests: bool = True
    clock: Callable[[], float] = time.monotonic

    def __post_init__(self) -> None:
        """Reject inconsistent options."""
        unknown = set(self.faults) - set(FAULTS)
        if unknown:
            raise ValueError(f"unknown faults {sorted(unknown)}; choose from {FAULTS}")
        if self.error_rate > 0 and not self.faults:
            raise ValueError("error_rate > 0 needs at least one fault kind")
        if self.cache_block < 1:
            raise ValueError("cache_block must be >= 1")
        self.faults = tuple(self.faults)
        self.digit_probs = tuple(self.digit_probs)
