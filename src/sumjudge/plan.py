"""An item's plan: the calls it sends and how their replies become metric results.

A metric turns one item into a `MetricPlan`: the `Call`s it needs (a request and the
reader of its reply; often one, none when the metric is decided without a judge) and a
pure `finish` that turns what came back (`Judged` values, failures included) into
results. The evaluator builds every metric's plan for an item once, and the same plan
serves the context-window check, the dry-run estimate and execution. This module
imports nothing of ours but the wire types, so metrics can build plans without knowing
the runner that executes them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from .protocol import JudgeRequest, JudgeResponse, Usage

__all__ = ["Call", "Judged", "MetricPlan", "requests_of"]

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class Call(Generic[T]):
    """One request a plan sends, and how its reply is read.

    `read` raises `ParseError` for a reply it cannot use; the runner then re-asks once
    (when repair is on) and never stores the rejected reply.
    """

    request: JudgeRequest
    read: Callable[[JudgeResponse], T]


@dataclass
class Judged(Generic[T]):
    """The value read from a judge's reply, or why there is none.

    Attributes:
        value: what the reader returned; None when the call failed.
        error: why there is no value (a provider failure or an unreadable reply).
        raw_reply: the last unreadable reply text (cut to 2,000 characters).
        response: the reply the value was read from.
        usage: tokens spent by the calls made for this value.
        calls: requests made (a repair re-ask counts; a provider failure counts once).
    """

    value: T | None = None
    error: str | None = None
    raw_reply: str | None = None
    response: JudgeResponse | None = None
    usage: Usage = field(default_factory=Usage)
    calls: int = 0


@dataclass(frozen=True)
class MetricPlan(Generic[R]):
    """One metric's part of an item's plan (or several metrics', for a combined layout).

    Attributes:
        metric: the metric it answers (a combined layout names its first metric).
        calls: the requests to send, in order; they run concurrently.
        finish: turns the `Judged` replies (one per call, same order) into results by
            metric name. Pure: no I/O.
    """

    metric: str
    calls: tuple[Call[Any], ...]
    finish: Callable[[Sequence[Judged[Any]]], Mapping[str, R]]


def requests_of(plans: Sequence[MetricPlan[Any]]) -> list[JudgeRequest]:
    """Every first-try request of `plans`, in order."""
    return [c.request for p in plans for c in p.calls]
