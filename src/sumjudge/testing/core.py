"""The fake server's core: its state, the reply script and the bookkeeping its routes share.

The route modules (`route_openai`, `route_gemini`, `route_anthropic`) are written against
`ServerCore`; `server.FakeOpenAIServer` adds the HTTP lifecycle on top.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import random
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from aiohttp import web

from .batches import BatchStore
from .logprobs import FakeLogprobs
from .options import ServerOptions
from .prefix_cache import PrefixCache
from .replies import BROKEN_BODY, Reply, Responder, tokenize
from .schema_fill import default_reply

__all__ = ["ServerCore"]

_log = logging.getLogger(__name__)

_STAT_KEYS = ("requests", "errors", "prompt_tokens", "cached_tokens", "completion_tokens")
_T = TypeVar("_T")


class ServerCore(ServerOptions):
    """The fake server's state and the steps its routes share (scripting, faults, stats).

    The route modules are written against this class; `FakeOpenAIServer` adds the HTTP
    lifecycle and wires the routes.
    """

    def __post_init__(self) -> None:
        """Validate the options and set up the empty script, counters and caches."""
        super().__post_init__()
        self.responder: Responder = self.default_reply
        self.requests: list[dict[str, Any]] = []

        self._lock = threading.Lock()
        self._queue: deque[Reply] = deque()
        self._fault_rng = random.Random(self.seed)
        self._latency_rng = random.Random(self.seed + 1)
        self._stats: dict[str, dict[str, int]] = {}
        self._prefix_cache = PrefixCache(self)
        self._counter = 0
        self._token_memo: dict[str, list[str]] = {}  # used on the server thread only
        self._logprobs = FakeLogprobs(self.digit_probs)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self.batches = BatchStore(self)

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
        """Totals and per-path counts of requests, errors and tokens.

        Besides prompt, cached and completion tokens it reports `billed_input_tokens`
        (uncached + 0.1 * cached).
        """
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
                self._prefix_cache.clear()

    def default_reply(self, body: dict[str, Any]) -> Reply:
        """A valid answer for `body`: filled from its JSON schema, else explanation + score."""
        return default_reply(body, self.raw_newlines_in_strings)

    # ----------------------------------------------------------------- lifecycle

    # ----------------------------------------------------------------- for the route modules

    async def _receive(self, request: web.Request) -> Any:
        """The request's JSON body (None when it is not JSON), recorded and counted."""
        try:
            body = await request.json()
        except ValueError:
            body = None
        self._record(request, body)
        self._count(request.path, requests=1)
        return body

    def capability_rejection(self, body: Mapping[str, Any]) -> Reply | None:
        """The error a server without a requested feature answers, or None."""
        srv = self
        rf = body.get("response_format")
        if (
            srv.json_schema_support != "native"
            and isinstance(rf, Mapping)
            and rf.get("type") == "json_schema"
        ):
            status = 500 if srv.json_schema_support == "reject_500" else 400
            return Reply.error(status, "response_format type 'json_schema' is not supported")
        if srv.logprobs_support == "reject_400" and body.get("logprobs"):
            return Reply.error(400, "logprobs are not supported by this model", code="logprobs")
        if body.get("stream"):
            return Reply.error(400, "stream=true is not supported by FakeOpenAIServer")
        return None

    def _pop_scripted(self) -> Reply | None:
        with self._lock:
            return self._queue.popleft() if self._queue else None

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

    async def _settle(self, reply: Reply | None, body: dict[str, Any]) -> Reply:
        """`reply` (or the responder's when None) after waiting out its delays."""
        if reply is None:
            reply = await self._respond(body)
        while reply.kind == "delay":
            await asyncio.sleep(reply.seconds)
            reply = reply.then if reply.then is not None else await self._respond(body)
        return reply

    async def _serve_scripted(
        self,
        request: web.Request,
        convert: Callable[[dict[str, Any]], tuple[dict[str, Any], _T]],
        render: Callable[[dict[str, Any], Reply, _T], web.Response],
        error_payload: Callable[[Reply], dict[str, Any]],
    ) -> web.Response:
        """Answer a non-OpenAI request by the script or the responder, without faults.

        Args:
            request: The incoming request.
            convert: Its JSON body -> (the equivalent chat-completions body, extra data).
            render: (chat body, reply, extra data) -> the protocol's success response.
            error_payload: The protocol's JSON error body for an error reply.

        Returns:
            The response to send.
        """
        path = request.path
        raw = await self._receive(request)
        if not isinstance(raw, dict):
            return self._error(path, Reply.error(400, "Request body must be JSON"), error_payload)
        body, extra = convert(raw)
        reply = await self._settle(self._pop_scripted(), body)
        failed = self._failure(request, reply, error_payload)
        return failed if failed is not None else render(body, reply, extra)

    def _failure(
        self, request: web.Request, reply: Reply, error_payload: Callable[[Reply], dict[str, Any]]
    ) -> web.Response | None:
        """The answer to a reply that is a failure (reset, error, broken), counted; else None.

        Every protocol fails the same way; only the error body (`error_payload`) differs.
        """
        path = request.path
        if reply.kind == "reset":
            self._count(path, errors=1)
            return self._abort(request)
        if reply.kind == "error":
            return self._error(path, reply, error_payload)
        if reply.kind == "broken":
            self._count(path, errors=1)
            return web.Response(status=200, text=BROKEN_BODY, content_type="application/json")
        return None

    def _error(
        self, path: str, reply: Reply, payload: Callable[[Reply], dict[str, Any]]
    ) -> web.Response:
        """Count an error on `path` and send `reply` with the protocol's error body."""
        self._count(path, errors=1)
        return web.json_response(payload(reply), status=reply.status, headers=reply.headers)

    @staticmethod
    def _abort(request: web.Request) -> web.Response:
        """Drop the connection without an answer (the client sees a connection error)."""
        if request.transport is not None:
            request.transport.abort()
        return web.Response(status=204)

    def _next_id(self) -> int:
        with self._lock:
            self._counter += 1
            return self._counter

    def _record(self, request: web.Request, body: Any) -> None:
        if not self.record_requests:
            return
        headers = {k.lower(): v for k, v in request.headers.items()}
        entry = {
            "path": request.path,
            "method": request.method,
            "headers": headers,
            "body": body,
            "at": time.monotonic(),  # arrival, for checks of the busiest window
        }
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

    def _prompt_tokens(self, body: Mapping[str, Any]) -> list[str]:
        """The tokens of a chat body's roles and message texts."""
        tokens: list[str] = []
        messages = body.get("messages")
        for msg in messages if isinstance(messages, list) else []:
            if not isinstance(msg, Mapping):
                continue
            tokens.extend(self._tokenize_memo(str(msg.get("role", ""))))
            content = msg.get("content")
            if isinstance(content, str):
                tokens.extend(self._tokenize_memo(content))
            elif isinstance(content, list):
                for part in content:
                    if isinstance(part, Mapping) and isinstance(part.get("text"), str):
                        tokens.extend(self._tokenize_memo(part["text"]))
        return tokens
