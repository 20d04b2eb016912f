"""`FakeOpenAIServer`: the lifecycle, the reply script and the bookkeeping of the fake server.

The protocols it speaks live in `route_openai`, `route_gemini` and `route_anthropic`; each
turns its requests into a chat-completions body, so one script and one responder answer all.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import random
import threading
from collections import deque
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, TypeVar

from aiohttp import web

from . import route_anthropic, route_gemini, route_openai
from .logprobs import FakeLogprobs
from .options import ServerOptions
from .prefix_cache import PrefixCache
from .replies import Reply, Responder, tokenize
from .schema_fill import default_reply

__all__ = ["FakeOpenAIServer"]

_log = logging.getLogger(__name__)

_STAT_KEYS = ("requests", "errors", "prompt_tokens", "cached_tokens", "completion_tokens")
_T = TypeVar("_T")


class FakeOpenAIServer(ServerOptions):
    """A local OpenAI-compatible server (`POST /v1/chat/completions`) on 127.0.0.1.

    It also answers Gemini `generateContent` and Anthropic Messages requests. Use it as
    `with FakeOpenAIServer() as srv:` or `async with ...`; point a client at `srv.base_url`.
    Scripted replies (`srv.enqueue(Reply...)`) are consumed in order; when the queue is empty
    `srv.responder(body)` answers (default: a value built from the request's JSON schema).
    `error_rate` injects faults only into responder answers, never into scripted ones.

    The keyword arguments are the fields of `ServerOptions` (documented there), kept as
    attributes of the same names.
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

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    async def __aenter__(self) -> FakeOpenAIServer:
        return await asyncio.to_thread(self.start)

    async def __aexit__(self, *exc_info: object) -> None:
        await asyncio.to_thread(self.stop)

    async def _astart(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        route_openai.add_routes(app, self)
        app.router.add_get("/stats", self._handle_stats)
        app.router.add_post("/stats/reset", self._handle_stats_reset)
        app.router.add_post(
            "/{version}/models/{model}:generateContent", partial(route_gemini.handle, self)
        )
        app.router.add_post("/v1/messages", partial(route_anthropic.handle, self))
        app.router.add_route("*", "/{tail:.*}", route_openai.handle_not_found)
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

    async def _handle_stats(self, request: web.Request) -> web.Response:
        return web.json_response(self.stats())

    async def _handle_stats_reset(self, request: web.Request) -> web.Response:
        clear = request.query.get("cache", "").lower() in ("1", "true", "yes")
        self.reset_stats(clear_cache=clear)
        return web.json_response({"ok": True})

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
        if reply.kind == "reset":
            return self._abort(request)
        if reply.kind == "error":
            return self._error(path, reply, error_payload)
        return render(body, reply, extra)

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
