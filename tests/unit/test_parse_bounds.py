"""Where the logprob score reader looks: the whole score value, inside the verdict's JSON.

Two faults found when the oracle copy of the reader was replaced by hand-worked values
(expected values worked by hand in the comments).
"""

from __future__ import annotations

import math

from sumjudge.judges import JudgeResponse, TokenLogprob
from sumjudge.metrics._parse import read_score_verdict, weighted_score


def _reply(*tokens: TokenLogprob) -> JudgeResponse:
    return JudgeResponse(text="".join(t.token for t in tokens), logprobs=tokens)


def test_a_two_digit_score_on_a_ten_point_scale() -> None:
    lp = math.log
    reply = _reply(
        TokenLogprob('{"explanation": "ok", "score": ', 0.0),
        TokenLogprob("10", lp(0.8), (("10", lp(0.8)), ("9", lp(0.2)))),
        TokenLogprob("}", 0.0),
    )
    assert read_score_verdict(reply, 1, 10) == (10, "ok")
    # 10*0.8 + 9*0.2 = 9.8 (a reader of one digit gave 1*0.8 + 9*0.2 = 2.6)
    assert weighted_score(reply, 1, 10) == (9.8, None)


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
    # the verdict's own token: 2*0.1 + 3*0.9 = 2.9 (reading the prose's key gave 1.0)
    assert weighted_score(reply) == (2.9, None)


def test_a_score_sent_as_two_tokens_is_not_read_from_the_first() -> None:
    lp = math.log
    reply = _reply(
        TokenLogprob('{"explanation": "ok", "score": ', 0.0),
        TokenLogprob("1", lp(0.7), (("1", lp(0.7)), ("9", lp(0.3)))),
        TokenLogprob("0", 0.0),
        TokenLogprob("}", 0.0),
    )
    assert read_score_verdict(reply, 1, 10) == (10, "ok")
    # "1" then "0": the first token's alternatives weigh 1 against 9, not 10 against 9
    assert weighted_score(reply, 1, 10) == (None, "the score value spans several logprob tokens")
