"""The fast builders of `TokenLogprob`s give what the plain constructor gives."""

from __future__ import annotations

from typing import Any

import pytest

from sumjudge.judges.openai_reply import _token_logprobs
from sumjudge.logprobs import TokenLogprob, float_pairs, stored_logprobs, token_logprobs
from sumjudge.protocol import JudgeResponse


def _plain_openai(content: list[dict[str, Any]]) -> tuple[TokenLogprob, ...]:
    """The adapter's reading as first written: every value through float()."""
    return tuple(
        TokenLogprob(
            t["token"],
            float(t["logprob"]),
            tuple((a["token"], float(a["logprob"])) for a in t.get("top_logprobs") or ()),
        )
        for t in content
    )


def _same(a: tuple[TokenLogprob, ...], b: tuple[TokenLogprob, ...]) -> bool:
    """Equal, and of the same types down to each log-probability (int 0 == 0.0)."""

    def types(x: tuple[TokenLogprob, ...]) -> list[Any]:
        return [(type(t.logprob), [(type(s), type(p)) for s, p in t.top]) for t in x]

    return a == b and types(a) == types(b) and all(type(t) is TokenLogprob for t in a)


def test_built_objects_are_ordinary_token_logprobs() -> None:
    made = token_logprobs([("2", -0.1, (("2", -0.1), ("3", -2.5))), ("x", 0.0, ())])
    plain = (TokenLogprob("2", -0.1, (("2", -0.1), ("3", -2.5))), TokenLogprob("x", 0.0))
    assert made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
    assert made[0].top[1] == ("3", -2.5) and token_logprobs([]) == ()


CONTENTS: list[list[dict[str, Any]]] = [
    [
        {
            "token": "{",
            "logprob": -0.01,
            "bytes": [123],
            "top_logprobs": [{"token": "{", "logprob": -0.01}, {"token": "x", "logprob": -4.0}],
        },
        {"token": "2", "logprob": -0.5, "top_logprobs": []},
    ],
    [  # integers, as a server may write them; no alternatives at all; null alternatives
        {"token": "2", "logprob": 0, "top_logprobs": [{"token": "2", "logprob": 0}]},
        {"token": "3", "logprob": -1},
        {"token": "4", "logprob": -2.5, "top_logprobs": None},
        {"token": "5", "logprob": -1.5, "top_logprobs": [{"token": "5", "logprob": "-1.5"}]},
    ],
]


@pytest.mark.parametrize("content", CONTENTS)
def test_the_openai_reading_is_the_plain_one(content: list[dict[str, Any]]) -> None:
    assert _same(_token_logprobs(content), _plain_openai(content))


def test_what_is_not_a_number_raises_as_before() -> None:
    bad = [{"token": "2", "logprob": -1.0, "top_logprobs": [{"token": "2", "logprob": "x"}]}]
    with pytest.raises(ValueError):
        _plain_openai(bad)
    with pytest.raises(ValueError):
        _token_logprobs(bad)
    with pytest.raises(KeyError):
        _token_logprobs([{"token": "2", "logprob": -1.0, "top_logprobs": [{"token": "2"}]}])


def test_float_pairs_keeps_what_is_already_float() -> None:
    tops = [(("a", -1.0),), ()]
    assert float_pairs(tops) is tops
    assert float_pairs([(("a", -1),), (("b", True),)]) == [(("a", -1.0),), (("b", 1.0),)]


def test_stored_rows_read_as_the_plain_reading() -> None:
    """`from_dict`'s reading: alternatives' tokens made str, log-probabilities float."""
    rows: list[Any] = [
        ["2", -0.1, [["2", -0.1], ["3", -2.5]]],
        ["x", 0, [[7, -1], ["y", -2.0, "extra"]]],
        ["z", -3.0, []],
    ]
    plain = tuple(
        TokenLogprob(t[0], float(t[1]), tuple((str(a[0]), float(a[1])) for a in t[2])) for t in rows
    )
    assert _same(stored_logprobs(rows), plain)
    with pytest.raises(IndexError):
        stored_logprobs([["2", -0.1, [["2"]]]])
    response = JudgeResponse(text="t", logprobs=plain)
    assert JudgeResponse.from_dict(response.to_dict()) == response
