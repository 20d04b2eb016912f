"""The direct HTTP path of the OpenAI adapter: chat completions over aiohttp, without the SDK.

Why it exists: against a self-hosted server (vLLM, llama.cpp, the test server) the openai
SDK costs several milliseconds of client CPU per call, mostly in walking the TypedDict
annotations of every request body and in its connection pool's per-request bookkeeping,
which caps one process far below what the server can answer (`docs/http.md`). This path
posts the body `OpenAIJudge` builds and hands the status, headers and bytes back to the
adapter, which reads them with the same code as the SDK path: the capability fallbacks,
truncation, usage, logprobs and the status -> error table all live in `openai.py` and
`_http.py`, not here. What this module owns is only the transport, and the reading of
an error body the way the SDK reads it (`error_body`), so that both paths quote the
server's message identically.
"""

from __future__ import annotations

import asyncio
import json
import urllib.parse
import urllib.request
from collections.abc import Mapping
from typing import Any

from .. import fastjson
from .._version import __version__
from ..errors import ConnectionFailedError, TransientProviderError

__all__ = ["DirectChat", "env_proxy", "error_body"]

# The openai SDK's own pool limit (DEFAULT_CONNECTION_LIMITS); the runner bounds concurrency.
_MAX_CONNECTIONS = 1000


class DirectChat:
    """POST chat-completions bodies to one OpenAI-compatible server with aiohttp.

    Args:
        base_url: The server's OpenAI base URL, e.g. "http://127.0.0.1:8000/v1".
        api_key: Sent as `Authorization: Bearer <key>`, as the SDK sends it.
        timeout: Seconds to connect and seconds between bytes of the reply (httpx's
            per-operation meaning, which the SDK path has); the runner's own per-call
            timeout bounds the whole call.
    """

    def __init__(self, base_url: str, api_key: str, timeout: float) -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self._headers = {
            "Authorization": f"Bearer {api_key}",
            "Content-Type": "application/json",
            "Accept": "application/json",
            "User-Agent": f"sumjudge/{__version__}",
        }
        self._timeout = timeout
        self._proxy = env_proxy(self.url)
        self._session: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _open(self) -> Any:
        """The session of the running loop (aiohttp sessions are bound to their loop)."""
        loop = asyncio.get_running_loop()
        if self._session is None or self._loop is not loop or self._session.closed:
            import aiohttp

            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=_MAX_CONNECTIONS),
                timeout=aiohttp.ClientTimeout(
                    total=None, sock_connect=self._timeout, sock_read=self._timeout
                ),
                headers=self._headers,
                # trust_env would look ~/.netrc up in a thread on every request; the one
                # thing of the environment httpx (so the SDK) honours here is the proxy,
                # resolved once (`env_proxy`).
                trust_env=False,
            )
            self._loop = loop
        return self._session

    async def post(self, body: Mapping[str, Any]) -> tuple[int, Mapping[str, str], bytes]:
        """Send one body; return the status, headers and raw reply of any HTTP answer.

        Raises:
            TransientProviderError: no HTTP answer (timeout, refused or dropped connection),
                worded as the SDK path words `APITimeoutError` / `APIConnectionError`.
        """
        import aiohttp

        # the compact JSON of the body; by orjson when installed (5x faster, same values)
        data = fastjson.dumps(body)
        try:
            async with self._open().post(self.url, data=data, proxy=self._proxy) as resp:
                return resp.status, resp.headers, await resp.read()
        except asyncio.TimeoutError as exc:
            raise TransientProviderError("the request timed out") from exc
        except (aiohttp.ClientError, OSError) as exc:
            raise ConnectionFailedError(f"connection failed: {exc}") from exc

    async def aclose(self) -> None:
        """Close the session, if one was opened on the running loop."""
        session, self._session = self._session, None
        if session is not None and not session.closed:
            await session.close()


def env_proxy(url: str) -> str | None:
    """The proxy for `url` from $HTTP(S)_PROXY / $ALL_PROXY, unless $NO_PROXY exempts it."""
    parts = urllib.parse.urlsplit(url)
    if urllib.request.proxy_bypass(parts.hostname or ""):
        return None
    proxies = urllib.request.getproxies()
    return proxies.get(parts.scheme) or proxies.get("all") or None


def error_body(status: int, content: bytes) -> tuple[object, str]:
    """An error reply's body and message as the openai SDK makes them for `APIStatusError`.

    The SDK keeps the JSON body (or the text when it is not JSON) and narrows a mapping to
    its "error" member; its message is "Error code: N", plus " - <message>" when the body
    names one. `openai._error_detail` reads the two the same way on both paths.
    """
    message = f"Error code: {status}"
    text = content.decode("utf-8", errors="replace").strip()
    body: object = text
    try:
        body = json.loads(text)
    except ValueError:
        pass
    else:
        error = body.get("error", body) if isinstance(body, Mapping) else None
        inner = error.get("message") if isinstance(error, Mapping) else None
        if isinstance(inner, str) and inner:
            message += f" - {inner}"
    if isinstance(body, Mapping):
        body = body.get("error", body)
    return body, message
