"""Resolve "provider/model" names to judges.

Built-in providers are registered the same way as third-party ones: a factory per
provider name, importing its SDK only when used. Plugins add providers through the
`sumjudge.judges` entry-point group (the entry point loads a factory with the signature
`(model, *, api_key, base_url, timeout) -> Judge`).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

from ..errors import ConfigError
from ..protocol import Judge

__all__ = ["JudgeFactory", "available_providers", "get_judge", "register_provider"]

JudgeFactory = Callable[..., Judge]


def _openai(model: str, **kw: Any) -> Judge:
    from .openai import OpenAIJudge

    return OpenAIJudge(model, **kw)


def _google(model: str, **kw: Any) -> Judge:
    from .google import GoogleJudge

    return GoogleJudge(model, **kw)


def _local(model: str, **kw: Any) -> Judge:
    from .offline import OfflineJudge

    return OfflineJudge(model)


def _anthropic(model: str, **kw: Any) -> Judge:
    from .anthropic import AnthropicJudge

    return AnthropicJudge(model, **kw)


_PROVIDERS: dict[str, JudgeFactory] = {
    "openai": _openai,
    "google": _google,
    "gemini": _google,
    "anthropic": _anthropic,
}
_LOCAL: dict[str, Callable[[str], Judge]] = {"local": _local, "local-lexical": _local}
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
) -> Judge:
    """Build the judge for a model name, or return a `Judge` object unchanged.

    The name is "provider/model", or "local" / "local-lexical" for the offline judge.

    Raises:
        ConfigError: the name is not of that form, or names an unknown provider.
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
    return factory(name, api_key=api_key, base_url=base_url, timeout=timeout)
