"""`FakeOpenAIServer`: the fake server's HTTP lifecycle and routes, on `core.ServerCore`.

The protocols it speaks live in `route_openai`, `route_gemini` and `route_anthropic`; each
turns its requests into a chat-completions body, so one script and one responder answer all.
"""

from __future__ import annotations

import asyncio
import threading
from functools import partial

from aiohttp import web

from . import (
    route_anthropic,
    route_anthropic_batch,
    route_gemini,
    route_gemini_batch,
    route_openai,
    route_openai_batch,
)
from .core import ServerCore

__all__ = ["FakeOpenAIServer"]


class FakeOpenAIServer(ServerCore):
    """A local OpenAI-compatible server (`POST /v1/chat/completions`) on 127.0.0.1.

    It also answers Gemini `generateContent` and Anthropic Messages requests. Use it as
    `with FakeOpenAIServer() as srv:` or `async with ...`; point a client at `srv.base_url`.
    Scripted replies (`srv.enqueue(Reply...)`) are consumed in order; when the queue is empty
    `srv.responder(body)` answers (default: a value built from the request's JSON schema).
    `error_rate` injects faults only into responder answers, never into scripted ones.

    The keyword arguments are the fields of `ServerOptions` (documented there), kept as
    attributes of the same names.
    """

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
        app = web.Application(client_max_size=256 * 1024 * 1024)  # batch input files
        route_openai.add_routes(app, self)
        route_openai_batch.add_routes(app, self)
        app.router.add_get("/stats", self._handle_stats)
        app.router.add_post("/stats/reset", self._handle_stats_reset)
        app.router.add_post(
            "/{version}/models/{model}:generateContent", partial(route_gemini.handle, self)
        )
        app.router.add_post("/v1/messages", partial(route_anthropic.handle, self))
        route_anthropic_batch.add_routes(app, self)
        route_gemini_batch.add_routes(app, self)
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
