"""Judge adapter for Google Gemini through the official `google-genai` SDK."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from ..errors import (
    ConnectionFailedError,
    MissingDependencyError,
    ProviderError,
    RequestError,
    TransientProviderError,
)
from ..protocol import JudgeRequest, JudgeResponse, TokenLogprob, Usage
from ._http import SDKJudge, provider_text, resolve_key, retry_after_seconds, status_error

__all__ = ["GoogleJudge"]


class GoogleJudge(SDKJudge):
    """Judge through `google.genai` (`client.aio.models.generate_content`).

    Args:
        model: e.g. "gemini-2.5-flash" (without the "google/" prefix).
        api_key: the key; defaults to $GOOGLE_API_KEY.
        base_url: another endpoint speaking the Gemini API (tests, proxies).
        timeout: seconds per call (the SDK has no default timeout; we always set one).
    """

    provider = "google"
    env_var = "GOOGLE_API_KEY"

    def _connect(self, api_key: str | None, base_url: str | None, timeout: float) -> str | None:
        try:
            from google import genai
            from google.genai import types
        except ImportError as exc:  # the `google` extra
            raise MissingDependencyError(
                "google-genai", "google", feature=f"judging with {self.name}"
            ) from exc

        self._types = types
        key = resolve_key(api_key, self.env_var, "Google", required=True)
        options: dict[str, Any] = {
            "timeout": int(timeout * 1000),  # google-genai counts milliseconds
            "api_version": "v1beta",
            # One attempt: our runner owns retries. Without explicit retry options the SDK
            # silently retries aiohttp connection errors after sleeping 1-10 s.
            "retry_options": types.HttpRetryOptions(attempts=1),
        }
        if base_url:
            options["base_url"] = base_url
        self._client = genai.Client(api_key=key, http_options=types.HttpOptions(**options))
        self._logprobs_ok = True
        self.capability_notes: list[str] = []
        return base_url

    async def aclose(self) -> None:
        """Release the client's connections."""
        await self._client.aio.aclose()

    def _config(self, request: JudgeRequest) -> Any:
        t = self._types
        system = "\n".join(m.content for m in request.messages if m.role == "system")
        cfg: dict[str, Any] = {
            "temperature": request.temperature,
            "max_output_tokens": request.max_tokens,
        }
        if system:
            cfg["system_instruction"] = system
        if request.schema is not None:
            cfg["response_mime_type"] = "application/json"
            cfg["response_json_schema"] = request.schema
        if request.logprobs and self._logprobs_ok:
            cfg["response_logprobs"] = True
            cfg["logprobs"] = request.top_logprobs
        return t.GenerateContentConfig(**cfg)

    def _contents(self, request: JudgeRequest) -> list[Any]:
        """The request's messages as Gemini contents (the system text goes in the config)."""
        t = self._types
        return [
            t.Content(
                role="model" if m.role == "assistant" else "user", parts=[t.Part(text=m.content)]
            )
            for m in request.messages
            if m.role != "system"
        ]

    async def complete(self, request: JudgeRequest) -> JudgeResponse:
        """Make one `generate_content` call (repeated once if the model refuses logprobs)."""
        contents = self._contents(request)
        while True:
            config = self._config(request)
            started = time.perf_counter()
            try:
                resp = await self._client.aio.models.generate_content(
                    model=self.model, contents=contents, config=config
                )
            except Exception as exc:
                error = self._map_error(exc)
                if (
                    isinstance(error, RequestError)
                    and self._logprobs_ok
                    and request.logprobs
                    and "logprob" in str(error).lower()
                ):
                    self._logprobs_ok = False
                    self.capability_notes.append("model rejected logprobs")
                    continue
                raise error from exc
            return self._to_response(resp, request, time.perf_counter() - started)

    def _to_response(self, resp: Any, request: JudgeRequest, latency: float) -> JudgeResponse:
        if not resp.candidates:
            raise TransientProviderError("Gemini returned no candidates (blocked or empty)")
        cand = resp.candidates[0]
        finish = str(getattr(cand.finish_reason, "value", cand.finish_reason) or "STOP")
        um = resp.usage_metadata
        usage = Usage()
        if um is not None:
            usage = Usage(
                prompt_tokens=um.prompt_token_count or 0,
                completion_tokens=(um.candidates_token_count or 0) + (um.thoughts_token_count or 0),
                cached_prompt_tokens=um.cached_content_token_count or 0,
            )
        text = resp.text or ""
        logprobs: tuple[TokenLogprob, ...] | None = None
        note: str | None = None
        if request.logprobs:
            result = getattr(cand, "logprobs_result", None)
            chosen = getattr(result, "chosen_candidates", None) if result else None
            tops = getattr(result, "top_candidates", None) if result else None
            if chosen:
                items = []
                for i, c in enumerate(chosen):
                    alts: tuple[tuple[str, float], ...] = ()
                    if tops and i < len(tops) and tops[i].candidates:
                        alts = tuple(
                            (a.token or "", float(a.log_probability or 0.0))
                            for a in tops[i].candidates
                        )
                    items.append(TokenLogprob(c.token or "", float(c.log_probability or 0.0), alts))
                logprobs = tuple(items)
            else:
                note = "; ".join(self.capability_notes) or "the model returned no logprobs"
        return JudgeResponse(
            text=text,
            parsed=None,  # we parse the text ourselves so every provider goes the same path
            finish_reason=finish.lower(),
            usage=usage,
            logprobs=logprobs,
            logprobs_note=note,
            latency_s=latency,
            model=self.model,
        )

    def _map_error(self, exc: Exception) -> ProviderError:
        from google.genai import errors as gerrors

        try:
            import httpx2
        except ImportError:  # pragma: no cover - google-genai depends on it
            httpx2 = None  # type: ignore[assignment]
        if httpx2 is not None and isinstance(exc, httpx2.TimeoutException):
            return TransientProviderError("the request timed out")
        if httpx2 is not None and isinstance(exc, httpx2.TransportError):
            return ConnectionFailedError(f"connection failed: {exc}")
        # With aiohttp installed the SDK uses it for async calls; its errors are not wrapped.
        if isinstance(exc, asyncio.TimeoutError):
            return TransientProviderError(f"connection failed: {type(exc).__name__}: {exc}")
        if type(exc).__module__.startswith("aiohttp"):
            return ConnectionFailedError(f"connection failed: {type(exc).__name__}: {exc}")
        if isinstance(exc, gerrors.APIError):
            headers = getattr(getattr(exc, "response", None), "headers", None)
            return status_error(
                int(exc.code or 0),
                provider_text(f"{exc.status}: {exc.message}"),
                retry_after=retry_after_seconds(headers),
                refused=f"Google refused the credentials (HTTP {{status}}). Check {self.env_var}.",
            )
        return ProviderError(f"unexpected google-genai error: {type(exc).__name__}: {exc}")
