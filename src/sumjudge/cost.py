"""Token prices, context windows, spend accounting and the pre-run (dry-run) estimate.

Prices are USD per 1M tokens, from `data/models.json`, overridable by the user. Cost of
one call from the provider's usage fields, where `prompt_tokens` includes cached and
cache-written tokens (the adapters normalise all providers to this):

    (prompt - cached - written) * input + cached * cached_input
    + written * cache_write + completion * output

The dry-run estimator counts tokens with a deliberately simple rule (about 4 characters
per token); real tokenizers differ by roughly +-25%, and the estimate says so.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import ConfigError
from .jsonfields import NOT_IN_JSON, json_key, report_dict
from .protocol import JudgeRequest, Usage
from .tokens import CHARS_PER_TOKEN, estimate_tokens

__all__ = [
    "ASSUMED_COMPLETION_TOKENS",
    "BATCH_DISCOUNT",
    "CostEstimate",
    "ModelInfo",
    "ModelTable",
    "Price",
    "estimate_tokens",
]

#: Completion tokens assumed per verdict in estimates (an explanation and a score).
ASSUMED_COMPLETION_TOKENS = 150
#: Batch endpoints' price as a share of the online price (OpenAI, Anthropic, Gemini: half).
BATCH_DISCOUNT = 0.5
#: Shortest prompt prefix providers cache (OpenAI: 1024 tokens; Anthropic similar).
MIN_CACHEABLE_PREFIX = 1024


@dataclass(frozen=True)
class Price:
    """USD per 1M tokens."""

    input: float
    output: float
    cached_input: float | None = None
    cache_write: float | None = None

    def cost(self, usage: Usage) -> float:
        """USD for one call's (or a sum of calls') usage."""
        cached = usage.cached_prompt_tokens
        written = usage.cache_write_tokens
        fresh = max(0, usage.prompt_tokens - cached - written)
        cached_rate = self.input if self.cached_input is None else self.cached_input
        write_rate = self.input if self.cache_write is None else self.cache_write
        return (
            fresh * self.input
            + cached * cached_rate
            + written * write_rate
            + usage.completion_tokens * self.output
        ) / 1_000_000

    @classmethod
    def parse(cls, spec: str) -> Price:
        """From "IN,CACHED,OUT" (or "IN,OUT"), USD per 1M tokens."""
        try:
            parts = [float(p) for p in spec.split(",")]
        except ValueError:
            parts = []
        if len(parts) == 2:
            return cls(input=parts[0], output=parts[1])
        if len(parts) == 3:
            return cls(input=parts[0], cached_input=parts[1], output=parts[2])
        raise ConfigError(
            f"price {spec!r} is not IN,CACHED,OUT (USD per 1M tokens), e.g. 0.15,0.075,0.60"
        )


@dataclass(frozen=True)
class ModelInfo:
    """What the model table knows of one model; None where it does not know."""

    price: Price | None = None
    context_window: int | None = None


def _normalise(name: str) -> str:
    provider, sep, model = name.partition("/")
    if sep and provider == "gemini":
        return f"google/{model}"
    return name


class ModelTable:
    """Prices and context windows per "provider/model", with user overrides.

    Example:
        >>> table = ModelTable(overrides={"openai/my-ft": {"input": 0.3, "output": 1.2}})
        >>> table.price("openai/gpt-4o-mini-2024-07-18")   # dated names match their base
        Price(input=0.15, output=0.6, cached_input=0.075, cache_write=None)

    Args:
        overrides: a mapping (or a JSON file path) of model -> fields among input,
            cached_input, cache_write, output, context_window. Fields merge into the
            built-in entry.
    """

    def __init__(self, overrides: Mapping[str, Any] | str | Path | None = None) -> None:
        raw = json.loads(
            resources.files("sumjudge").joinpath("data/models.json").read_text("utf-8")
        )
        self._rows: dict[str, dict[str, Any]] = {
            _normalise(k): dict(v) for k, v in raw.items() if not k.startswith("_")
        }
        extra: Mapping[str, Any] = {}
        if isinstance(overrides, (str, Path)):
            try:
                extra = json.loads(Path(overrides).read_text("utf-8"))
            except (OSError, ValueError) as exc:
                raise ConfigError(f"cannot read the price file {overrides}: {exc}") from None
        elif overrides is not None:
            extra = overrides
        for name, fields in extra.items():
            if name.startswith("_"):
                continue
            if not isinstance(fields, Mapping):
                raise ConfigError(f"price entry for {name!r} must be an object")
            self._rows.setdefault(_normalise(name), {}).update(fields)

    def _row(self, name: str) -> dict[str, Any] | None:
        name = _normalise(name)
        if name in self._rows:
            return self._rows[name]
        provider, _, model = name.rpartition("/")
        # A dated variant matches its base name, within the same provider only: a
        # provider-less entry ("local") never prices a provider's model ("openai/local-x").
        candidates = [
            k
            for k in self._rows
            if (k.rpartition("/")[0] == provider or not provider)
            and model.startswith(k.rpartition("/")[2])
        ]
        if not candidates:
            return None
        return self._rows[max(candidates, key=lambda k: len(k.rpartition("/")[2]))]

    def info(self, name: str) -> ModelInfo:
        """The price and context window of `name` (exact entry, else longest base name)."""
        row = self._row(name)
        if row is None:
            return ModelInfo()
        price = None
        if "input" in row and "output" in row:
            price = Price(
                input=float(row["input"]),
                output=float(row["output"]),
                cached_input=None
                if row.get("cached_input") is None
                else float(row["cached_input"]),
                cache_write=None if row.get("cache_write") is None else float(row["cache_write"]),
            )
        window = row.get("context_window")
        return ModelInfo(price=price, context_window=None if window is None else int(window))

    def price(self, name: str) -> Price | None:
        """The price of `name`, or None if the table has none."""
        return self.info(name).price

    def batch_price(self, name: str, online: Price | None = None) -> Price | None:
        """The price of `name` through the provider's batch endpoint.

        The table's `batch_input`, `batch_cached_input` and `batch_output` fields where it
        has them; else half of `online` (default: the table's online price), which is
        what OpenAI, Anthropic and Gemini charge for batch requests.
        """
        online = online if online is not None else self.price(name)
        row = self._row(name) or {}
        if online is None and not ("batch_input" in row and "batch_output" in row):
            return None

        def rate(field: str, fallback: float | None) -> float | None:
            value = row.get(f"batch_{field}")
            if value is not None:
                return float(value)
            return None if fallback is None else fallback * BATCH_DISCOUNT

        return Price(
            input=rate("input", online.input if online else None) or 0.0,
            output=rate("output", online.output if online else None) or 0.0,
            cached_input=rate("cached_input", online.cached_input if online else None),
            cache_write=rate("cache_write", online.cache_write if online else None),
        )

    def context_window(self, name: str) -> int | None:
        """The context window of `name` in tokens, or None if the table has none."""
        return self.info(name).context_window


@dataclass
class CostEstimate:
    """What a run would cost, from the requests it would send (no judge is called).

    `add_item` takes one item's requests in the order they are sent; the first shares its
    prefix with the others, so with provider prompt caching the later ones are billed the
    prefix at the cached rate when it is at least `MIN_CACHEABLE_PREFIX` tokens long.
    `to_dict` writes the counts in this order under their JSON keys (`json_key`), then
    the costs it computes, the method and the notes.
    """

    price: Price | None = field(metadata=NOT_IN_JSON)
    items: int = 0
    invalid_items: int = 0
    requests: int = 0
    cached_in_response_cache: int = field(
        default=0, metadata=json_key("answered_from_response_cache")
    )
    prompt_tokens: int = field(default=0, metadata=json_key("estimated_prompt_tokens"))
    cacheable_prompt_tokens: int = field(
        default=0, metadata=json_key("estimated_cacheable_prompt_tokens")
    )
    completion_tokens: int = field(default=0, metadata=json_key("assumed_completion_tokens"))
    notes: list[str] = field(default_factory=list, metadata=NOT_IN_JSON)

    def add_item(self, requests: list[JudgeRequest], already_cached: list[bool]) -> None:
        """Count one item's `requests`; those `already_cached` in the response cache are free."""
        self.items += 1
        prefix = estimate_tokens(_common_prefix(requests)) if len(requests) > 1 else 0
        first_sent = False
        for request, hit in zip(requests, already_cached, strict=True):
            self.requests += 1
            if hit:
                self.cached_in_response_cache += 1
                continue
            tokens = estimate_tokens(request.prompt_text())
            self.prompt_tokens += tokens
            self.completion_tokens += min(request.max_tokens, ASSUMED_COMPLETION_TOKENS)
            if first_sent and prefix >= MIN_CACHEABLE_PREFIX:
                self.cacheable_prompt_tokens += prefix
            first_sent = True

    def add_requests(self, requests: list[JudgeRequest], already_cached: list[bool]) -> None:
        """Requests that belong to the run, not to one item (e.g. rubric generation)."""
        for request, hit in zip(requests, already_cached, strict=True):
            self.requests += 1
            if hit:
                self.cached_in_response_cache += 1
                continue
            self.prompt_tokens += estimate_tokens(request.prompt_text())
            self.completion_tokens += min(request.max_tokens, ASSUMED_COMPLETION_TOKENS)

    def cost(self, *, prompt_caching: bool) -> float | None:
        """The estimated cost in USD, or None without a price.

        Args:
            prompt_caching: bill the cacheable shared prefixes at the cached input rate.
        """
        if self.price is None:
            return None
        cached = self.cacheable_prompt_tokens if prompt_caching else 0
        return self.price.cost(
            Usage(
                prompt_tokens=self.prompt_tokens,
                completion_tokens=self.completion_tokens,
                cached_prompt_tokens=cached,
            )
        )

    def to_dict(self) -> dict[str, Any]:
        """The estimate as JSON: counts, tokens, cost with and without prompt caching, method."""
        return {
            **report_dict(self),
            "estimated_cost_usd": self.cost(prompt_caching=False),
            "estimated_cost_usd_with_prompt_caching": self.cost(prompt_caching=True),
            "method": f"~{CHARS_PER_TOKEN:g} characters per token (+-25%); "
            f"{ASSUMED_COMPLETION_TOKENS} completion tokens per call assumed; "
            "retries and repair re-asks not included",
            **({"notes": list(self.notes)} if self.notes else {}),
        }

    def lines(self) -> list[str]:
        """The estimate as lines of text for the terminal."""
        d = self.to_dict()
        lines = [
            f"dry run: {self.items} item(s) ({self.invalid_items} invalid), "
            f"{self.requests} request(s), {self.cached_in_response_cache} already in the "
            "response cache (free)",
            f"estimated tokens: {self.prompt_tokens} prompt "
            f"({self.cacheable_prompt_tokens} cacheable shared prefix), "
            f"{self.completion_tokens} completion (assumed)",
        ]
        low, high = d["estimated_cost_usd_with_prompt_caching"], d["estimated_cost_usd"]
        if high is None:
            lines.append("estimated cost: unknown (no price for this model; pass --price)")
        else:
            lines.append(
                f"estimated cost: ${high:.4f} without provider prompt caching, "
                f"${low:.4f} if the shared prefix is cached"
            )
        lines.append(f"method: {d['method']}")
        lines.extend(f"note: {n}" for n in self.notes)
        return lines


def _common_prefix(requests: list[JudgeRequest]) -> str:
    """Longest common prefix of the prompts (binary search on C-level slice compares)."""
    texts = [r.prompt_text() for r in requests]
    first = texts[0]
    lo, hi = 0, min(len(t) for t in texts)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if all(t[:mid] == first[:mid] for t in texts[1:]):
            lo = mid
        else:
            hi = mid - 1
    return first[:lo]
