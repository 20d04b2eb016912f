"""Array plumbing shared by the meta-evaluation statistics: missing values, keys and ranks.

Missing values are `None` or `nan`; every helper here turns them into `nan` so the statistics
can drop them pairwise.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Literal, TypeAlias

import numpy as np
import numpy.typing as npt

FloatArray: TypeAlias = npt.NDArray[np.float64]
IntArray: TypeAlias = npt.NDArray[np.intp]
BoolArray: TypeAlias = npt.NDArray[np.bool_]
Values: TypeAlias = "Sequence[float | None] | npt.NDArray[Any]"
"""Numbers with `None`/`nan` for missing entries."""
Keys: TypeAlias = "Sequence[Hashable] | npt.NDArray[Any]"
"""One grouping key (source document, system) per item."""
Method: TypeAlias = Literal["spearman", "kendall"]
ConstantPredPolicy: TypeAlias = Literal["zero", "skip"]
StatisticFn: TypeAlias = Callable[[IntArray, IntArray], float]
"""`statistic(indices, group_ids) -> float` as called by `bootstrap_ci`."""


def as_float_array(values: Values) -> FloatArray:
    """Convert a sequence of numbers (`None` meaning missing) to a float array with `nan`."""
    if isinstance(values, np.ndarray) and values.dtype != object:
        return np.asarray(values, dtype=np.float64).ravel()
    return np.array([math.nan if v is None else float(v) for v in values], dtype=np.float64)


def encode_keys(keys: Keys) -> tuple[IntArray, list[Hashable]]:
    """Map keys to integer codes `0..k-1` in order of first appearance.

    Returns:
        The code of each item and the list of distinct keys (`keys_list[code]`).
    """
    index: dict[Hashable, int] = {}
    codes = np.empty(len(keys), dtype=np.intp)
    for i, key in enumerate(keys):
        k = key.item() if isinstance(key, np.generic) else key
        codes[i] = index.setdefault(k, len(index))
    return codes, list(index)


def present(x: Values, y: Values) -> tuple[FloatArray, FloatArray, BoolArray]:
    """Both inputs as float arrays, and the mask of items where both are present."""
    a, b = as_float_array(x), as_float_array(y)
    return a, b, ~(np.isnan(a) | np.isnan(b))


def paired(x: Values, y: Values) -> tuple[FloatArray, FloatArray]:
    """Both inputs as float arrays, restricted to items where both are present.

    Raises:
        ValueError: The inputs differ in length.
    """
    a, b = as_float_array(x), as_float_array(y)
    if a.shape != b.shape:
        raise ValueError(f"inputs differ in length: {a.shape[0]} vs {b.shape[0]}")
    keep = ~(np.isnan(a) | np.isnan(b))
    return a[keep], b[keep]


def is_constant(a: FloatArray) -> bool:
    """Whether every value of `a` is the same (true for an empty array)."""
    return bool(a.size == 0 or np.all(a == a[0]))


def rankdata(a: FloatArray) -> FloatArray:
    """Ranks starting at 1, ties given their average rank (as `scipy.stats.rankdata`)."""
    n = a.size
    sorter = np.argsort(a, kind="mergesort")
    inverse = np.empty(n, dtype=np.intp)
    inverse[sorter] = np.arange(n, dtype=np.intp)
    ordered = a[sorter]
    new_value = np.r_[True, ordered[1:] != ordered[:-1]]
    dense = np.cumsum(new_value)[inverse]
    bounds = np.r_[np.flatnonzero(new_value), n]
    ranks: FloatArray = 0.5 * (bounds[dense] + bounds[dense - 1] + 1).astype(np.float64)
    return ranks
