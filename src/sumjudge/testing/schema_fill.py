"""The fake server's default answers: JSON values built to fit the request's schema."""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Mapping
from typing import Any

from .replies import Reply

__all__ = ["default_reply", "response_schema"]

_SENTENCES = (
    "The summary covers the main points of the source.",
    "Some details are missing, but nothing is contradicted.",
    "The wording is clear and easy to follow.",
    "A few claims are not supported by the source.",
    "The summary is concise and faithful overall.",
)
_NEWLINE_MARK = "\ue000"  # stands for a raw newline until the JSON text is rendered


def response_schema(body: Mapping[str, Any]) -> dict[str, Any] | None:
    """The JSON schema in a request's `response_format`, if any."""
    rf = body.get("response_format")
    if not isinstance(rf, dict):
        return None
    schema: Any = None
    if rf.get("type") == "json_schema" and isinstance(rf.get("json_schema"), dict):
        schema = rf["json_schema"].get("schema")
    elif rf.get("type") == "json_object":
        schema = rf.get("schema")
    return schema if isinstance(schema, dict) else None


def default_reply(body: Mapping[str, Any], raw_newlines: bool) -> Reply:
    """A valid answer for `body`: filled from its JSON schema, else explanation + score.

    The value is seeded by the request body, so the same request always gets the same answer.
    With `raw_newlines`, JSON strings hold a literal newline (as some local servers send).
    """
    schema = response_schema(body)
    if schema is None:
        sep = _NEWLINE_MARK if raw_newlines else " "
        explanation = f"The summary covers the main points.{sep}Nothing is contradicted."
        return Reply.text(_dump({"explanation": explanation, "score": 2}, raw_newlines))
    rng = random.Random(_body_seed(body))
    value = _SchemaFiller(schema, rng, raw_newlines).value(schema)
    return Reply.text(_dump(value, raw_newlines))


class _SchemaFiller:
    """Builds a deterministic value that validates against a (common subset of) JSON schema."""

    def __init__(self, root: Mapping[str, Any], rng: random.Random, raw_newlines: bool) -> None:
        self.root = root
        self.rng = rng
        self.raw_newlines = raw_newlines

    def _resolve(self, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        for _ in range(32):
            ref = schema.get("$ref")
            if not isinstance(ref, str) or not ref.startswith("#"):
                break
            node: Any = self.root
            for part in ref.lstrip("#").strip("/").split("/"):
                if part:
                    node = node.get(part, {}) if isinstance(node, Mapping) else {}
            schema = node if isinstance(node, Mapping) else {}
        if isinstance(schema.get("allOf"), list):
            merged: dict[str, Any] = {}
            for sub in schema["allOf"]:
                if isinstance(sub, Mapping):
                    merged.update(self._resolve(sub))
            merged.update({k: v for k, v in schema.items() if k != "allOf"})
            schema = merged
        for key in ("anyOf", "oneOf"):
            options = schema.get(key)
            if isinstance(options, list) and options:
                non_null = [
                    o for o in options if isinstance(o, Mapping) and o.get("type") != "null"
                ]
                return self._resolve(non_null[0] if non_null else options[0])
        return schema

    def value(self, schema: Mapping[str, Any], name: str = "", depth: int = 0) -> Any:
        """A value for `schema` (`name` is the property it fills, `depth` its nesting)."""
        schema = self._resolve(schema)
        if "const" in schema:
            return schema["const"]
        if isinstance(schema.get("enum"), list) and schema["enum"]:
            return self.rng.choice(schema["enum"])
        kind = schema.get("type")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "null")
        if kind is None:
            kind = (
                "object" if "properties" in schema else "array" if "items" in schema else "string"
            )
        if depth > 8:
            return None
        if kind == "object":
            props = schema.get("properties")
            if not isinstance(props, Mapping):
                return {}
            return {
                k: self.value(v, k, depth + 1) for k, v in props.items() if isinstance(v, Mapping)
            }
        if kind == "array":
            lo = int(schema.get("minItems", 1))
            hi = max(lo, int(schema.get("maxItems", max(lo, 2))))
            items = schema.get("items")
            items = items if isinstance(items, Mapping) else {}
            count = self.rng.randint(lo, min(hi, max(lo, 2)))
            return [self.value(items, name, depth + 1) for _ in range(count)]
        if kind == "integer":
            return self._integer(schema)
        if kind == "number":
            lo_f = float(schema.get("minimum", schema.get("exclusiveMinimum", 0.0)))
            hi_f = float(schema.get("maximum", schema.get("exclusiveMaximum", lo_f + 1.0)))
            return round(self.rng.uniform(lo_f, max(lo_f, hi_f)), 2)
        if kind == "boolean":
            return self.rng.random() < 0.5
        if kind == "null":
            return None
        return self._string(schema)

    def _integer(self, schema: Mapping[str, Any]) -> int:
        lo: int | None = None
        hi: int | None = None
        if isinstance(schema.get("minimum"), (int, float)):
            lo = math.ceil(schema["minimum"])
        elif isinstance(schema.get("exclusiveMinimum"), (int, float)):
            lo = math.floor(schema["exclusiveMinimum"]) + 1
        if isinstance(schema.get("maximum"), (int, float)):
            hi = math.floor(schema["maximum"])
        elif isinstance(schema.get("exclusiveMaximum"), (int, float)):
            hi = math.ceil(schema["exclusiveMaximum"]) - 1
        if lo is None and hi is None:
            lo, hi = 1, 3
        elif lo is None:
            assert hi is not None
            lo = hi - 4
        elif hi is None:
            hi = lo + 4
        return self.rng.randint(lo, max(lo, hi))

    def _string(self, schema: Mapping[str, Any]) -> str:
        text = self.rng.choice(_SENTENCES)
        if self.raw_newlines:
            text = text + _NEWLINE_MARK + self.rng.choice(_SENTENCES)
        min_len = int(schema.get("minLength", 0))
        max_len = schema.get("maxLength")
        if len(text) < min_len:
            text = text + "x" * (min_len - len(text))
        if isinstance(max_len, int) and len(text) > max_len:
            text = text[:max_len]
        return text


def _body_seed(body: Mapping[str, Any]) -> int:
    raw = json.dumps(body, sort_keys=True, default=str).encode()
    return int.from_bytes(hashlib.blake2b(raw, digest_size=8).digest(), "big")


def _dump(obj: Any, raw_newlines: bool) -> str:
    text = json.dumps(obj, ensure_ascii=False)
    return text.replace(_NEWLINE_MARK, "\n" if raw_newlines else "\\n")
