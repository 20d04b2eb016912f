"""One judged JSON request: send through the caller, read, one repair re-ask on ParseError.

Failures come back as data (`Judged.error`), never raised, as in the foundation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from ..errors import ParseError, ProviderError
from ..evaluators._judging import repair_request
from ..protocol import JudgeRequest, JudgeResponse, Usage
from ..runner import JudgeCaller

__all__ = ["Judged", "describe", "judge_json"]

T = TypeVar("T")


@dataclass
class Judged(Generic[T]):
    """The value read from the reply, or why there is none."""

    value: T | None = None
    error: str | None = None
    raw_reply: str | None = None
    usage: Usage = field(default_factory=Usage)
    calls: int = 0


def describe(error: ProviderError) -> str:
    attempts = getattr(error, "attempts", None)
    tail = f" (after {attempts} attempt{'s' if attempts != 1 else ''})" if attempts else ""
    return f"{type(error).__name__}: {error}{tail}"


async def judge_json(
    caller: JudgeCaller,
    request: JudgeRequest,
    read: Callable[[JudgeResponse], T],
    *,
    repair: bool = True,
) -> Judged[T]:
    """Call the judge and read its reply with `read`; re-ask once if it cannot be read.

    When the value cannot be had, the replies that led there are dropped from the
    response cache, so a re-run (or `--resume`) asks again instead of replaying the
    failure.
    """
    out: Judged[T] = Judged()
    response: JudgeResponse | None = None
    answered: list[JudgeRequest] = []
    try:
        response = await caller.call(request)
        answered.append(request)
        out.calls += 1
        out.usage = out.usage + response.usage
        try:
            out.value = read(response)
        except ParseError as first:
            if not repair:
                raise
            again = repair_request(request, response.text, str(first))
            response = await caller.call(again)
            answered.append(again)
            out.calls += 1
            out.usage = out.usage + response.usage
            out.value = read(response)
    except ProviderError as exc:
        out.calls += 1
        out.error = describe(exc)
    except ParseError as exc:
        out.error = f"unparseable verdict: {exc}"
        out.raw_reply = (response.text if response is not None else exc.raw)[:2000]
    if out.error is not None:
        _forget(caller, answered)
    return out


def _forget(caller: JudgeCaller, requests: list[JudgeRequest]) -> None:
    cache = caller.cache
    if cache is None:
        return
    for r in requests:
        cache.delete(cache.key(caller.identity, r))
