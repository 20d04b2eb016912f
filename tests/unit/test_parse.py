"""Reading every reply shape, and logprob weighting from the score token itself.

Every expected number below is worked out by hand in the comment beside it: the tests
never recompute the reader's formula, so a mistake in the reader cannot hide behind
the same mistake in the test. Properties (sums, monotonicity, any tokenisation) are in
`test_parse_properties.py`.
"""

from __future__ import annotations

import math

import pytest

from sumjudge.errors import ParseError
from sumjudge.judges import JudgeResponse, TokenLogprob
from sumjudge.metrics._parse import (
    expectation,
    extract_json,
    read_score_verdict,
    score_distribution,
    weighted_score,
)
from sumjudge.types import MetricResult

# --- the verdict JSON -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        '{"explanation": "Clear.", "score": 3}',
        '```json\n{"explanation": "Clear.", "score": 3}\n```',
        'Here is my verdict:\n{"explanation": "Clear.", "score": 3}\nThanks.',
        '{"explanation": "draft", "score": 1} then corrected {"explanation": "Clear.", "score": 3}',
        '{"explanation": "Clear.", "score": "3"}',
        '{"explanation": "Clear.", "score": 3.0}',
    ],
)
def test_reply_shapes(text: str) -> None:
    score, explanation = read_score_verdict(JudgeResponse(text=text))
    assert (score, explanation) == (3, "Clear.")


def test_raw_newline_inside_string_is_accepted() -> None:
    score, explanation = read_score_verdict(
        JudgeResponse(text='{"explanation": "line one\nline two", "score": 2}')
    )
    assert score == 2 and explanation == "line one\nline two"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("I think it is a 3.", "no JSON object"),
        ("", "empty"),
        ('{"explanation": "x", "score": 7}', "outside the scale"),
        ('{"explanation": "x", "score": 0}', "outside the scale"),
        ('{"explanation": "x", "score": 2.5}', "not an integer"),
        ('{"explanation": "x", "score": "good"}', "not an integer"),
        ('{"explanation": "x", "score": true}', "not a number"),
        ('{"explanation": "x"}', "no 'score'"),
        ('{"explanation": "", "score": 2}', "explanation"),
        ("[1, 2, 3]", "not an object"),
    ],
)
def test_bad_replies_raise(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        read_score_verdict(JudgeResponse(text=text))


def test_provider_parsed_json_wins() -> None:
    resp = JudgeResponse(text="garbage", parsed={"explanation": "ok", "score": 1})
    assert read_score_verdict(resp) == (1, "ok")


def test_extract_json_nested_objects_returns_outer() -> None:
    assert extract_json('x {"a": {"b": 1}} y') == {"a": {"b": 1}}


# --- the normalised score (spec: "normalized_score ... ranges between 0 - 1") ----------


@pytest.mark.parametrize(
    ("score", "normalized"),
    [
        (1, 0.33),  # 1/3 = 0.333.. -> 0.33
        (2, 0.67),  # 2/3 = 0.666.. -> 0.67 (the spec's own example: fluency 2 -> 0.67)
        (3, 1.0),  # 3/3 = 1 (the spec's example: score 3 -> 1.0)
        (None, None),  # an unjudged metric has no normalised score
    ],
)
def test_normalized_score_is_score_over_three(score: int | None, normalized: float) -> None:
    assert MetricResult(name="fluency", version="1", score=score).normalized_score == normalized


def test_a_read_verdict_normalises_as_the_spec_prints_it() -> None:
    score, _ = read_score_verdict(JudgeResponse(text='{"explanation": "Minor slips.", "score": 2}'))
    assert MetricResult(name="fluency", version="1", score=score).normalized_score == 0.67


# --- the score token's logprobs ---------------------------------------------------------

_HEAD = '{"explanation": "Clear and complete.", "score": '


def _reply(*tokens: TokenLogprob) -> JudgeResponse:
    return JudgeResponse(text="".join(t.token for t in tokens), logprobs=tokens)


def _verdict(token: str, logprob: float, *top: tuple[str, float]) -> JudgeResponse:
    """A verdict tokenised as `_HEAD`, the score token `token` (with `top`), `}`."""
    return _reply(
        TokenLogprob(_HEAD, 0.0), TokenLogprob(token, logprob, top), TokenLogprob("}", 0.0)
    )


def test_a_clean_single_score_token() -> None:
    reply = _verdict("3", 0.0, ("3", 0.0))
    # all the mass on "3": p(3) = e^0/e^0 = 1
    assert score_distribution(reply) == ({1: 0.0, 2: 0.0, 3: 1.0}, None)
    assert weighted_score(reply) == (3.0, None)


def test_a_score_token_without_alternatives_counts_itself() -> None:
    # no top list: the token alone, p(2) = e^-0.3/e^-0.3 = 1
    assert score_distribution(_verdict("2", -0.3)) == ({1: 0.0, 2: 1.0, 3: 0.0}, None)


def test_two_alternatives_are_renormalised() -> None:
    reply = _verdict("3", -0.1, ("3", -0.1), ("2", -2.4))
    distribution, note = score_distribution(reply)
    assert note is None
    # p(3) = e^-0.1/(e^-0.1+e^-2.4) = 0.90484/(0.90484+0.09072) = 0.90888
    # p(2) = e^-2.4/(e^-0.1+e^-2.4) = 0.09072/0.99556 = 0.09112
    assert distribution == pytest.approx({1: 0.0, 2: 0.09112, 3: 0.90888}, abs=1e-5)
    # 2*0.091123 + 3*0.908877 = 2.908877 -> 4 decimals: 2.9089
    assert weighted_score(reply) == (2.9089, None)


def test_alternatives_over_one_two_three() -> None:
    reply = _verdict("2", -0.5, ("2", -0.5), ("3", -1.2), ("1", -2.0))
    distribution, _ = score_distribution(reply)
    # e^-2.0 = 0.135335, e^-0.5 = 0.606531, e^-1.2 = 0.301194; sum 1.043060
    # p(1) = 0.135335/1.043060 = 0.129748, p(2) = 0.581492, p(3) = 0.288760
    assert distribution == pytest.approx({1: 0.129748, 2: 0.581492, 3: 0.288760}, abs=1e-6)
    # 1*0.129748 + 2*0.581492 + 3*0.288760 = 2.159012 -> 2.159
    assert weighted_score(reply) == (2.159, None)


def test_non_score_alternatives_are_ignored() -> None:
    lp = math.log
    top = [("3", lp(0.6)), ("2", lp(0.2)), ("x", lp(0.1)), ("4", lp(0.05)), ("0", lp(0.05))]
    reply = _verdict("3", lp(0.6), *top)
    # "x", "4" and "0" are no scores on 1-3: p(3) = 0.6/(0.6+0.2) = 0.75, p(2) = 0.25
    assert score_distribution(reply)[0] == pytest.approx({1: 0.0, 2: 0.25, 3: 0.75})
    assert weighted_score(reply) == (2.75, None)  # 2*0.25 + 3*0.75
    # on a 1-5 scale "4" is a score: total 0.2+0.6+0.05 = 0.85
    # p(2) = 0.2/0.85 = 0.235294, p(3) = 0.705882, p(4) = 0.058824
    assert score_distribution(reply, 1, 5)[0] == pytest.approx(
        {1: 0.0, 2: 0.235294, 3: 0.705882, 4: 0.058824, 5: 0.0}, abs=1e-6
    )
    # (2*0.2 + 3*0.6 + 4*0.05)/0.85 = 2.4/0.85 = 2.823529 -> 2.8235
    assert weighted_score(reply, 1, 5) == (2.8235, None)


def test_a_nan_logprob_is_ignored() -> None:
    reply = _verdict(
        "3", math.log(0.6), ("3", math.log(0.6)), ("2", math.nan), ("1", math.log(0.2))
    )
    # the NaN "2" carries nothing: p(3) = 0.6/0.8 = 0.75, p(1) = 0.2/0.8 = 0.25
    assert score_distribution(reply)[0] == pytest.approx({1: 0.25, 2: 0.0, 3: 0.75})


def test_the_score_token_not_among_its_alternatives_is_added() -> None:
    reply = _verdict("2", math.log(0.4), ("3", math.log(0.5)), ("1", math.log(0.1)))
    # the chosen "2" (0.4) joins the listed 0.5 and 0.1: total 1.0
    assert score_distribution(reply)[0] == pytest.approx({1: 0.1, 2: 0.4, 3: 0.5})
    assert weighted_score(reply) == (2.4, None)  # 1*0.1 + 2*0.4 + 3*0.5


def test_a_two_way_tie() -> None:
    reply = _verdict("2", -0.7, ("2", -0.7), ("3", -0.7))
    # e^-0.7 each: p(2) = p(3) = 0.49659/0.99317 = 0.5
    assert score_distribution(reply)[0] == pytest.approx({1: 0.0, 2: 0.5, 3: 0.5})
    assert weighted_score(reply) == (2.5, None)  # 2*0.5 + 3*0.5


def test_a_three_way_tie() -> None:
    reply = _verdict("1", -1.1, ("1", -1.1), ("2", -1.1), ("3", -1.1))
    third = 1 / 3
    assert score_distribution(reply)[0] == pytest.approx({1: third, 2: third, 3: third})
    assert weighted_score(reply) == (2.0, None)  # (1+2+3)/3


def test_digits_in_the_explanation_are_not_the_score() -> None:
    lp = math.log
    reply = _reply(
        TokenLogprob('{"explanation": "', 0.0),
        # a digit inside the explanation, with its own alternatives: must be ignored
        TokenLogprob("3", lp(0.9), (("3", lp(0.9)), ("1", lp(0.1)))),
        TokenLogprob(' issues", "', 0.0),
        TokenLogprob("score", 0.0),
        TokenLogprob('":', 0.0),
        TokenLogprob(" ", 0.0),
        TokenLogprob("2", lp(0.5), (("2", lp(0.5)), ("3", lp(0.3)), ("1", lp(0.2)))),
        TokenLogprob("}", 0.0),
    )
    # the score token's own alternatives sum to 1: 1*0.2 + 2*0.5 + 3*0.3 = 2.1
    assert weighted_score(reply) == (2.1, None)


def test_a_space_before_the_digit_inside_the_token() -> None:
    lp = math.log
    top = [(" 3", lp(0.6)), (" 2", lp(0.2)), (" x", lp(0.1)), ("3", lp(0.1))]
    reply = _reply(TokenLogprob(_HEAD.rstrip(), 0.0), TokenLogprob(" 3", lp(0.6), tuple(top)))
    # " x" is dropped; " 3" and "3" both are 3: p(3) = 0.7/0.9 = 7/9, p(2) = 2/9
    assert score_distribution(reply)[0] == pytest.approx({1: 0.0, 2: 2 / 9, 3: 7 / 9})
    # (3*0.7 + 2*0.2)/0.9 = 2.5/0.9 = 2.7778
    assert weighted_score(reply) == (2.7778, None)


def test_a_quoted_score() -> None:
    lp = math.log
    reply = _verdict('"2"', lp(0.6), ('"2"', lp(0.6)), ('"3"', lp(0.3)), ('"1', lp(0.1)))
    # the quotes around the digit are not part of the score: 1*0.1 + 2*0.6 + 3*0.3 = 2.2
    assert score_distribution(reply)[0] == pytest.approx({1: 0.1, 2: 0.6, 3: 0.3})
    assert weighted_score(reply) == (2.2, None)


def test_a_quoted_alternative_to_a_bare_score() -> None:
    lp = math.log
    reply = _verdict("2", lp(0.5), ("2", lp(0.5)), ('"3"', lp(0.4)), (' "1', lp(0.1)))
    # quoting the score ("score": "3") still names score 3: 1*0.1 + 2*0.5 + 3*0.4 = 2.3
    assert score_distribution(reply)[0] == pytest.approx({1: 0.1, 2: 0.5, 3: 0.4})
    assert weighted_score(reply) == (2.3, None)


def test_the_text_after_the_digit_inside_the_token() -> None:
    lp = math.log
    reply = _reply(
        TokenLogprob(_HEAD, 0.0),
        TokenLogprob("2}", lp(0.6), (("2}", lp(0.6)), ("3}", lp(0.3)), ("1", lp(0.1)))),
    )
    # "2}" -> 2, "3}" -> 3, a bare "1" -> 1: 1*0.1 + 2*0.6 + 3*0.3 = 2.2
    assert weighted_score(reply) == (2.2, None)


def test_an_alternative_that_changes_the_text_before_the_digit_is_not_a_score() -> None:
    lp = math.log
    reply = _reply(
        TokenLogprob('{"explanation": "ok", "score"', 0.0),
        TokenLogprob(":3", lp(0.8), ((":3", lp(0.8)), (":2", lp(0.1)), ("3", lp(0.1)))),
        TokenLogprob("}", 0.0),
    )
    # "3" without the ":" would continue the text differently; only ":3" and ":2" count:
    # p(3) = 0.8/0.9 = 8/9, p(2) = 1/9; 3*8/9 + 2/9 = 26/9 = 2.8889
    assert score_distribution(reply)[0] == pytest.approx({1: 0.0, 2: 1 / 9, 3: 8 / 9})
    assert weighted_score(reply) == (2.8889, None)


def test_the_key_split_across_tokens() -> None:
    lp = math.log
    reply = _reply(
        TokenLogprob('{"explanation": "ok", "', 0.0),
        TokenLogprob("sc", 0.0),
        TokenLogprob("ore", 0.0),
        TokenLogprob('":', 0.0),
        TokenLogprob("", 0.0),  # an empty token (some servers send them)
        TokenLogprob(" ", 0.0),
        TokenLogprob("1", lp(0.7), (("1", lp(0.7)), ("2", lp(0.3)))),
        TokenLogprob("}", 0.0),
    )
    assert weighted_score(reply) == (1.3, None)  # 1*0.7 + 2*0.3


def test_the_last_score_key_is_read() -> None:
    lp = math.log
    reply = _reply(
        TokenLogprob('{"score": ', 0.0),
        TokenLogprob("3", lp(0.9), (("3", lp(0.9)), ("2", lp(0.1)))),
        TokenLogprob(', "explanation": "x", "score" : "', 0.0),
        TokenLogprob("1", lp(0.5), (("1", lp(0.5)), ("2", lp(0.5)))),
        TokenLogprob('"}', 0.0),
    )
    assert weighted_score(reply) == (1.5, None)  # the second key: 1*0.5 + 2*0.5


def test_a_later_score_string_without_a_value_is_passed_over() -> None:
    lp = math.log
    reply = _reply(
        TokenLogprob('{"score": ', 0.0),
        TokenLogprob("2", lp(0.6), (("2", lp(0.6)), ("1", lp(0.4)))),
        TokenLogprob(', "explanation": "ok", "criterion": "score"}', 0.0),
    )
    assert weighted_score(reply) == (1.6, None)  # 1*0.4 + 2*0.6


def test_an_escaped_score_key_inside_the_explanation_is_not_read() -> None:
    lp = math.log
    reply = _reply(
        TokenLogprob('{"explanation": "a \\"score\\": ', 0.0),
        TokenLogprob("1", 0.0, (("1", 0.0),)),
        TokenLogprob(' here", "score": ', 0.0),
        TokenLogprob("3", lp(0.8), (("3", lp(0.8)), ("2", lp(0.2)))),
        TokenLogprob("}", 0.0),
    )
    assert weighted_score(reply) == (2.8, None)  # 2*0.2 + 3*0.8


# --- when there is no distribution ------------------------------------------------------


def test_absent_logprobs_say_why() -> None:
    reply = JudgeResponse(text="{}", logprobs=None, logprobs_note="nope")
    assert score_distribution(reply) == (None, "nope")
    assert weighted_score(reply) == (None, "nope")


def test_absent_logprobs_without_a_note() -> None:
    reply = JudgeResponse(text="{}", logprobs=None)
    assert weighted_score(reply) == (None, "the judge returned no logprobs")


@pytest.mark.parametrize(
    "tokens",
    [
        (),  # logprobs asked for and an empty list returned
        (TokenLogprob('{"explanation": "none", "score": "x"}', 0.0),),  # no digit value
        (TokenLogprob('{"explanation": "it deserves a 3"}', 0.0),),  # no "score" key
    ],
)
def test_no_score_value_in_the_tokens(tokens: tuple[TokenLogprob, ...]) -> None:
    expected = (None, "no score value found in the logprob tokens")
    assert weighted_score(_reply(*tokens)) == expected


@pytest.mark.parametrize(
    "reply",
    [
        _verdict("7", 0.0, ("7", 0.0)),  # the score token and its alternatives are off-scale
        _verdict("2", math.nan, ("2", math.nan), ("3", math.nan)),  # no finite logprob
    ],
)
def test_no_valid_alternative(reply: JudgeResponse) -> None:
    expected = (None, "the score token's alternatives hold no valid score")
    assert weighted_score(reply) == expected


# --- the expectation itself ------------------------------------------------------------


def test_expectation_rounds_to_four_decimals() -> None:
    # 1*0.12344 + 3*0.87656 = 0.12344 + 2.62968 = 2.75312 -> 2.7531
    assert expectation({1: 0.12344, 2: 0.0, 3: 0.87656}) == 2.7531
    assert expectation({1: 0.5, 2: 0.0, 3: 0.5}) == 2.0  # 0.5 + 1.5
