"""The review page's web server: aiohttp on 127.0.0.1 only, a small JSON API, one page.

Routes:

- `GET /`: the page (its CSS and JS inline; a Content-Security-Policy allows nothing
  else, so the page fetches nothing from anywhere but this server).
- `GET /api/items`: the review order, which items are labelled, where to start.
- `GET /api/item?id=ID`: one item with this reviewer's label.
- `POST /api/label`: one label (JSON), appended to the log before the answer.

Two guards, because any web page the reviewer has open can make their browser send
requests to 127.0.0.1: every request's `Host` must be `127.0.0.1:<port>` (a DNS-rebinding
page sends its own host name), and every API call must carry the per-run token that only
our page holds (`X-Review-Token`), with a JSON content type (a cross-site form cannot send
one without a CORS preflight, which we never answer).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import secrets
import signal
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from .page import render_page
from .session import LabelRejected, ReviewSession

__all__ = ["HOST", "TOKEN_HEADER", "make_app", "serve"]

HOST = "127.0.0.1"
TOKEN_HEADER = "X-Review-Token"
SESSION: web.AppKey[ReviewSession] = web.AppKey("session", ReviewSession)
TOKEN: web.AppKey[str] = web.AppKey("token", str)
# The bound port is known only once the site listens (port 0 picks one), so the Host
# guard reads it from this one-element list at request time.
PORT: web.AppKey[list[int]] = web.AppKey("port", list)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _json(data: Any, status: int = 200) -> web.Response:
    return web.json_response(data, status=status, headers={"Cache-Control": "no-store"})


@web.middleware
async def _guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    port = request.app[PORT][0]
    if request.headers.get("Host") != f"{HOST}:{port}":
        return web.Response(status=403, text="wrong Host: open the address sumjudge printed\n")
    if request.path.startswith("/api/"):
        given = request.headers.get(TOKEN_HEADER, "")
        if not hmac.compare_digest(given.encode(), request.app[TOKEN].encode()):
            return _json({"error": "missing or wrong review token"}, 403)
        origin = request.headers.get("Origin")
        if origin is not None and origin != f"http://{HOST}:{port}":
            return _json({"error": "cross-origin request refused"}, 403)
        if request.method == "POST" and request.content_type != "application/json":
            return _json({"error": "send the label as application/json"}, 415)
    return await handler(request)


async def _page(request: web.Request) -> web.Response:
    nonce = secrets.token_urlsafe(16)
    csp = (
        f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )
    return web.Response(
        text=render_page(request.app[TOKEN], nonce),
        content_type="text/html",
        charset="utf-8",
        headers={
            "Content-Security-Policy": csp,
            "Cache-Control": "no-store",
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
        },
    )


async def _items(request: web.Request) -> web.Response:
    return _json(request.app[SESSION].listing())


async def _item(request: web.Request) -> web.Response:
    data = request.app[SESSION].item(request.query.get("id", ""))
    return _json(data) if data is not None else _json({"error": "unknown item id"}, 404)


async def _label(request: web.Request) -> web.Response:
    try:
        body = json.loads(await request.text())
    except (json.JSONDecodeError, UnicodeDecodeError):
        return _json({"error": "the body is not JSON"}, 400)
    try:
        return _json(request.app[SESSION].record(body))
    except LabelRejected as exc:
        return _json({"error": str(exc)}, 400)


def make_app(session: ReviewSession, token: str, port: int = 0) -> web.Application:
    """The review application (`port`: the one the Host guard expects; updated by `serve`)."""
    app = web.Application(middlewares=[_guard], client_max_size=256 * 1024)
    app[SESSION] = session
    app[TOKEN] = token
    app[PORT] = [port]
    app.router.add_get("/", _page)
    app.router.add_get("/api/items", _items)
    app.router.add_get("/api/item", _item)
    app.router.add_post("/api/label", _label)
    return app


async def serve(
    session: ReviewSession,
    port: int = 0,
    *,
    on_ready: Callable[[str], None] | None = None,
    stop: asyncio.Event | None = None,
) -> None:
    """Serve the review on 127.0.0.1 until `stop` is set, SIGINT or SIGTERM.

    Args:
        session: What to serve.
        port: The port (0: a free one).
        on_ready: Called with the page's URL once the server listens.
        stop: Set it to stop the server (tests); signals set it too.

    Raises:
        OSError: The port cannot be bound (in use, not permitted).
    """
    stop = stop or asyncio.Event()
    app = make_app(session, secrets.token_urlsafe(24), port)
    runner = web.AppRunner(app, access_log=None, handle_signals=False)
    await runner.setup()
    loop = asyncio.get_running_loop()
    handled: list[signal.Signals] = []
    try:
        site = web.TCPSite(runner, HOST, port)
        await site.start()
        bound = int(runner.addresses[0][1])
        app[PORT][0] = bound
        for sig in (signal.SIGINT, signal.SIGTERM):
            # Not available off the main thread or on Windows: Ctrl-C then raises
            # KeyboardInterrupt, which the CLI turns into the same closing line.
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, stop.set)
                handled.append(sig)
        if on_ready is not None:
            on_ready(f"http://{HOST}:{bound}/")
        await stop.wait()
    finally:
        for sig in handled:
            loop.remove_signal_handler(sig)
        await runner.cleanup()
