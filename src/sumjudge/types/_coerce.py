"""Raw input validated into a frozen item, or a `DataError` naming the item and the field.

The one place a pydantic `ValidationError` becomes a `DataError` (summaries, pairs,
conversations, their turns and section definitions).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ..errors import DataError

__all__ = ["coerce_model", "validated"]

M = TypeVar("M", bound=BaseModel)


def _data_error(exc: ValidationError, index: int | str | None, prefix: str) -> DataError:
    """The first validation error as a `DataError`; `prefix` names where the data sits."""
    first = exc.errors()[0]
    loc = ".".join(str(p) for p in first["loc"]) or None
    msg = "is missing" if first["type"] == "missing" else first["msg"]
    field = f"{prefix}{loc}" if loc and prefix else (loc or prefix.rstrip(".") or None)
    return DataError(msg, item=index, field=field)


def validated(
    model: type[M], data: Mapping[str, Any], index: int | str | None, prefix: str = ""
) -> M:
    """`data` as a `model`.

    Raises:
        DataError: `data` does not validate; names item `index` and the field (after
            `prefix`, e.g. "transcript[2].").
    """
    try:
        return model.model_validate(dict(data))
    except ValidationError as exc:
        raise _data_error(exc, index, prefix) from None


def coerce_model(model: type[M], item: Any, index: int | str | None) -> M:
    """`item` if it is a `model`, else the mapping `item` validated (see `validated`).

    Raises:
        DataError: `item` is neither a `model` nor a mapping, or does not validate.
    """
    if isinstance(item, model):
        return item
    if not isinstance(item, Mapping):
        raise DataError(
            f"expected {model.__name__} or a mapping, got {type(item).__name__}", item=index
        )
    return validated(model, item, index)
