"""What every evaluator is built from: engine options, metric choice and the cache."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from ..cache import ResponseCache
from ..cost import ModelTable, Price
from ..errors import ConfigError
from ..runner import RetryPolicy

if TYPE_CHECKING:  # batch/ loads only for a batch run
    from ..batch.options import BatchOptions

__all__ = ["EngineOptions", "choose_metrics", "open_cache"]


class EngineOptions(TypedDict, total=False):
    """The judge and engine arguments every evaluator takes (see `Evaluator`)."""

    base_url: str | None
    retry_policy: RetryPolicy | None
    timeout: float
    cache: ResponseCache | str | Path | bool | None
    prices: ModelTable | Mapping[str, Any] | str | Path | None
    price: Price | None
    context_window: int | None
    long_source: str
    batch_api: bool | BatchOptions


def choose_metrics(
    requested: Sequence[str] | None,
    known: Sequence[str],
    what: str,
    default: Sequence[str] | None = None,
) -> list[str]:
    """The requested metric names (None: `default`, else all `known`), deduplicated.

    Checked at construction, before anything is paid for; `what` names the argument in
    the error ("enabled_metrics", "metrics").
    """
    fallback = known if default is None else default
    names = list(dict.fromkeys(requested if requested is not None else fallback))
    unknown = [m for m in names if m not in known]
    if unknown:
        raise ConfigError(f"unknown metric(s) {unknown}; choose from {', '.join(known)}")
    if not names:
        raise ConfigError(f"{what} must name at least one metric")
    return names


def open_cache(
    cache: ResponseCache | str | Path | bool | None,
) -> tuple[ResponseCache | None, bool]:
    """(the cache, whether the evaluator owns it and must close it) for a `cache=` argument.

    True: the default location; a path: a cache there; a `ResponseCache`: used as is (the
    caller owns it); None/False: no cache.
    """
    owns = cache is True or isinstance(cache, (str, Path))
    if cache is True:
        cache = ResponseCache()
    elif isinstance(cache, (str, Path)):
        cache = ResponseCache(cache)
    # (not `cache or None`: an empty ResponseCache has len() 0 and is falsy)
    return (cache if isinstance(cache, ResponseCache) else None), owns
