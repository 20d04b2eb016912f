"""msgspec's typed reading of a chat-completions reply equals the dict reading, or declines.

`read_bytes` must give what `fastjson.loads` + `read_dict` give (values and their types,
down to each log-probability), and give None for every reply it cannot read that way,
so that the dict path decides (and raises) as it always did.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sumjudge import fastjson
from sumjudge.errors import TransientProviderError
from sumjudge.judges import openai_reply
from sumjudge.judges.openai_reply import ChatReply, read_bytes, read_dict

pytest.importorskip("msgspec")  # without it read_bytes always declines (tested below)


def _kinds(reply: ChatReply) -> list[Any]:
    """The types inside a reply, so that 0 and 0.0 or "2" and 2 tell apart."""
    tokens = reply.logprobs or ()
    return [
        type(reply.text),
        type(reply.finish_reason),
        type(reply.model),
        [type(getattr(reply.usage, f)) for f in reply.usage.__dataclass_fields__],
        [(type(t.token), type(t.logprob), [(type(a), type(p)) for a, p in t.top]) for t in tokens],
    ]


def _agree(raw: bytes, logprobs: bool = True) -> ChatReply | None:
    """The typed reading, checked against the dict reading; None when it declined."""
    typed = read_bytes(raw, logprobs)
    if typed is None:
        return None
    plain = read_dict(fastjson.loads(raw), logprobs)
    assert typed == plain and repr(typed) == repr(plain)  # repr: -0.0 is not 0.0
    assert _kinds(typed) == _kinds(plain)
    return typed


def _reply(**choice: Any) -> dict[str, Any]:
    return {"model": "m", "choices": [{"message": {"content": "x"}, **choice}]}


TOKENS = [
    {
        "token": "2",
        "logprob": -0.01,
        "bytes": [50],
        "top_logprobs": [
            {"token": "2", "logprob": -0.01, "bytes": [50]},
            {"token": " é", "logprob": -4, "bytes": [32, 195, 169]},
        ],
    },
    {"token": "}", "logprob": 0, "top_logprobs": []},
    {"token": "\n", "logprob": -1e-05, "top_logprobs": None},
    {"token": "x", "logprob": -2.5},
]

READ = [
    _reply(finish_reason="stop", logprobs={"content": TOKENS}),
    _reply(finish_reason=None, logprobs={"content": []}),
    _reply(logprobs=None),
    _reply(logprobs={"content": None}),
    {"choices": [{"message": None}], "usage": None},
    {"choices": [{}], "model": None, "usage": {}},
    {
        "choices": [{"message": {"content": None}, "finish_reason": "length"}],
        "usage": {
            "prompt_tokens": 816,
            "completion_tokens": 36,
            "total_tokens": 852,
            "prompt_tokens_details": {"cached_tokens": 512, "cache_write_tokens": 4},
            "completion_tokens_details": {"reasoning_tokens": 0},
        },
    },
    {"choices": [{"message": {"content": "a"}}], "usage": {"prompt_tokens_details": None}},
]


@pytest.mark.parametrize("data", READ)
@pytest.mark.parametrize("logprobs", [True, False])
def test_typed_reading_equals_the_dict_reading(data: dict[str, Any], logprobs: bool) -> None:
    assert _agree(json.dumps(data).encode(), logprobs) is not None


def test_a_real_reply_is_read_whole() -> None:
    reply = _agree(json.dumps(READ[0]).encode())
    assert reply is not None and reply.logprobs is not None
    assert [t.token for t in reply.logprobs] == ["2", "}", "\n", "x"]
    assert reply.logprobs[0].top == (("2", -0.01), (" é", -4.0))
    assert reply.logprobs[1].logprob == 0.0 and type(reply.logprobs[1].logprob) is float


PARTS = b'{"choices": [{"message": {"content": ["part"]}}]}'  # content parts: kept as sent
TEXT_COUNT = b'{"usage": {"prompt_tokens": "12"}, "choices": [{}]}'
NAN = b'{"choices": [{"logprobs": {"content": [{"token": "2", "logprob": NaN}]}}]}'
NO_LOGPROB = b'{"choices": [{"logprobs": {"content": [{"token": "2"}]}}]}'
NO_ALTERNATIVE_LOGPROB = (
    b'{"choices": [{"logprobs": {"content": [{"token": "2", "logprob": -1.0,'
    b' "top_logprobs": [{"token": "2"}]}]}}]}'
)

DECLINED = [
    b"not json",
    b"\xff\xfe{}",
    '{"a": "é"}'.encode("utf-16"),
    b'{"choices": []}',
    b'{"choices": null}',
    b"[1, 2]",
    b'{"choices": [null]}',
    PARTS,
    b'{"choices": [{"message": []}]}',
    b'{"choices": [{"message": {"content": "\\ud800"}}]}',  # a lone surrogate
    b'{"choices": [{"finish_reason": 3}]}',
    b'{"model": 7, "choices": [{}]}',
    b'{"usage": {"prompt_tokens": 12.0}, "choices": [{}]}',
    TEXT_COUNT,
    b'{"usage": {"prompt_tokens": true}, "choices": [{}]}',
    b'{"usage": {"prompt_tokens": 18446744073709551616}, "choices": [{}]}',  # orjson: a float
    b'{"usage": {"completion_tokens": -9223372036854775809}, "choices": [{}]}',
    b'{"usage": {"prompt_tokens_details": 0}, "choices": [{}]}',
    b'{"usage": [], "choices": [{}]}',
    NAN,
    b'{"choices": [{"logprobs": {"content": [{"token": "2", "logprob": -1e400}]}}]}',
    b'{"choices": [{"logprobs": {"content": [{"token": "2", "logprob": "-1"}]}}]}',
    b'{"choices": [{"logprobs": {"content": [{"token": "2", "logprob": true}]}}]}',
    b'{"choices": [{"logprobs": {"content": [{"token": 2, "logprob": -1.0}]}}]}',
    b'{"choices": [{"logprobs": {"content": [{"logprob": -1.0}]}}]}',
    NO_LOGPROB,
    NO_ALTERNATIVE_LOGPROB,
    b'{"choices": [{"logprobs": {"content": [{"token": "2", "logprob": -1.0,'
    b' "top_logprobs": {"token": "2", "logprob": -1.0}}]}}]}',
    b'{"choices": [{"logprobs": []}]}',
    b'{"choices": [{}]} trailing',
]


@pytest.mark.parametrize("raw", DECLINED)
def test_what_the_typed_reading_cannot_take_goes_to_the_dict_path(raw: bytes) -> None:
    """Declined: the dict path then reads it, or raises, as it always did."""
    assert read_bytes(raw, True) is None


def test_declined_replies_keep_their_old_outcome() -> None:
    """A few of the declined replies, read by the dict path as before this change."""
    with pytest.raises(TransientProviderError, match="no choices"):
        read_dict(fastjson.loads(b'{"choices": []}'), True)
    parts = read_dict(fastjson.loads(PARTS), True)
    assert parts.text == ["part"]
    usage = read_dict(fastjson.loads(TEXT_COUNT), True).usage
    assert usage.prompt_tokens == 12
    nan = read_dict(fastjson.loads(NAN), True).logprobs
    assert nan is not None and math.isnan(nan[0].logprob)
    with pytest.raises(KeyError):
        read_dict(fastjson.loads(NO_ALTERNATIVE_LOGPROB), True)


def test_logprobs_not_asked_for_are_not_read() -> None:
    """As the dict path: a broken logprobs member is not looked at when none were asked."""
    raw = NO_LOGPROB
    assert read_dict(fastjson.loads(raw), False).logprobs is None
    typed = _agree(raw, logprobs=False)
    assert typed is not None and typed.logprobs is None


def test_without_msgspec_every_reply_goes_to_the_dict_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(openai_reply, "TYPED", False)
    assert read_bytes(json.dumps(READ[0]).encode(), True) is None


_FLOATS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(min_value=-(2**70), max_value=2**70),
)
_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=8)
_ALTERNATIVES = st.lists(st.fixed_dictionaries({"token": _TEXT, "logprob": _FLOATS}), max_size=4)
_TOKEN = st.fixed_dictionaries(
    {"token": _TEXT, "logprob": _FLOATS},
    optional={"top_logprobs": st.one_of(st.none(), _ALTERNATIVES), "bytes": st.just([1, 2])},
)
_MESSAGE = st.fixed_dictionaries({}, optional={"content": st.one_of(st.none(), _TEXT)})
_COUNT = st.one_of(st.none(), st.integers(min_value=-(2**63), max_value=2**63 - 1))
_REPLIES = st.fixed_dictionaries(
    {
        "choices": st.lists(
            st.fixed_dictionaries(
                {},
                optional={
                    "message": st.one_of(st.none(), _MESSAGE),
                    "finish_reason": st.one_of(st.none(), _TEXT),
                    "logprobs": st.one_of(
                        st.none(),
                        st.fixed_dictionaries(
                            {}, optional={"content": st.one_of(st.none(), st.lists(_TOKEN))}
                        ),
                    ),
                },
            ),
            min_size=1,
            max_size=2,
        )
    },
    optional={
        "model": st.one_of(st.none(), _TEXT),
        "usage": st.one_of(
            st.none(),
            st.fixed_dictionaries(
                {},
                optional={
                    "prompt_tokens": _COUNT,
                    "completion_tokens": _COUNT,
                    "prompt_tokens_details": st.one_of(
                        st.none(),
                        st.fixed_dictionaries(
                            {}, optional={"cached_tokens": _COUNT, "cache_write_tokens": _COUNT}
                        ),
                    ),
                },
            ),
        ),
    },
)


@settings(max_examples=300, deadline=None)
@given(_REPLIES, st.booleans(), st.booleans())
def test_any_well_formed_reply_reads_the_same(
    data: dict[str, Any], logprobs: bool, ascii_only: bool
) -> None:
    """Floats written by json (shortest repr) and integers up to 2**70 as log-probabilities."""
    raw = json.dumps(data, ensure_ascii=ascii_only).encode("utf-8")
    assert _agree(raw, logprobs) is not None


def test_without_msgspec_installed_both_readers_fall_back() -> None:
    """In a fresh interpreter where `import msgspec` fails: the dict paths, same values."""
    code = (
        "import sys; sys.modules['msgspec'] = None\n"
        "from sumjudge.judges import openai_reply\n"
        "from sumjudge import cache\n"
        "from sumjudge.protocol import JudgeResponse\n"
        "assert not openai_reply.TYPED and openai_reply.read_bytes(b'{}', True) is None\n"
        "assert cache.read_typed(JudgeResponse(text='t').to_json()) is None\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
