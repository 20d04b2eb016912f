"""Reading every reply shape, and logprob weighting from the score token itself."""

from __future__ import annotations

import math
import random
import re
from typing import Any

import pytest

from sumjudge.errors import ParseError
from sumjudge.judges import JudgeResponse, TokenLogprob
from sumjudge.metrics._parse import (
    extract_json,
    read_score_verdict,
    score_distribution,
    weighted_score,
)


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


def _tokens(pieces: list[tuple[str, dict[str, float]]]) -> tuple[TokenLogprob, ...]:
    out = []
    for tok, alts in pieces:
        top = tuple((t, math.log(p)) for t, p in alts.items()) if alts else ((tok, 0.0),)
        lp = math.log(alts[tok]) if alts and tok in alts else 0.0
        out.append(TokenLogprob(tok, lp, top))
    return tuple(out)


def test_weighted_score_uses_score_token_not_explanation_digits() -> None:
    pieces = [
        ('{"', {}),
        ("explanation", {}),
        ('":', {}),
        (' "', {}),
        ("3", {"3": 0.9, "1": 0.1}),  # a digit inside the explanation: must be ignored
        (' issues"', {}),
        (', "', {}),
        ("score", {}),
        ('":', {}),
        (" ", {}),
        ("2", {"2": 0.5, "3": 0.3, "1": 0.2}),
        ("}", {}),
    ]
    tokens = _tokens(pieces)
    text = "".join(t.token for t in tokens)
    value, note = weighted_score(JudgeResponse(text=text, logprobs=tokens))
    assert note is None
    assert value == pytest.approx(0.2 * 1 + 0.5 * 2 + 0.3 * 3)


def test_weighted_score_with_space_prefixed_tokens_and_junk() -> None:
    pieces = [
        ('{"explanation": "ok", "score":', {}),
        (" 3", {" 3": 0.6, " 2": 0.2, " x": 0.1, "3": 0.1}),
        ("}", {}),
    ]
    tokens = _tokens(pieces)
    value, note = weighted_score(JudgeResponse(text="", logprobs=tokens))
    assert note is None
    # junk " x" is dropped; " 3" and "3" both count as 3; renormalised over 0.9
    assert value == pytest.approx((0.7 * 3 + 0.2 * 2) / 0.9, abs=1e-4)


def test_weighted_score_absent_logprobs_says_why() -> None:
    value, note = weighted_score(JudgeResponse(text="{}", logprobs=None, logprobs_note="nope"))
    assert value is None and note == "nope"


def test_weighted_score_without_valid_alternatives() -> None:
    tokens = _tokens([('{"explanation": "ok", "score": ', {}), ("7", {"7": 1.0}), ("}", {})])
    value, note = weighted_score(JudgeResponse(text="", logprobs=tokens))
    assert value is None and note and "no valid score" in note


def _old_score_distribution(tokens: tuple[TokenLogprob, ...]) -> Any:
    """`score_distribution` as it was before the search went backwards (the reference)."""
    text = "".join(t.token for t in tokens)
    matches = list(re.finditer(r'"score"\s*:\s*"?\s*(\d)', text))
    if not matches:
        return None, "no score value found in the logprob tokens"
    pos = matches[-1].start(1)
    offset = 0
    target, start = None, 0
    for tok in tokens:
        end = offset + len(tok.token)
        if offset <= pos < end:
            target, start = tok, offset
            break
        offset = end
    assert target is not None
    prefix, suffix = text[start:pos], target.token[pos - start + 1 :]
    mass: dict[int, float] = {}
    alternatives = list(target.top) or [(target.token, target.logprob)]
    if all(a[0] != target.token for a in alternatives):
        alternatives.append((target.token, target.logprob))
    for alt, lp in alternatives:
        body = alt
        if prefix and body.startswith(prefix):
            body = body[len(prefix) :]
        elif prefix.strip():
            continue
        if suffix and body.endswith(suffix):
            body = body[: -len(suffix)]
        body = body.strip().strip('"')
        if body in {"1", "2", "3"} and math.isfinite(lp):
            mass[int(body)] = mass.get(int(body), 0.0) + math.exp(lp)
    total = sum(mass.values())
    if total <= 0:
        return None, "the score token's alternatives hold no valid score"
    return {v: mass.get(v, 0.0) / total for v in (1, 2, 3)}, None


def test_the_score_token_is_found_as_before_in_any_tokenisation() -> None:
    """The backwards search reads the same token, so the same distribution, as the forward
    scan did, wherever the tokens are cut (empty tokens, several "score" keys)."""
    rng = random.Random(11)
    texts = [
        '{"explanation": "a \\"score\\": 1 here", "score": 2}',
        '{"score": 3, "explanation": "x", "score" : "1"}',
        '{"explanation": "score: 3", "score": 2} {"score":1}',
        '{"explanation": "none", "score": "x"}',
        '"score""score": 2',
    ]
    for _ in range(400):
        text = rng.choice(texts)
        n = rng.randint(0, 12)
        cuts = sorted(rng.sample(range(1, len(text)), n))
        pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
        if rng.random() < 0.3:
            pieces.insert(rng.randrange(len(pieces) + 1), "")  # an empty token
        tokens = []
        for p in pieces:
            top = tuple((p[:1] + str(d) + p[2:], -0.3 * d) for d in (1, 2, 3))
            tokens.append(TokenLogprob(p, -0.1, top if rng.random() < 0.8 else ()))
        response = JudgeResponse(text=text, logprobs=tuple(tokens))
        assert score_distribution(response) == _old_score_distribution(tuple(tokens))
