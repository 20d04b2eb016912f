"""A report dataclass as JSON, its keys and rounding declared on its fields.

A report that writes its fields as they are, in their order, renamed or rounded, declares
that on each field (`field(metadata=json_key("requests_submitted", digits=3))`) and its
`to_dict` is `report_dict(self)` plus the entries it computes; the JSON name then stands
beside the field and its documentation. A report whose entries interleave computed values
with fields (`RunSummary`) keeps its literal dict. Imports nothing of ours.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = ["NOT_IN_JSON", "json_key", "report_dict"]

_KEY = "sumjudge.json"

NOT_IN_JSON: Mapping[str, Any] = MappingProxyType({_KEY: None})
"""Field metadata: `report_dict` leaves the field out."""


def json_key(key: str | None = None, *, digits: int | None = None) -> Mapping[str, Any]:
    """Field metadata: the field's JSON key (default: its name), rounded to `digits`."""
    return MappingProxyType({_KEY: (key, digits)})


def report_dict(report: DataclassInstance) -> dict[str, Any]:
    """The fields of `report` in declaration order, under their keys, rounded as declared.

    A field without `json_key` metadata is written under its own name, as it is.
    """
    out: dict[str, Any] = {}
    for f in fields(report):
        declared = f.metadata.get(_KEY, (None, None))
        if declared is None:  # NOT_IN_JSON
            continue
        key, digits = declared
        value = getattr(report, f.name)
        out[key or f.name] = value if digits is None else round(value, digits)
    return out
