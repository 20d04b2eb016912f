"""Small readers for judge replies: JSON objects, booleans, strings, turn lists."""

from __future__ import annotations

from typing import Any

from ..errors import ParseError
from ..protocol import JudgeResponse
from ._parse import extract_json

__all__ = ["as_bool", "as_str", "reply_object", "turn_numbers"]


def reply_object(response: JudgeResponse) -> dict[str, Any]:
    data = response.parsed if response.parsed is not None else extract_json(response.text)
    if not isinstance(data, dict):
        raise ParseError("the reply's JSON is not an object", raw=response.text)
    return data


def as_bool(value: Any, what: str) -> bool:
    """A JSON boolean, or the strings "true"/"false" (any case) as the spec prints them."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise ParseError(f"{what} must be true or false, got {value!r}")


def as_str(value: Any, what: str, *, allow_empty: bool = False) -> str:
    if not isinstance(value, str):
        raise ParseError(f"{what} must be a string, got {type(value).__name__}")
    if not allow_empty and not value.strip():
        raise ParseError(f"{what} must not be empty")
    return value.strip()


def turn_numbers(value: Any) -> tuple[int, ...]:
    """Turn numbers as cited: a list of integers (numeric strings and "[3]" accepted)."""
    if value is None:
        return ()
    if not isinstance(value, list):
        value = [value]
    out: list[int] = []
    for v in value:
        if isinstance(v, bool):
            continue
        if isinstance(v, int):
            out.append(v)
        elif isinstance(v, str) and v.strip().strip("[]").isdigit():
            out.append(int(v.strip().strip("[]")))
    return tuple(dict.fromkeys(out))
