"""A real local OpenAI-compatible chat-completions server for tests and benchmarks.

`FakeOpenAIServer` runs an aiohttp app on 127.0.0.1 (a free port) in a background thread with
its own event loop, so sync tests, async tests and subprocess CLI tests can all talk to it over
real HTTP. Replies are scripted with `Reply` or built from the request's JSON schema.

Example:
    >>> import openai
    >>> with FakeOpenAIServer() as srv:  # doctest: +SKIP
    ...     srv.enqueue(Reply.error(429, headers={"Retry-After": "1"}), Reply.json({"score": 2}))
    ...     client = openai.AsyncOpenAI(base_url=srv.base_url, api_key="sk-test", max_retries=0)

Command line (prints the base URL, then serves until killed)::

    python -m sumjudge.testing.openai_server --port 0 --latency 0.2 --error-rate 0.1 --print-url
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import inspect
import json
import logging
import math
import random
import re
import secrets
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import FrameType, TracebackType
from typing import Any, Literal

from aiohttp import web

__all__ = ["FAULTS", "FakeOpenAIServer", "Reply", "main", "tokenize"]

_log = logging.getLogger(__name__)

#: Words, single digits, whitespace runs and any other single character: covers text exactly.
TOKEN_RE = re.compile(r"[^\W\d_]+|\d|\s+|\S")
#: Fault kinds that `error_rate` draws from.
FAULTS: tuple[str, ...] = ("429", "500", "timeout", "reset", "truncated", "prose", "out_of_range")

_JUNK = (" the", "alt", ",", "\n", " a", "ing", ".", " is", "}", " and")
_SENTENCES = (
    "The summary covers the main points of the source.",
    "Some details are missing, but nothing is contradicted.",
    "The wording is clear and easy to follow.",
    "A few claims are not supported by the source.",
    "The summary is concise and faithful overall.",
)
_NEWLINE_MARK = "\ue000"  # stands for a raw newline until the JSON text is rendered
_PROSE = "The summary seems reasonable overall, but I would rather not give a structured verdict."
_SCORE_RE = re.compile(r'("score"\s*:\s*)-?\d+(?:\.\d+)?')
_ERROR_KINDS: dict[int, tuple[str, str | None]] = {
    400: ("invalid_request_error", None),
    401: ("invalid_request_error", "invalid_api_key"),
    403: ("permission_denied", None),
    404: ("invalid_request_error", "model_not_found"),
    429: ("requests", "rate_limit_exceeded"),
}


def tokenize(text: str) -> list[str]:
    """Split text into the fake server's tokens; `"".join(tokenize(s)) == s`."""
    return TOKEN_RE.findall(text)


@dataclass(frozen=True)
class Reply:
    """One scripted answer of the fake server; build it with the class-method constructors.

    `logprobs`: ``None``/``True`` include logprobs when the request asks for them (and the
    server supports them); ``False`` never includes them.
    """

    kind: Literal["content", "error", "reset", "delay"]
    content: str = ""
    finish_reason: str = "stop"
    logprobs: bool | None = None
    status: int = 200
    message: str = ""
    error_type: str | None = None
    error_code: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    seconds: float = 0.0
    then: Reply | None = None

    @classmethod
    def json(cls, obj: Any, logprobs: bool | None = None) -> Reply:
        """A completion whose content is `json.dumps(obj)`."""
        return cls("content", content=json.dumps(obj, ensure_ascii=False), logprobs=logprobs)

    @classmethod
    def text(cls, content: str, logprobs: bool | None = None) -> Reply:
        """A completion with arbitrary content (fenced JSON, prose, ...)."""
        return cls("content", content=content, logprobs=logprobs)

    @classmethod
    def truncated(cls, content: str, logprobs: bool | None = None) -> Reply:
        """A completion cut off by the token limit (`finish_reason == "length"`)."""
        return cls("content", content=content, finish_reason="length", logprobs=logprobs)

    @classmethod
    def error(
        cls,
        status: int,
        message: str = "Fake error",
        headers: Mapping[str, str] | None = None,
        *,
        error_type: str | None = None,
        code: str | None = None,
    ) -> Reply:
        """An HTTP error with an OpenAI-shaped body `{"error": {"message", "type", "code"}}`."""
        default_type, default_code = _ERROR_KINDS.get(
            status, ("server_error" if status >= 500 else "invalid_request_error", None)
        )
        return cls(
            "error",
            status=status,
            message=message,
            error_type=error_type or default_type,
            error_code=code if code is not None else default_code,
            headers=dict(headers or {}),
        )

    @classmethod
    def delay(cls, seconds: float, then_reply: Reply | None = None) -> Reply:
        """Wait `seconds` (without blocking the loop), then answer `then_reply` (or default)."""
        return cls("delay", seconds=seconds, then=then_reply)

    @classmethod
    def reset(cls) -> Reply:
        """Abort the connection without any response (client sees a connection error)."""
        return cls("reset")


#: A custom answer function: request body -> `Reply` (or an awaitable of one).
Responder = Callable[[dict[str, Any]], "Reply | Awaitable[Reply]"]


# --------------------------------------------------------------------------- schema filling


def response_schema(body: Mapping[str, Any]) -> dict[str, Any] | None:
    """The JSON schema in a request's `response_format`, if any."""
    rf = body.get("response_format")
    if not isinstance(rf, dict):
        return None
    schema: Any = None
    if rf.get("type") == "json_schema" and isinstance(rf.get("json_schema"), dict):
        schema = rf["json_schema"].get("schema")
    elif rf.get("type") == "json_object":
        schema = rf.get("schema")
    return schema if isinstance(schema, dict) else None


class _SchemaFiller:
    """Builds a deterministic value that validates against a (common subset of) JSON schema."""

    def __init__(self, root: Mapping[str, Any], rng: random.Random, raw_newlines: bool) -> None:
        self.root = root
        self.rng = rng
        self.raw_newlines = raw_newlines

    def _resolve(self, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        for _ in range(32):
            ref = schema.get("$ref")
            if not isinstance(ref, str) or not ref.startswith("#"):
                break
            node: Any = self.root
            for part in ref.lstrip("#").strip("/").split("/"):
                if part:
                    node = node.get(part, {}) if isinstance(node, Mapping) else {}
            schema = node if isinstance(node, Mapping) else {}
        if isinstance(schema.get("allOf"), list):
            merged: dict[str, Any] = {}
            for sub in schema["allOf"]:
                if isinstance(sub, Mapping):
                    merged.update(self._resolve(sub))
            merged.update({k: v for k, v in schema.items() if k != "allOf"})
            schema = merged
        for key in ("anyOf", "oneOf"):
            options = schema.get(key)
            if isinstance(options, list) and options:
                non_null = [
                    o for o in options if isinstance(o, Mapping) and o.get("type") != "null"
                ]
                return self._resolve(non_null[0] if non_null else options[0])
        return schema

    def value(self, schema: Mapping[str, Any], name: str = "", depth: int = 0) -> Any:
        schema = self._resolve(schema)
        if "const" in schema:
            return schema["const"]
        if isinstance(schema.get("enum"), list) and schema["enum"]:
            return self.rng.choice(schema["enum"])
        kind = schema.get("type")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "null")
        if kind is None:
            kind = (
                "object" if "properties" in schema else "array" if "items" in schema else "string"
            )
        if depth > 8:
            return None
        if kind == "object":
            props = schema.get("properties")
            if not isinstance(props, Mapping):
                return {}
            return {
                k: self.value(v, k, depth + 1) for k, v in props.items() if isinstance(v, Mapping)
            }
        if kind == "array":
            lo = int(schema.get("minItems", 1))
            hi = max(lo, int(schema.get("maxItems", max(lo, 2))))
            items = schema.get("items")
            items = items if isinstance(items, Mapping) else {}
            count = self.rng.randint(lo, min(hi, max(lo, 2)))
            return [self.value(items, name, depth + 1) for _ in range(count)]
        if kind == "integer":
            return self._integer(schema)
        if kind == "number":
            lo_f = float(schema.get("minimum", schema.get("exclusiveMinimum", 0.0)))
            hi_f = float(schema.get("maximum", schema.get("exclusiveMaximum", lo_f + 1.0)))
            return round(self.rng.uniform(lo_f, max(lo_f, hi_f)), 2)
        if kind == "boolean":
            return self.rng.random() < 0.5
        if kind == "null":
            return None
        return self._string(schema)

    def _integer(self, schema: Mapping[str, Any]) -> int:
        lo: int | None = None
        hi: int | None = None
        if isinstance(schema.get("minimum"), (int, float)):
            lo = math.ceil(schema["minimum"])
        elif isinstance(schema.get("exclusiveMinimum"), (int, float)):
            lo = math.floor(schema["exclusiveMinimum"]) + 1
        if isinstance(schema.get("maximum"), (int, float)):
            hi = math.floor(schema["maximum"])
        elif isinstance(schema.get("exclusiveMaximum"), (int, float)):
            hi = math.ceil(schema["exclusiveMaximum"]) - 1
        if lo is None and hi is None:
            lo, hi = 1, 3
        elif lo is None:
            assert hi is not None
            lo = hi - 4
        elif hi is None:
            hi = lo + 4
        return self.rng.randint(lo, max(lo, hi))

    def _string(self, schema: Mapping[str, Any]) -> str:
        text = self.rng.choice(_SENTENCES)
        if self.raw_newlines:
            text = text + _NEWLINE_MARK + self.rng.choice(_SENTENCES)
        min_len = int(schema.get("minLength", 0))
        max_len = schema.get("maxLength")
        if len(text) < min_len:
            text = text + "x" * (min_len - len(text))
        if isinstance(max_len, int) and len(text) > max_len:
            text = text[:max_len]
        return text


def _body_seed(body: Mapping[str, Any]) -> int:
    raw = json.dumps(body, sort_keys=True, default=str).encode()
    return int.from_bytes(hashlib.blake2b(raw, digest_size=8).digest(), "big")


def _dump(obj: Any, raw_newlines: bool) -> str:
    text = json.dumps(obj, ensure_ascii=False)
    return text.replace(_NEWLINE_MARK, "\n" if raw_newlines else "\\n")


def _logprob(p: float) -> float:
    return math.log(p) if p > 0 else -20.0


def _prompt_tokens(
    body: Mapping[str, Any], tokenize: Callable[[str], list[str]] = tokenize
) -> list[str]:
    tokens: list[str] = []
    messages = body.get("messages")
    for msg in messages if isinstance(messages, list) else []:
        if not isinstance(msg, Mapping):
            continue
        tokens.extend(tokenize(str(msg.get("role", ""))))
        content = msg.get("content")
        if isinstance(content, str):
            tokens.extend(tokenize(content))
        elif isinstance(content, list):
            for part in content:
                if isinstance(part, Mapping) and isinstance(part.get("text"), str):
                    tokens.extend(tokenize(part["text"]))
    return tokens


# --------------------------------------------------------------------------- the server

_STAT_KEYS = ("requests", "errors", "prompt_tokens", "cached_tokens", "completion_tokens")


class FakeOpenAIServer:
    """A local OpenAI-compatible server (`POST /v1/chat/completions`) on 127.0.0.1.

    Use it as `with FakeOpenAIServer() as srv:` or `async with ...`; point a client at
    `srv.base_url`. Scripted replies (`srv.enqueue(Reply...)`) are consumed in order; when the
    queue is empty `srv.responder(body)` answers (default: a value built from the request's JSON
    schema). `error_rate` injects faults only into responder answers, never into scripted ones.

    Args:
        host: Interface to bind.
        port: Port to bind; 0 picks a free one.
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

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        model: str = "fake-model",
        latency: float = 0.0,
        jitter: float = 0.0,
        error_rate: float = 0.0,
        faults: Sequence[str] = FAULTS,
        seed: int = 0,
        timeout_sleep: float = 30.0,
        retry_after: float = 0.0,
        json_schema_support: Literal["native", "reject_500", "reject_400"] = "native",
        logprobs_support: bool | Literal["reject_400"] = True,
        raw_newlines_in_strings: bool = False,
        digit_probs: Sequence[float] = (0.8, 0.15, 0.05),
        cache_block: int = 64,
        cache_min_tokens: int = 256,
        cache_ttl: float = 300.0,
        cache_max_entries: int = 2_000_000,
        record_requests: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        unknown = set(faults) - set(FAULTS)
        if unknown:
            raise ValueError(f"unknown faults {sorted(unknown)}; choose from {FAULTS}")
        if error_rate > 0 and not faults:
            raise ValueError("error_rate > 0 needs at least one fault kind")
        if cache_block < 1:
            raise ValueError("cache_block must be >= 1")
        self.host = host
        self.port = port
        self.model = model
        self.latency = latency
        self.jitter = jitter
        self.error_rate = error_rate
        self.faults = tuple(faults)
        self.timeout_sleep = timeout_sleep
        self.retry_after = retry_after
        self.json_schema_support = json_schema_support
        self.logprobs_support = logprobs_support
        self.raw_newlines_in_strings = raw_newlines_in_strings
        self.digit_probs = tuple(digit_probs)
        self.cache_block = cache_block
        self.cache_min_tokens = cache_min_tokens
        self.cache_ttl = cache_ttl
        self.cache_max_entries = cache_max_entries
        self.record_requests = record_requests
        self.clock = clock
        self.responder: Responder = self.default_reply
        self.requests: list[dict[str, Any]] = []

        self._lock = threading.Lock()
        self._queue: deque[Reply] = deque()
        self._fault_rng = random.Random(seed)
        self._latency_rng = random.Random(seed + 1)
        self._stats: dict[str, dict[str, int]] = {}
        self._cache: dict[int, float] = {}
        self._cache_order: deque[tuple[float, int]] = deque()
        self._counter = 0
        self._token_memo: dict[str, list[str]] = {}  # used on the server thread only
        self._logprob_memo: dict[tuple[str, int], str] = {}
        self._marker = f"logprobs-{secrets.token_hex(8)}"
        self._digit_alts = {d: self._digit_alternatives(d) for d in "12345"}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None

    # ----------------------------------------------------------------- public API

    @property
    def url(self) -> str:
        """Root URL, e.g. `http://127.0.0.1:PORT` (valid once started)."""
        if self._thread is None:
            raise RuntimeError("FakeOpenAIServer is not running")
        return f"http://{self.host}:{self.port}"

    @property
    def base_url(self) -> str:
        """OpenAI base URL, e.g. `http://127.0.0.1:PORT/v1`."""
        return self.url + "/v1"

    def enqueue(self, *replies: Reply) -> None:
        """Append scripted replies; they are used in order before the responder."""
        with self._lock:
            self._queue.extend(replies)

    @property
    def queued(self) -> int:
        """How many scripted replies are still waiting."""
        with self._lock:
            return len(self._queue)

    def stats(self) -> dict[str, Any]:
        """Totals and per-path counts: requests, errors, prompt/cached/completion tokens and
        `billed_input_tokens` (uncached + 0.1 * cached)."""
        with self._lock:
            paths: dict[str, dict[str, float]] = {p: dict(s) for p, s in self._stats.items()}
        total: dict[str, float] = {k: sum(s[k] for s in paths.values()) for k in _STAT_KEYS}
        for counts in [total, *paths.values()]:
            cached = counts["cached_tokens"]
            counts["billed_input_tokens"] = round(counts["prompt_tokens"] - 0.9 * cached, 1)
        return {**total, "paths": paths}

    def reset_stats(self, *, clear_cache: bool = False) -> None:
        """Zero the counters (and optionally forget cached prompt prefixes)."""
        with self._lock:
            self._stats.clear()
            if clear_cache:
                self._cache.clear()
                self._cache_order.clear()

    def default_reply(self, body: dict[str, Any]) -> Reply:
        """A valid answer for `body`: filled from its JSON schema, else explanation + score."""
        schema = response_schema(body)
        raw = self.raw_newlines_in_strings
        if schema is None:
            sep = _NEWLINE_MARK if raw else " "
            explanation = f"The summary covers the main points.{sep}Nothing is contradicted."
            return Reply.text(_dump({"explanation": explanation, "score": 2}, raw))
        rng = random.Random(_body_seed(body))
        return Reply.text(_dump(_SchemaFiller(schema, rng, raw).value(schema), raw))

    # ----------------------------------------------------------------- lifecycle

    def start(self) -> FakeOpenAIServer:
        """Start serving in a background thread; returns self once the port is bound."""
        if self._thread is not None:
            raise RuntimeError("FakeOpenAIServer already started")
        loop = asyncio.new_event_loop()
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(self._astart())
            except BaseException as exc:  # handed to the starting thread
                failure.append(exc)
                ready.set()
                loop.close()
                return
            ready.set()
            try:
                loop.run_forever()
            finally:
                try:
                    loop.run_until_complete(self._acleanup())
                finally:
                    loop.run_until_complete(loop.shutdown_asyncgens())
                    loop.run_until_complete(loop.shutdown_default_executor())
                    loop.close()

        thread = threading.Thread(target=run, name="FakeOpenAIServer", daemon=True)
        self._loop, self._thread = loop, thread
        thread.start()
        ready.wait()
        if failure:
            thread.join()
            self._loop = self._thread = None
            raise failure[0]
        return self

    def stop(self) -> None:
        """Stop the server, cancel in-flight requests, join the thread (idempotent)."""
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        self._loop = self._thread = None

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    async def __aenter__(self) -> FakeOpenAIServer:
        return await asyncio.to_thread(self.start)

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await asyncio.to_thread(self.stop)

    async def _astart(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_post("/v1/chat/completions", self._handle_chat)
        app.router.add_get("/v1/models", self._handle_models)
        app.router.add_get("/stats", self._handle_stats)
        app.router.add_post("/stats/reset", self._handle_stats_reset)
        app.router.add_post("/{version}/models/{model}:generateContent", self._handle_gemini)
        app.router.add_post("/v1/messages", self._handle_anthropic)
        app.router.add_route("*", "/{tail:.*}", self._handle_not_found)
        runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=0.25)
        await runner.setup()
        try:
            site = web.TCPSite(runner, self.host, self.port)
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        self.port = int(runner.addresses[0][1])

    async def _acleanup(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        current = asyncio.current_task()
        leftover = [t for t in asyncio.all_tasks() if t is not current]
        for task in leftover:
            task.cancel()
        await asyncio.gather(*leftover, return_exceptions=True)

    # ----------------------------------------------------------------- handlers

    async def _handle_models(self, request: web.Request) -> web.Response:
        self._record(request, None)
        self._count(request.path, requests=1)
        model = {"id": self.model, "object": "model", "created": 0, "owned_by": "sumjudge"}
        return web.json_response({"object": "list", "data": [model]})

    async def _handle_stats(self, request: web.Request) -> web.Response:
        return web.json_response(self.stats())

    async def _handle_stats_reset(self, request: web.Request) -> web.Response:
        clear = request.query.get("cache", "").lower() in ("1", "true", "yes")
        self.reset_stats(clear_cache=clear)
        return web.json_response({"ok": True})

    async def _handle_not_found(self, request: web.Request) -> web.Response:
        reply = Reply.error(404, f"Unknown path {request.method} {request.path}", code=None)
        return self._error_response(reply)

    async def _handle_chat(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        try:
            body = await request.json()
        except ValueError:
            body = None
        self._record(request, body)
        self._count(path, requests=1)
        if not isinstance(body, dict):
            return self._error(path, Reply.error(400, "Request body must be a JSON object"))
        # Script, fault and jitter are drawn in arrival order, before the latency sleep, so a
        # seeded run is reproducible and scripted replies match the order requests were sent.
        reply = self._capability_rejection(body)
        fault: str | None = None
        if reply is None:
            with self._lock:
                reply = self._queue.popleft() if self._queue else None
            if reply is None and self.error_rate > 0 and self._fault_rng.random() < self.error_rate:
                fault = self._fault_rng.choice(self.faults)
        delay = self.latency
        if self.jitter:
            delay += self._latency_rng.uniform(-self.jitter, self.jitter)
        if delay > 0:
            await asyncio.sleep(delay)
        if reply is None:
            reply = self._apply_fault(await self._respond(body), fault)
        while reply.kind == "delay":
            await asyncio.sleep(reply.seconds)
            reply = reply.then if reply.then is not None else await self._respond(body)
        if reply.kind == "reset":
            self._count(path, errors=1)
            if request.transport is not None:
                request.transport.abort()
            return web.Response(status=204)
        if reply.kind == "error":
            return self._error(path, reply)
        return self._completion(path, body, reply)

    async def _next_reply(self, body: dict[str, Any]) -> Reply:
        """The scripted reply (after its delays) or the responder's, for the non-OpenAI routes."""
        with self._lock:
            reply = self._queue.popleft() if self._queue else None
        if reply is None:
            reply = await self._respond(body)
        while reply.kind == "delay":
            await asyncio.sleep(reply.seconds)
            reply = reply.then if reply.then is not None else await self._respond(body)
        return reply

    async def _handle_gemini(self, request: web.Request) -> web.Response:
        """The Gemini `generateContent` protocol, answered by the same script and responder.

        It lets tests run the google-genai SDK (the specification's default judge) against
        this server. Latency and fault injection apply to the OpenAI route only.
        """
        path = request.path
        try:
            gbody = await request.json()
        except ValueError:
            gbody = None
        self._record(request, gbody)
        self._count(path, requests=1)
        if not isinstance(gbody, dict):
            return self._gemini_error(path, Reply.error(400, "Request body must be JSON"))
        body = _gemini_to_chat(gbody, request.match_info["model"])
        reply = await self._next_reply(body)
        if reply.kind == "reset":
            if request.transport is not None:
                request.transport.abort()
            return web.Response(status=204)
        if reply.kind == "error":
            return self._gemini_error(path, reply)
        tokens = tokenize(reply.content)
        prompt = _prompt_tokens(body, self._tokenize_memo)
        self._count(path, prompt_tokens=len(prompt), completion_tokens=len(tokens))
        candidate: dict[str, Any] = {
            "content": {"parts": [{"text": reply.content}], "role": "model"},
            "finishReason": "MAX_TOKENS" if reply.finish_reason == "length" else "STOP",
            "index": 0,
        }
        if body.get("logprobs") and reply.logprobs is not False:
            top_n = int(body.get("top_logprobs") or 0)
            entries = [self._logprob_entry(t, top_n) for t in tokens]
            candidate["logprobsResult"] = {
                "chosenCandidates": [
                    {"token": e["token"], "logProbability": e["logprob"]} for e in entries
                ],
                "topCandidates": [
                    {
                        "candidates": [
                            {"token": a["token"], "logProbability": a["logprob"]}
                            for a in e["top_logprobs"]
                        ]
                    }
                    for e in entries
                ],
            }
        data = {
            "candidates": [candidate],
            "usageMetadata": {
                "promptTokenCount": len(prompt),
                "candidatesTokenCount": len(tokens),
                "totalTokenCount": len(prompt) + len(tokens),
            },
            "modelVersion": request.match_info["model"],
        }
        return web.json_response(data)

    async def _handle_anthropic(self, request: web.Request) -> web.Response:
        """The Anthropic Messages protocol, answered by the same script and responder.

        Prompt caching follows Anthropic's rule: only the prefix up to a block marked with
        `cache_control` is cacheable; reads and writes are reported in `usage`.
        """
        path = request.path
        try:
            abody = await request.json()
        except ValueError:
            abody = None
        self._record(request, abody)
        self._count(path, requests=1)
        if not isinstance(abody, dict):
            return self._anthropic_error(path, Reply.error(400, "Request body must be JSON"))
        body, marked = _anthropic_to_chat(abody)
        reply = await self._next_reply(body)
        if reply.kind == "reset":
            if request.transport is not None:
                request.transport.abort()
            return web.Response(status=204)
        if reply.kind == "error":
            return self._anthropic_error(path, reply)
        tokens = tokenize(reply.content)
        prompt = _prompt_tokens(body, self._tokenize_memo)
        cacheable = tokenize(marked) if marked else []
        read = self._cache_lookup(str(body["model"]), cacheable) if cacheable else 0
        written = len(cacheable) - read if cacheable else 0
        self._count(
            path, prompt_tokens=len(prompt), cached_tokens=read, completion_tokens=len(tokens)
        )
        data = {
            "id": "msg_fake",
            "type": "message",
            "role": "assistant",
            "model": body["model"],
            "content": [{"type": "text", "text": reply.content}],
            "stop_reason": "max_tokens" if reply.finish_reason == "length" else "end_turn",
            "stop_sequence": None,
            "usage": {
                "input_tokens": len(prompt) - read - written,
                "output_tokens": len(tokens),
                "cache_read_input_tokens": read,
                "cache_creation_input_tokens": written,
            },
        }
        return web.json_response(data, headers={"request-id": "req_fake"})

    def _anthropic_error(self, path: str, reply: Reply) -> web.Response:
        self._count(path, errors=1)
        kinds = {
            400: "invalid_request_error",
            401: "authentication_error",
            429: "rate_limit_error",
            529: "overloaded_error",
        }
        error = {"type": kinds.get(reply.status, "api_error"), "message": reply.message}
        return web.json_response(
            {"type": "error", "error": error}, status=reply.status, headers=reply.headers
        )

    def _gemini_error(self, path: str, reply: Reply) -> web.Response:
        self._count(path, errors=1)
        status_names = {
            400: "INVALID_ARGUMENT",
            401: "UNAUTHENTICATED",
            403: "PERMISSION_DENIED",
            429: "RESOURCE_EXHAUSTED",
            500: "INTERNAL",
            503: "UNAVAILABLE",
        }
        error = {
            "code": reply.status,
            "message": reply.message,
            "status": status_names.get(reply.status, "UNKNOWN"),
        }
        return web.json_response({"error": error}, status=reply.status, headers=reply.headers)

    async def _respond(self, body: dict[str, Any]) -> Reply:
        try:
            result = self.responder(body)
            if inspect.isawaitable(result):
                result = await result
            if not isinstance(result, Reply):
                raise TypeError(f"responder must return a Reply, got {type(result).__name__}")
        except Exception as exc:  # a broken responder is a test bug: say so in a 500
            _log.exception("FakeOpenAIServer responder failed")
            return Reply.error(500, f"FakeOpenAIServer responder failed: {exc!r}")
        return result

    def _capability_rejection(self, body: Mapping[str, Any]) -> Reply | None:
        rf = body.get("response_format")
        if (
            self.json_schema_support != "native"
            and isinstance(rf, Mapping)
            and rf.get("type") == "json_schema"
        ):
            status = 500 if self.json_schema_support == "reject_500" else 400
            return Reply.error(status, "response_format type 'json_schema' is not supported")
        if self.logprobs_support == "reject_400" and body.get("logprobs"):
            return Reply.error(400, "logprobs are not supported by this model", code="logprobs")
        if body.get("stream"):
            return Reply.error(400, "stream=true is not supported by FakeOpenAIServer")
        return None

    def _apply_fault(self, reply: Reply, fault: str | None) -> Reply:
        if fault is None:
            return reply
        if fault == "429":
            headers = {"Retry-After": f"{self.retry_after:g}"}
            return Reply.error(429, "Rate limit reached (fake)", headers)
        if fault == "500":
            return Reply.error(500, "The server had an error processing your request (fake)")
        if fault == "timeout":
            return Reply.delay(self.timeout_sleep, reply)
        if fault == "reset":
            return Reply.reset()
        if reply.kind != "content":
            return reply
        if fault == "truncated":
            tokens = tokenize(reply.content)
            cut = "".join(tokens[: max(1, len(tokens) // 2)])
            return Reply.truncated(cut, logprobs=reply.logprobs)
        if fault == "prose":
            return Reply.text(_PROSE, logprobs=reply.logprobs)
        content = _SCORE_RE.sub(r"\g<1>7", reply.content)  # "out_of_range"
        return Reply(
            "content", content=content, finish_reason=reply.finish_reason, logprobs=reply.logprobs
        )

    # ----------------------------------------------------------------- responses

    def _error_response(self, reply: Reply) -> web.Response:
        error = {
            "message": reply.message,
            "type": reply.error_type,
            "param": None,
            "code": reply.error_code,
        }
        return web.json_response({"error": error}, status=reply.status, headers=reply.headers)

    def _error(self, path: str, reply: Reply) -> web.Response:
        self._count(path, errors=1)
        return self._error_response(reply)

    def _completion(self, path: str, body: Mapping[str, Any], reply: Reply) -> web.Response:
        content, finish = reply.content, reply.finish_reason
        tokens = tokenize(content)
        limit = body.get("max_completion_tokens") or body.get("max_tokens")
        if isinstance(limit, int) and 0 < limit < len(tokens) and finish == "stop":
            tokens = tokens[:limit]
            content, finish = "".join(tokens), "length"
        prompt = _prompt_tokens(body, self._tokenize_memo)
        model = str(body.get("model", self.model))
        cached = self._cache_lookup(model, prompt)
        self._count(
            path, prompt_tokens=len(prompt), cached_tokens=cached, completion_tokens=len(tokens)
        )
        logprobs: dict[str, Any] | None = None
        lp_json = ""
        wants = body.get("logprobs") is True
        if wants and self.logprobs_support is True and reply.logprobs is not False:
            top_n = body.get("top_logprobs")
            top_n = max(0, min(20, top_n)) if isinstance(top_n, int) else 0
            lp_json = self._logprob_json(tokens, top_n)
            logprobs = {"content": self._marker, "refusal": None}
        with self._lock:
            self._counter += 1
            n = self._counter
        choice = {
            "index": 0,
            "message": {"role": "assistant", "content": content, "refusal": None},
            "logprobs": logprobs,
            "finish_reason": finish,
        }
        usage = {
            "prompt_tokens": len(prompt),
            "completion_tokens": len(tokens),
            "total_tokens": len(prompt) + len(tokens),
            "prompt_tokens_details": {"cached_tokens": cached},
            "completion_tokens_details": {"reasoning_tokens": 0},
        }
        data = {
            "id": f"chatcmpl-fake{n}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [choice],
            "usage": usage,
            "system_fingerprint": "fp_fake",
        }
        text = json.dumps(data, ensure_ascii=False)
        if lp_json:
            text = text.replace(f'"{self._marker}"', lp_json, 1)
        return web.Response(
            text=text, content_type="application/json", headers={"x-request-id": f"req_fake{n}"}
        )

    def _digit_alternatives(self, digit: str) -> list[tuple[str, float]]:
        chosen = int(digit)
        others = sorted({1, 2, 3} - {chosen}, key=lambda d: (abs(d - chosen), d))
        alts: list[tuple[str, float]] = []
        for i, d in enumerate([chosen, *others]):
            p = self.digit_probs[i] if i < len(self.digit_probs) else 1e-4 / (i + 1)
            alts.append((str(d), _logprob(p)))
        alts.extend((j, -9.0 - i) for i, j in enumerate(_JUNK))
        return alts

    def _logprob_entry(self, tok: str, top_n: int) -> dict[str, Any]:
        alts = self._digit_alts.get(tok)
        if alts is None:
            alts = [(tok, -0.01)]
            alts.extend((j, -4.0 - i) for i, j in enumerate(_JUNK[: top_n + 1]) if j != tok)
        top = [{"token": t, "logprob": lp, "bytes": list(t.encode())} for t, lp in alts[:top_n]]
        return {
            "token": tok,
            "logprob": alts[0][1],
            "bytes": list(tok.encode()),
            "top_logprobs": top,
        }

    def _logprob_json(self, tokens: list[str], top_n: int) -> str:
        # Serialised entries are memoised per (token, top_n): encoding hundreds of small dicts
        # per reply was the largest per-request cost.
        memo = self._logprob_memo
        parts: list[str] = []
        for tok in tokens:
            frag = memo.get((tok, top_n))
            if frag is None:
                frag = json.dumps(self._logprob_entry(tok, top_n), ensure_ascii=False)
                if len(memo) < 65536:
                    memo[(tok, top_n)] = frag
            parts.append(frag)
        return "[" + ",".join(parts) + "]"

    # ----------------------------------------------------------------- bookkeeping

    def _record(self, request: web.Request, body: Any) -> None:
        if not self.record_requests:
            return
        headers = {k.lower(): v for k, v in request.headers.items()}
        entry = {"path": request.path, "method": request.method, "headers": headers, "body": body}
        with self._lock:
            self.requests.append(entry)

    def _count(self, path: str, **deltas: int) -> None:
        with self._lock:
            stats = self._stats.get(path)
            if stats is None:
                stats = self._stats[path] = dict.fromkeys(_STAT_KEYS, 0)
            for key, value in deltas.items():
                stats[key] += value

    def _tokenize_memo(self, text: str) -> list[str]:
        # Judging sends one document to several metrics: tokenise each long text once.
        if len(text) < 256:
            return tokenize(text)
        memo = self._token_memo
        tokens = memo.get(text)
        if tokens is None:
            tokens = memo[text] = tokenize(text)
            if len(memo) > 2048:
                del memo[next(iter(memo))]
        return tokens

    def _cache_lookup(self, model: str, tokens: list[str]) -> int:
        """Longest block-aligned prefix seen before within the TTL; then remember this one."""
        block, n = self.cache_block, len(tokens)
        if n < max(self.cache_min_tokens, block):
            return 0
        now = self.clock()
        expires = now + self.cache_ttl
        h = hash(model)
        cached, hit = 0, True
        with self._lock:
            self._expire(now)
            cache = self._cache
            for end in range(block, n + 1, block):
                h = hash((h, *tokens[end - block : end]))
                if end < self.cache_min_tokens:
                    continue
                old = cache.get(h)
                if hit and old is not None and old > now:
                    cached = end
                else:
                    hit = False
                if old is None:
                    self._cache_order.append((expires, h))
                cache[h] = expires
        return cached

    def _expire(self, now: float) -> None:
        # The queue holds (expiry when queued, hash) in insertion order, one entry per stored
        # hash. A refreshed entry reaching the front is re-queued with its new expiry, so the
        # work is amortised O(1) per stored block, never a scan of the whole history.
        cache, order = self._cache, self._cache_order
        while order:
            queued, h = order[0]
            exp = cache[h]
            if len(cache) > self.cache_max_entries or exp <= now:
                order.popleft()
                del cache[h]
            elif exp != queued:
                order.popleft()
                order.append((exp, h))
            else:
                break


def _anthropic_to_chat(abody: Mapping[str, Any]) -> tuple[dict[str, Any], str]:
    """(chat-completions body, text up to the last cache_control marker) for a Messages body."""
    messages: list[dict[str, Any]] = []
    seen: list[str] = []
    marked = ""

    def blocks(value: Any) -> str:
        nonlocal marked
        if isinstance(value, str):
            seen.append(value)
            return value
        out = []
        for b in value or []:
            text = str(b.get("text", ""))
            out.append(text)
            seen.append(text)
            if b.get("cache_control"):
                marked = "".join(seen)
        return "".join(out)

    system = blocks(abody.get("system"))
    if system:
        messages.append({"role": "system", "content": system})
    for m in abody.get("messages", []):
        messages.append({"role": m.get("role", "user"), "content": blocks(m.get("content"))})
    body: dict[str, Any] = {"model": str(abody.get("model", "claude")), "messages": messages}
    fmt = ((abody.get("output_config") or {}).get("format")) or {}
    if isinstance(fmt.get("schema"), dict):
        body["response_format"] = {"type": "json_schema", "json_schema": {"schema": fmt["schema"]}}
    if abody.get("max_tokens"):
        body["max_completion_tokens"] = abody["max_tokens"]
    return body, marked


def _gemini_to_chat(gbody: Mapping[str, Any], model: str) -> dict[str, Any]:
    """A chat-completions body equivalent to a Gemini request, for the shared responder."""
    messages: list[dict[str, Any]] = []
    system = gbody.get("systemInstruction") or {}
    sys_text = "".join(p.get("text", "") for p in system.get("parts", []))
    if sys_text:
        messages.append({"role": "system", "content": sys_text})
    for c in gbody.get("contents", []):
        text = "".join(p.get("text", "") for p in c.get("parts", []))
        messages.append(
            {"role": "assistant" if c.get("role") == "model" else "user", "content": text}
        )
    cfg = gbody.get("generationConfig") or {}
    body: dict[str, Any] = {"model": model, "messages": messages}
    schema = cfg.get("responseJsonSchema") or cfg.get("responseSchema")
    if isinstance(schema, dict):
        body["response_format"] = {"type": "json_schema", "json_schema": {"schema": schema}}
    if cfg.get("responseLogprobs"):
        body["logprobs"] = True
        body["top_logprobs"] = cfg.get("logprobs", 0)
    if cfg.get("maxOutputTokens"):
        body["max_completion_tokens"] = cfg["maxOutputTokens"]
    return body


# --------------------------------------------------------------------------- CLI


def main(argv: Sequence[str] | None = None) -> int:
    """Run the fake server until SIGTERM/SIGINT."""
    p = argparse.ArgumentParser(
        prog="python -m sumjudge.testing.openai_server",
        description="Local OpenAI-compatible chat-completions server for tests and benchmarks.",
    )
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--model", default="fake-model")
    p.add_argument("--latency", type=float, default=0.0)
    p.add_argument("--jitter", type=float, default=0.0)
    p.add_argument("--error-rate", type=float, default=0.0)
    p.add_argument("--faults", default=",".join(FAULTS), help="comma-separated fault kinds")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--timeout-sleep", type=float, default=30.0)
    p.add_argument("--retry-after", type=float, default=0.0)
    p.add_argument("--json-schema-support", choices=["native", "reject_500", "reject_400"])
    p.add_argument("--logprobs-support", choices=["true", "false", "reject_400"], default="true")
    p.add_argument("--raw-newlines", action="store_true")
    p.add_argument("--cache-block", type=int, default=64)
    p.add_argument("--cache-min-tokens", type=int, default=256)
    p.add_argument("--cache-ttl", type=float, default=300.0)
    p.add_argument("--record-requests", action="store_true", help="keep requests in memory")
    p.add_argument("--print-url", action="store_true", help="print the base URL on stdout")
    args = p.parse_args(argv)
    logprobs: bool | Literal["reject_400"] = {"true": True, "false": False}.get(
        args.logprobs_support, "reject_400"
    )
    srv = FakeOpenAIServer(
        host=args.host,
        port=args.port,
        model=args.model,
        latency=args.latency,
        jitter=args.jitter,
        error_rate=args.error_rate,
        faults=[f for f in args.faults.split(",") if f],
        seed=args.seed,
        timeout_sleep=args.timeout_sleep,
        retry_after=args.retry_after,
        json_schema_support=args.json_schema_support or "native",
        logprobs_support=logprobs,
        raw_newlines_in_strings=args.raw_newlines,
        cache_block=args.cache_block,
        cache_min_tokens=args.cache_min_tokens,
        cache_ttl=args.cache_ttl,
        record_requests=args.record_requests,
    )
    done = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        done.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    with srv:
        if args.print_url:
            print(srv.base_url, flush=True)
        print(f"FakeOpenAIServer serving on {srv.base_url}", file=sys.stderr, flush=True)
        while not done.wait(0.5):
            pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
