"""Properties of the logprob score reader that hold whatever the numbers are.

None of these recomputes the reader's formula: they check what any correct reading must
satisfy (a probability distribution over the scale; more weight on 3 never lowers the
expected score; the same score token read however the reply is cut into tokens).
The worked numbers are in `test_parse.py`.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sumjudge.judges import JudgeResponse, TokenLogprob
from sumjudge.metrics._parse import score_distribution, weighted_score

_HEAD = '{"explanation": "Clear and complete.", "score": '
_LOGPROB = st.floats(min_value=-12.0, max_value=0.0, allow_nan=False)
_JUNK = [("x", -0.5), ("4", -0.7), (".", -1.0), ("", -2.0)]


def _verdict(alternatives: dict[str, float], junk: bool = True) -> JudgeResponse:
    """A verdict whose score token "2" has `alternatives` (plus non-score ones)."""
    top = tuple(alternatives.items()) + (tuple(_JUNK) if junk else ())
    tokens = (
        TokenLogprob(_HEAD, 0.0),
        TokenLogprob("2", alternatives.get("2", -1.0), top),
        TokenLogprob("}", 0.0),
    )
    return JudgeResponse(text="".join(t.token for t in tokens), logprobs=tokens)


def _weighted(alternatives: dict[str, float]) -> float:
    value, note = weighted_score(_verdict(alternatives))
    assert value is not None, note
    return value


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(st.sampled_from(["1", "2", "3"]), _LOGPROB, min_size=1),
    st.booleans(),
)
def test_the_distribution_is_a_probability_over_the_scale(
    alternatives: dict[str, float], junk: bool
) -> None:
    distribution, note = score_distribution(_verdict(alternatives, junk))
    assert note is None and distribution is not None
    assert set(distribution) == {1, 2, 3}
    assert all(0.0 <= p <= 1.0 for p in distribution.values())
    assert sum(distribution.values()) == pytest.approx(1.0)
    # a score no alternative names gets nothing ("2" always counts: it is the token)
    for score in (1, 3):
        if str(score) not in alternatives:
            assert distribution[score] == 0.0
    assert 1.0 <= _weighted(alternatives) <= 3.0


@settings(max_examples=150, deadline=None)
@given(_LOGPROB, _LOGPROB, _LOGPROB, st.floats(min_value=0.0, max_value=10.0))
def test_more_weight_on_three_never_lowers_the_expected_score(
    lp1: float, lp2: float, lp3: float, delta: float
) -> None:
    before = _weighted({"1": lp1, "2": lp2, "3": lp3})
    assert _weighted({"1": lp1, "2": lp2, "3": lp3 + delta}) >= before
    # and the mirror image: more weight on 1 never raises it
    assert _weighted({"1": lp1 + delta, "2": lp2, "3": lp3}) <= before


@settings(max_examples=100, deadline=None)
@given(_LOGPROB, _LOGPROB, _LOGPROB, st.floats(min_value=-8.0, max_value=0.0))
def test_only_the_ratios_of_the_scores_matter(
    lp1: float, lp2: float, lp3: float, shift: float
) -> None:
    # The same factor on every score's probability (mass lost to non-score tokens)
    # leaves the distribution as it was: it is renormalised over the scale.
    base, _ = score_distribution(_verdict({"1": lp1, "2": lp2, "3": lp3}))
    shifted, _ = score_distribution(
        _verdict({"1": lp1 + shift, "2": lp2 + shift, "3": lp3 + shift})
    )
    assert base is not None and shifted == pytest.approx(base, rel=1e-9, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.permutations([("1", -1.5), ("2", -0.4), ("3", -0.9), *_JUNK]))
def test_the_order_of_the_alternatives_does_not_matter(top: list[tuple[str, float]]) -> None:
    tokens = (TokenLogprob(_HEAD, 0.0), TokenLogprob("2", -0.4, tuple(top)))
    reply = JudgeResponse(text="", logprobs=tokens)
    reference = _verdict({"1": -1.5, "2": -0.4, "3": -0.9})
    distribution, note = score_distribution(reply)
    assert note is None
    assert distribution == pytest.approx(score_distribution(reference)[0])


# Replies as (text before the score digit, the digit, text after it). Each holds decoys:
# an escaped "score" in the explanation, an earlier "score" key, a digit after a score
# key in the prose, a "score" with no value before or after the real one.
_REPLIES = [
    ('{"explanation": "a \\"score\\": 1 here", "score": ', "2", "}"),
    ('{"score": 3, "explanation": "x", "score" : "', "1", '"}'),
    ('{"explanation": "score: 3", "score": 2} {"score":', "1", "}"),
    ('"score""score": ', "2", ""),
    ('{"score": ', "1", ', "explanation": "ok", "criterion": "score"}'),
    (_HEAD, "3", "}"),
]
# The score token's alternatives in every cut: p(1), p(2), p(3) = 0.2, 0.5, 0.3.
_SCORE_PROBABILITIES = {"1": 0.2, "2": 0.5, "3": 0.3}


def _cut(text: str, cuts: list[int]) -> list[str]:
    points = sorted({c for c in cuts if 0 < c < len(text)})
    return [text[a:b] for a, b in zip([0, *points], [*points, len(text)], strict=True)]


@st.composite
def _tokenised(draw: st.DrawFn) -> tuple[TokenLogprob, ...]:
    """A reply of `_REPLIES` cut anywhere; the score digit may share its token."""
    before, digit, after = draw(st.sampled_from(_REPLIES))
    left = draw(st.integers(0, min(3, len(before))))
    right = draw(st.integers(0, min(2, len(after))))
    head, lead = before[: len(before) - left], before[len(before) - left :]
    trail, tail = after[:right], after[right:]
    score_top = tuple((lead + d + trail, math.log(p)) for d, p in _SCORE_PROBABILITIES.items())
    score_token = TokenLogprob(
        lead + digit + trail, math.log(_SCORE_PROBABILITIES[digit]), score_top
    )
    # Every other token offers other scores: reading the wrong token shows at once.
    decoy_top = (("1", -0.1), ("3", -0.2))
    cuts = st.lists(st.integers(0, 60), max_size=10)

    def others(text: str) -> list[TokenLogprob]:
        pieces = _cut(text, draw(cuts)) if text else []
        add_empty = draw(st.booleans())
        if pieces and add_empty:
            pieces.insert(draw(st.integers(0, len(pieces))), "")  # an empty token
        return [TokenLogprob(p, -0.05, decoy_top if draw(st.booleans()) else ()) for p in pieces]

    return (*others(head), score_token, *others(tail))


@settings(max_examples=200, deadline=None)
@given(_tokenised())
def test_the_score_token_is_found_in_any_tokenisation(tokens: tuple[TokenLogprob, ...]) -> None:
    reply = JudgeResponse(text="".join(t.token for t in tokens), logprobs=tokens)
    distribution, note = score_distribution(reply)
    assert note is None
    assert distribution == pytest.approx({1: 0.2, 2: 0.5, 3: 0.3})


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 40), max_size=10))
def test_a_reply_without_a_score_value_says_so_in_any_tokenisation(cuts: list[int]) -> None:
    text = '{"explanation": "score: 3 \\"score\\": 2", "score": "x"}'
    tokens = tuple(TokenLogprob(p, -0.1, (("1", -0.1), ("3", -0.2))) for p in _cut(text, cuts))
    reply = JudgeResponse(text=text, logprobs=tokens)
    assert score_distribution(reply) == (None, "no score value found in the logprob tokens")
