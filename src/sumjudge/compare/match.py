"""Pairing the items of two runs: by `id`, else by the source's hash and the row index."""

from __future__ import annotations

from dataclasses import dataclass, field

from .records import Item

__all__ = ["Matching", "item_label", "match_items"]


def item_label(item: Item) -> str:
    """How an item is named in the output: its id, else `#<index>`."""
    return item.id if item.id is not None else f"#{item.index}"


def _key(item: Item) -> tuple[str, ...]:
    if item.id is not None:
        return ("id", item.id)
    # Without ids, the same row of the same input: its position, and the source when the
    # record carries it (so two files of different inputs do not pair by position alone).
    return ("row", str(item.index), item.source_key or "")


@dataclass
class Matching:
    """The pairs of two runs and what could not be paired.

    Attributes:
        pairs: (base, candidate) items with the same key, in the base's order.
        unmatched_base: labels of base items without a candidate.
        unmatched_candidate: labels of candidate items without a base.
        duplicates: labels that occur more than once on one side (the first is used).
    """

    pairs: list[tuple[Item, Item]] = field(default_factory=list)
    unmatched_base: list[str] = field(default_factory=list)
    unmatched_candidate: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)


def _index(items: list[Item], duplicates: list[str]) -> dict[tuple[str, ...], Item]:
    out: dict[tuple[str, ...], Item] = {}
    for item in items:
        key = _key(item)
        if key in out:
            duplicates.append(item_label(item))
        else:
            out[key] = item
    return out


def match_items(base: list[Item], candidate: list[Item]) -> Matching:
    """Pair `base` and `candidate` items; every item is either paired or listed."""
    result = Matching()
    base_by_key = _index(base, result.duplicates)
    cand_by_key = _index(candidate, result.duplicates)
    for key, item in base_by_key.items():
        other = cand_by_key.get(key)
        if other is None:
            result.unmatched_base.append(item_label(item))
        else:
            result.pairs.append((item, other))
    result.unmatched_candidate = [
        item_label(item) for key, item in cand_by_key.items() if key not in base_by_key
    ]
    return result
