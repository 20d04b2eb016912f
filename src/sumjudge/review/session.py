"""One reviewer's review of one results file: the items, their order, the label log.

The server's handlers are thin; what they answer comes from here. A posted label is
checked (known id, known metrics, 1-3 integers, a known rating) and appended to the log
at once (`LabelLog.append`: one whole line, fsync'ed) before the page is told it is saved.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..align import RATINGS, Label, LabelLog, latest
from .load import ReviewItem
from .order import Ordering, order_items
from .payload import item_payload, label_payload

__all__ = ["LabelRejected", "ReviewSession", "is_labelled"]

_NOTE_LIMIT = 20_000


class LabelRejected(ValueError):
    """A posted label the session refuses (the page is told why; nothing is written)."""


def is_labelled(label: Label | None) -> bool:
    """Whether a label counts as done: it gives a rating or a value for some metric.

    A note alone does not: the reviewer may have started typing and moved on.
    """
    return label is not None and bool(label.rating or label.scores or label.agree)


class ReviewSession:
    """The state one `sumjudge review` serves.

    Args:
        items: The judged items (`load.load_items`).
        log: The label log labels are appended to.
        reviewer: The name every label of this session carries.
        existing: The labels already in the log (of every reviewer).
        order: One of `order.ORDERS`.
        seed: The `random` order's seed.
    """

    def __init__(
        self,
        items: Sequence[ReviewItem],
        log: LabelLog,
        reviewer: str,
        existing: Sequence[Label] = (),
        *,
        order: str = "uncertain",
        seed: int | None = None,
    ) -> None:
        self.items = {item.key: item for item in items}
        self.log = log
        self.reviewer = reviewer
        self.order = order
        self.seed = seed
        self.written = 0
        # This reviewer's latest label per item, in the order of their last change.
        self.labels: dict[str, Label] = {
            key: label
            for (key, who), label in latest(existing).items()
            if who == reviewer and key in self.items
        }

    @property
    def labelled(self) -> int:
        """How many items this reviewer has labelled."""
        return sum(is_labelled(label) for label in self.labels.values())

    def ordering(self) -> Ordering:
        """The items' review order for this reviewer, now."""
        signals = [item.signals for item in self.items.values()]
        mine = [label for label in self.labels.values() if is_labelled(label)]
        return order_items(signals, self.order, mine, seed=self.seed)

    def listing(self) -> dict[str, Any]:
        """The page's start: every item in order, which are labelled, where to begin."""
        ordering = self.ordering()
        done = [is_labelled(self.labels.get(key)) for key in ordering.ids]
        start = next((k for k, d in enumerate(done) if not d), 0)
        return {
            "reviewer": self.reviewer,
            "order": self.order,
            "note": ordering.note,
            "total": len(ordering.ids),
            "labelled": sum(done),
            "start": start,
            "items": [
                {"id": key, "labelled": d} for key, d in zip(ordering.ids, done, strict=True)
            ],
            "log": str(self.log.path),
        }

    def item(self, key: str) -> dict[str, Any] | None:
        """One item's page data with this reviewer's label; None for an unknown id."""
        item = self.items.get(key)
        return None if item is None else item_payload(item, self.labels.get(key))

    def record(self, body: Any) -> dict[str, Any]:
        """Check a posted label, append it to the log and return the saved state.

        Raises:
            LabelRejected: The body is not a label of a known item (nothing is written).
        """
        if not isinstance(body, Mapping):
            raise LabelRejected("the body must be a JSON object")
        key = body.get("id")
        item = self.items.get(key) if isinstance(key, str) else None
        if item is None:
            raise LabelRejected(f"unknown item id {key!r}")
        metrics = item.view.metrics
        scores = _mapping(body, "scores")
        agree = _mapping(body, "agree")
        for metric, value in scores.items():
            if metric not in metrics or metrics[metric].unit != "1-3":
                raise LabelRejected(f"scores: {metric!r} is not a 1-3 metric of this item")
            if isinstance(value, bool) or value not in (1, 2, 3):
                raise LabelRejected(f"scores: {metric!r} must be 1, 2 or 3 (got {value!r})")
        for metric, value in agree.items():
            if metric not in metrics or not isinstance(value, bool):
                raise LabelRejected(f"agree: {metric!r} must be a metric of this item -> bool")
        rating = body.get("rating")
        if rating is not None and rating not in RATINGS:
            raise LabelRejected(f"rating must be one of {', '.join(RATINGS)} or null")
        note = body.get("note") or ""
        if not isinstance(note, str) or len(note) > _NOTE_LIMIT:
            raise LabelRejected(f"note must be text of at most {_NOTE_LIMIT} characters")
        label = Label(
            id=item.key,
            reviewer=self.reviewer,
            # ints: a label log's scores are read back as integers 1-3 (2.0 is refused)
            scores={m: int(v) for m, v in scores.items()},
            agree=dict(agree),
            rating=rating,
            note=note,
            source_id=item.source_id,
            judge=item.judge,
        )
        # Blocking on purpose: the write is one small line, and "saved" must mean on disk
        # before the page hears it (and before the next post can overtake it).
        line = self.log.append(label)
        self.written += 1
        saved = replace(label, at=line["at"])
        self.labels.pop(item.key, None)
        self.labels[item.key] = saved
        return {
            "id": item.key,
            "label": label_payload(saved),
            "labelled": self.labelled,
            "total": len(self.items),
            "done": is_labelled(saved),
        }


def _mapping(body: Mapping[str, Any], name: str) -> dict[str, Any]:
    value = body.get(name)
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise LabelRejected(f"{name} must be a JSON object keyed by metric")
    return dict(value)
