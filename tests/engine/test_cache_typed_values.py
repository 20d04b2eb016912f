"""A cache hit read by msgspec is what `JudgeResponse.from_dict` reads, or left to it.

`read_typed` must give `from_dict(json.loads(value))` (values and types, by repr) for
every value `stored_form` writes and the values older versions wrote (with null fields),
and None for anything else, which `ResponseCache.get` then reads with `from_dict` as
before (or counts as a miss, as before).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sumjudge import cache as cache_module
from sumjudge import fastjson
from sumjudge.cache import ResponseCache, read_typed
from sumjudge.protocol import JudgeRequest, JudgeResponse, Message, TokenLogprob, Usage

pytest.importorskip("msgspec")


def _agree(value: str) -> JudgeResponse:
    typed = read_typed(value)
    plain = JudgeResponse.from_dict(fastjson.loads(value))
    assert typed is not None
    assert typed == plain and repr(typed) == repr(plain)
    assert [type(t) for t in typed.logprobs or ()] == [TokenLogprob] * len(typed.logprobs or ())
    return typed


TOKENS = (
    TokenLogprob("{", -0.01, (("{", -0.01), (" the", -4.0))),
    TokenLogprob("2", -1e-05, ()),
    TokenLogprob("é", -0.0, (("é", -0.0),)),
)
RESPONSES = [
    JudgeResponse(text='{"score": 2}', usage=Usage(816, 36, 512, 4), logprobs=TOKENS, model="m"),
    JudgeResponse(text="", finish_reason="length", latency_s=0.25),
    JudgeResponse(text="x", logprobs_note="none given"),
    JudgeResponse(text="x", logprobs=()),
]


@pytest.mark.parametrize("response", RESPONSES)
def test_stored_values_read_as_from_dict_reads_them(response: JudgeResponse) -> None:
    for value in (fastjson.dumps(response.stored_form()).decode(), response.to_json()):
        assert _agree(value) == response


OLDER = [  # as earlier versions wrote them: null fields, integer numbers, fields missing
    '{"text":"t","parsed":null,"finish_reason":null,"usage":{"prompt_tokens":3},'
    '"logprobs":null,"logprobs_note":null,"latency_s":1,"model":null}',
    '{"text":"t","logprobs":[["2",-1,[["2",-1],["3",0]]]],"usage":null}',
    '{"text":"t","usage":{},"unknown":[1,{"a":2}]}',
    '{"text":"t","parsed":null}',
]


@pytest.mark.parametrize("value", OLDER)
def test_older_values_read_as_before(value: str) -> None:
    _agree(value)


NAN = '{"text":"t","logprobs":[["2",NaN,[]]]}'
DECLINED = [
    '{"text": 3}',
    '{"parsed": {}}',  # no text: from_dict raises KeyError, a miss
    '{"text":"t","latency_s":null}',
    '{"text":"t","usage":{"prompt_tokens":2.5}}',
    '{"text":"t","usage":{"prompt_tokens":null}}',
    '{"text":"t","usage":[]}',
    '{"text":"t","logprobs":[["2",-1.0,[[7,-1.0]]]]}',
    '{"text":"t","logprobs":[["2",-1.0,[["y",-2.0,"extra"]]]]}',
    NAN,
    '{"text":"t","logprobs":[["2",-1.0,[["2"]]]]}',
    '{"text":"t","model":3}',
    '{"text":"lone \\ud800"}',
    '{"text":"t","usage":{"prompt_tokens":18446744073709551616}}',  # orjson: a float
    '{"text":"t","usage":{"prompt_tokens":-9223372036854775809}}',
    '{"text":"t","parsed":{"score":2,"n":[1.5,null,123456789012345678901234567890]}}',
    '{"text":"t","parsed":"a string"}',
    "not json",
]


@pytest.mark.parametrize("value", DECLINED)
def test_other_values_are_left_to_from_dict(value: str, tmp_path: Path) -> None:
    """Declined, and `get` answers what from_dict answers: a response or a miss."""
    assert read_typed(value) is None
    try:
        expected: JudgeResponse | None = JudgeResponse.from_dict(fastjson.loads(value))
    except (ValueError, KeyError, TypeError, IndexError):
        expected = None
    got = _stored_and_read(tmp_path, value)
    if expected is None or got is None:
        assert got is expected is None
    else:
        assert repr(got) == repr(expected)


def _stored_and_read(tmp_path: Path, value: str) -> JudgeResponse | None:
    with ResponseCache(tmp_path) as cache:
        key = cache.key("openai/m", JudgeRequest(messages=(Message.of("user", "x"),), task="t@1"))
        cache._db.execute(
            "INSERT INTO responses (key, judge, task, format, created, value)"
            " VALUES (?, 'openai/m', 't@1', 1, 0, ?)",
            (key, value),
        )
        return cache.get(key)


def test_a_nan_logprob_still_reads_through_from_dict(tmp_path: Path) -> None:
    got = _stored_and_read(tmp_path, NAN)
    assert got is not None and got.logprobs is not None and math.isnan(got.logprobs[0].logprob)


def test_without_msgspec_from_dict_reads_every_value(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache_module, "_decode_value", None)
    assert read_typed(RESPONSES[0].to_json()) is None


_FLOAT = st.floats(allow_nan=False, allow_infinity=False)
_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=6)
_TOKENS = st.lists(
    st.builds(
        TokenLogprob,
        _TEXT,
        _FLOAT,
        st.lists(st.tuples(_TEXT, _FLOAT), max_size=3).map(tuple),
    ),
    max_size=5,
).map(tuple)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | _FLOAT | _TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=8,
)
_RESPONSES = st.builds(
    JudgeResponse,
    text=_TEXT,
    parsed=st.none(),  # provider-parsed JSON is read by from_dict (its own test below)
    finish_reason=st.sampled_from(["stop", "length", "tool_calls"]),
    usage=st.builds(Usage, *[st.integers(0, 2**40)] * 4),
    logprobs=st.none() | _TOKENS,
    logprobs_note=st.none() | _TEXT,
    latency_s=st.floats(0, 1e4),
    model=_TEXT,
)


@settings(max_examples=100, deadline=None)
@given(_JSON.filter(lambda v: v is not None))
def test_provider_parsed_json_is_read_by_from_dict(parsed: Any) -> None:
    value = JudgeResponse(text="t", parsed=parsed).to_json()
    assert read_typed(value) is None


@settings(max_examples=300, deadline=None)
@given(_RESPONSES)
def test_any_stored_response_reads_back_the_same(response: JudgeResponse) -> None:
    value = fastjson.dumps(response.stored_form()).decode()
    assert repr(_agree(value)) == repr(response)
    older = json.dumps(response.to_dict(), ensure_ascii=False)
    assert repr(_agree(older)) == repr(response)
