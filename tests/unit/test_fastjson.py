"""`fastjson.loads` reads what `json.loads` reads, and `fastjson.dumps` writes what
`json.dumps` writes (the same values), with orjson installed or not."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from sumjudge import fastjson

TEXTS = [
    '{"choices": [{"message": {"content": "{\\"score\\": 2}"}, "finish_reason": "stop"}]}',
    '{"logprobs": {"content": [{"token": "2", "logprob": -0.01, "bytes": [50],'
    ' "top_logprobs": [{"token": "2", "logprob": -1e-05}, {"token": "3", "logprob": -4.0}]}]}}',
    '{"usage": {"prompt_tokens": 9223372036854775807, "completion_tokens": 0}}',
    "[1e22, 2.5e-08, -0.0, 5e-324, 1.7976931348623157e308, 0.1, -20]",
    '{"a": 1, "a": 2}',
    '"S\\u00e9 \\u2713 \\ud83d\\ude00 \\" \\\\ \\n"',
    '{"x": NaN, "y": [Infinity, -Infinity]}',
    '"lone \\ud800 surrogate"',
    '  {"spaced" : [ true , false , null ] }  ',
]


def _same(a: Any, b: Any) -> bool:
    """Equal, counting NaN equal to NaN and telling -0.0 from 0.0."""
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and repr(a) == repr(b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("text", TEXTS)
def test_reads_what_json_reads(text: str) -> None:
    expected = json.loads(text)
    assert _same(fastjson.loads(text), expected)
    assert _same(fastjson.loads(text.encode("utf-8")), expected)


def test_utf16_and_invalid_texts_as_json_has_them() -> None:
    assert fastjson.loads('{"a": "é"}'.encode("utf-16")) == {"a": "é"}
    for bad in ("", "{", "[1,]", b"\xff\xfe\x00"):
        with pytest.raises(ValueError):
            json.loads(bad)
        with pytest.raises(ValueError):
            fastjson.loads(bad)


def test_what_the_fast_decoder_refuses_goes_through_json(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fallback, whether orjson is installed or not: a stand-in refusing NaN."""
    seen: list[bytes | str] = []

    def strict(data: bytes | str) -> Any:
        seen.append(data)
        if "NaN" in (data.decode() if isinstance(data, bytes) else data):
            raise ValueError("NaN is not JSON")
        return json.loads(data)

    monkeypatch.setattr(fastjson, "_fast", strict)
    value = fastjson.loads('{"x": NaN, "y": 1}')
    assert math.isnan(value["x"]) and value["y"] == 1
    assert fastjson.loads(b"[2]") == [2] and len(seen) == 2
    with pytest.raises(ValueError):
        fastjson.loads("{")


VALUES: list[Any] = [
    {"model": "m", "messages": [{"role": "user", "content": 'Sé ✓ "q" \\ \n\t\x01 \u2028'}]},
    {"temperature": 0.0, "top": [[1e-05, -2.5e-08], [1e22, -0.0, 5e-324]], "n": -20},
    {"text": "the null hypothesis", "parsed": None, "ok": [True, False]},
    {"logprobs": [float("-inf"), float("nan"), 1.0]},
    {"big": 2**70, "neg": -(2**64)},
    {1: "a key that is not a string", 2.5: "b"},
    ["𝔘", "", [], {}],
]


@pytest.mark.parametrize("fast", [True, False], ids=["installed", "absent"])
@pytest.mark.parametrize("value", VALUES)
def test_dumps_writes_what_json_writes(
    value: Any, fast: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same values as json.dumps's compact text, whatever the spelling of floats."""
    if not fast:
        monkeypatch.setattr(fastjson, "_fast_dumps", None)
    expected = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    data = fastjson.dumps(value)
    assert isinstance(data, bytes)
    assert _same(json.loads(data), json.loads(expected))


def test_dumps_leaves_what_the_fast_encoder_cannot_say_to_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A null in the fast encoder's text may be a non-finite float: json writes it then."""
    seen: list[Any] = []

    def fast(value: Any) -> bytes:
        seen.append(value)
        if value == "refused":
            raise TypeError("not this one")
        return json.dumps(value, allow_nan=False, separators=(",", ":")).encode()

    monkeypatch.setattr(fastjson, "_fast_dumps", fast)
    assert fastjson.dumps({"a": [1.5]}) == b'{"a":[1.5]}'
    assert fastjson.dumps("refused") == b'"refused"'
    monkeypatch.setattr(fastjson, "_fast_dumps", lambda value: b'{"x":null}')
    assert fastjson.dumps({"x": float("inf")}) == b'{"x":Infinity}'
    assert len(seen) == 2
    with pytest.raises(UnicodeEncodeError):
        fastjson.dumps(["\ud800"])
    with pytest.raises(TypeError):
        fastjson.dumps({"x": object()})
