"""The dry run: what a batch would send and cost, without calling a judge.

Each valid item counts the requests its path would send: its plan when the source fits
the judge's window; when it does not, what `long_source="chunked"` sends (excerpts, one
notes call per part, and the request on the notes, sized with stand-in notes), or
nothing with `long_source="fail"`, since such an item fails before any call.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from ..cost import CostEstimate, Price
from ..errors import DataError
from ..plan import requests_of
from ..protocol import JudgeRequest
from ..runner import JudgeCaller
from ..tokens import check_context
from .execute import Stages, flatten
from .panel import PanelMember, panel_estimate

__all__ = ["estimate_items"]


class Estimable(Protocol):
    """What the dry run needs of an evaluator (`Evaluator` has all of it)."""

    price: Price | None
    context_window: int | None
    long_source: str
    members: list[PanelMember]

    def coerce(self, raw: Any, index: int | str | None) -> Any: ...
    def prepare_estimate(self, item: Any, estimate: CostEstimate) -> Any: ...
    def plan(self, item: Any, prepared: Any) -> Stages: ...
    def source_text(self, item: Any) -> str: ...
    def long_requests(self, item: Any, prepared: Any, window: int) -> list[JudgeRequest]: ...
    def callers(self) -> list[JudgeCaller]: ...


def estimate_items(evaluator: Estimable, items: Iterable[Any]) -> CostEstimate:
    """Count every item's requests; those in the response cache are free."""
    estimate = CostEstimate(price=evaluator.price)
    by_parts = unfit = 0
    for index, raw in enumerate(items):
        if isinstance(raw, DataError):
            estimate.invalid_items += 1
            continue
        try:
            item = evaluator.coerce(raw, index)
        except DataError:
            estimate.invalid_items += 1
            continue
        # The same path as `Evaluator._judge`: an item whose first plan does not fit and
        # will not be judged by parts fails before anything (rubric questions too) is sent.
        requests = _requests(evaluator, item, None)
        fit = check_context(requests, evaluator.context_window, evaluator.source_text(item))
        prepared = None
        if fit.fits:
            prepared = evaluator.prepare_estimate(item, estimate)
            requests = _requests(evaluator, item, prepared)
            fit = check_context(requests, evaluator.context_window, evaluator.source_text(item))
        if not fit.fits:
            if evaluator.long_source == "chunked" and fit.window:
                if prepared is None:
                    prepared = evaluator.prepare_estimate(item, estimate)
                requests = evaluator.long_requests(item, prepared, fit.window)
                by_parts += 1
            else:
                requests = []
                unfit += 1
        for caller in evaluator.callers():  # every panel member sends them all
            estimate.add_item(requests, [caller.cached(r) for r in requests])
    if evaluator.members:
        panel_estimate(evaluator.members, estimate)
    if by_parts:
        estimate.notes.append(
            f"{by_parts} item(s) beyond the context window counted as judged by parts; the "
            "request on each source's notes is sized with notes of "
            "the assumed reply length"
        )
    if unfit:
        estimate.notes.append(
            f"{unfit} item(s) beyond the context window will fail before any call "
            "(no requests counted; --long-source chunked judges them by parts)"
        )
    return estimate


def _requests(evaluator: Estimable, item: Any, prepared: Any) -> list[JudgeRequest]:
    return requests_of(flatten(evaluator.plan(item, prepared)))
