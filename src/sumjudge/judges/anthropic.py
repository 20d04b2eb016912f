"""Judge adapter for Anthropic Claude through the official `anthropic` SDK (the `anthropic` extra).

Notes from PROVIDERS.md: the SDK no longer accepts `temperature`; we do not send it.
Anthropic offers no logprobs, so metrics judged by Claude always report
`score_mode: "parsed"` with the reason. The boundaries between message parts carry
`cache_control` breakpoints so the shared per-item prefix is cached across metrics.
"""

from __future__ import annotations

import time
from typing import Any

from ..errors import MissingDependencyError, ProviderError
from ..protocol import JudgeRequest, JudgeResponse, Usage
from ._http import SDKJudge, provider_text, resolve_key, sdk_error

__all__ = ["AnthropicJudge"]

_MAX_BREAKPOINTS = 4  # Anthropic allows at most four cache_control markers per request


class AnthropicJudge(SDKJudge):
    """Judge through `anthropic.AsyncAnthropic().messages.create`."""

    provider = "anthropic"
    env_var = "ANTHROPIC_API_KEY"

    def _connect(self, api_key: str | None, base_url: str | None, timeout: float) -> str | None:
        try:
            import anthropic
        except ImportError as exc:
            raise MissingDependencyError(
                "anthropic", "anthropic", feature=f"judging with {self.name}"
            ) from exc
        self._anthropic = anthropic
        key = resolve_key(api_key, self.env_var, "Anthropic", required=True)
        self._client = anthropic.AsyncAnthropic(
            api_key=key, base_url=base_url, timeout=timeout, max_retries=0
        )
        return base_url

    def _messages(self, request: JudgeRequest) -> tuple[list[dict[str, Any]], list[Any]]:
        budget = _MAX_BREAKPOINTS
        system: list[dict[str, Any]] = []
        messages: list[dict[str, Any]] = []
        for m in request.messages:
            blocks: list[dict[str, Any]] = []
            for i, part in enumerate(m.parts):
                if not part:
                    continue
                block: dict[str, Any] = {"type": "text", "text": part}
                # Mark the end of every stable part (all but a message's last part).
                if i < len(m.parts) - 1 and budget > 0:
                    block["cache_control"] = {"type": "ephemeral"}
                    budget -= 1
                blocks.append(block)
            if m.role == "system":
                system.extend(blocks)
            else:
                messages.append({"role": m.role, "content": blocks})
        return messages, system

    def _kwargs(self, request: JudgeRequest) -> dict[str, Any]:
        """The Messages parameters of `request` (online, and in a message batch)."""
        messages, system = self._messages(request)
        kwargs: dict[str, Any] = {
            "model": self.model,
            "max_tokens": request.max_tokens,
            "messages": messages,
        }
        if system:
            kwargs["system"] = system
        if request.schema is not None:
            kwargs["output_config"] = {"format": {"type": "json_schema", "schema": request.schema}}
        return kwargs

    async def complete(self, request: JudgeRequest) -> JudgeResponse:
        """Make one Messages call; the reply never has logprobs."""
        kwargs = self._kwargs(request)
        started = time.perf_counter()
        try:
            msg = await self._client.messages.create(**kwargs)
        except self._anthropic.APIError as exc:
            raise self._map_error(exc) from exc
        return self._to_response(msg, request, time.perf_counter() - started)

    def _to_response(self, msg: Any, request: JudgeRequest, latency: float) -> JudgeResponse:
        """Our response of an SDK `Message` (online, and a message batch's result)."""
        text = "".join(getattr(b, "text", "") for b in msg.content if b.type == "text")
        u = msg.usage
        usage = Usage(
            prompt_tokens=(u.input_tokens or 0)
            + (u.cache_read_input_tokens or 0)
            + (u.cache_creation_input_tokens or 0),
            completion_tokens=u.output_tokens or 0,
            cached_prompt_tokens=u.cache_read_input_tokens or 0,
            cache_write_tokens=u.cache_creation_input_tokens or 0,
        )
        return JudgeResponse(
            text=text,
            finish_reason=str(msg.stop_reason or "end_turn"),
            usage=usage,
            logprobs=None,
            logprobs_note="Anthropic's API offers no token logprobs" if request.logprobs else None,
            latency_s=latency,
            model=msg.model or self.model,
        )

    def _map_error(self, exc: Exception) -> ProviderError:
        return sdk_error(
            self._anthropic,
            exc,
            detail=lambda e: provider_text(getattr(e, "api_message", None) or e),
            refused=f"Anthropic refused the credentials (HTTP {{status}}). Check {self.env_var}.",
            label="anthropic",
        )
