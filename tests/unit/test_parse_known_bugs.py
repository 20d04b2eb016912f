"""Known faults of the logprob score reader, pinned as strict xfails until fixed.

Each test states what a correct reader gives (worked by hand); when the reader is fixed
the test passes, the strict xfail turns that into a failure, and the marker comes off.
"""

from __future__ import annotations

import math

import pytest

from sumjudge.judges import JudgeResponse, TokenLogprob
from sumjudge.metrics._parse import read_score_verdict, weighted_score


def _reply(*tokens: TokenLogprob) -> JudgeResponse:
    return JudgeResponse(text="".join(t.token for t in tokens), logprobs=tokens)


@pytest.mark.xfail(
    strict=True,
    reason="the score value pattern reads one digit, so on a 1-10 scale a 10 counts as 1",
)
def test_a_two_digit_score_on_a_ten_point_scale() -> None:
    lp = math.log
    reply = _reply(
        TokenLogprob('{"explanation": "ok", "score": ', 0.0),
        TokenLogprob("10", lp(0.8), (("10", lp(0.8)), ("9", lp(0.2)))),
        TokenLogprob("}", 0.0),
    )
    assert read_score_verdict(reply, 1, 10) == (10, "ok")
    # 10*0.8 + 9*0.2 = 9.8 (the reader gives 1*0.8 + 9*0.2 = 2.6)
    assert weighted_score(reply, 1, 10) == (9.8, None)


@pytest.mark.xfail(
    strict=True,
    reason='the distribution reads the last "score" key in the text, the verdict the last '
    "JSON object: a quoted key in prose after the JSON moves the distribution off the verdict",
)
def test_a_score_key_quoted_in_prose_after_the_verdict() -> None:
    lp = math.log
    reply = _reply(
        TokenLogprob('{"explanation": "ok", "score": ', 0.0),
        TokenLogprob("3", lp(0.9), (("3", lp(0.9)), ("2", lp(0.1)))),
        TokenLogprob('}\nA "score": ', 0.0),
        TokenLogprob("1", 0.0, (("1", 0.0),)),
        TokenLogprob(" would be too harsh.", 0.0),
    )
    assert read_score_verdict(reply) == (3, "ok")
    # the verdict's own token: 2*0.1 + 3*0.9 = 2.9 (the reader gives 1.0, from the prose)
    assert weighted_score(reply) == (2.9, None)
