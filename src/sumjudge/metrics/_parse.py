"""Reading judge replies: JSON extraction, verdict validation, logprob-weighted scores."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from ..errors import ParseError
from ..protocol import JudgeResponse, TokenLogprob

__all__ = ["extract_json", "read_score_verdict", "score_distribution", "weighted_score"]

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
# strict=False lets raw newlines inside strings through (llama.cpp grammars emit them).
_DECODER = json.JSONDecoder(strict=False)


def extract_json(text: str) -> Any:
    """The reply's JSON value; raises `ParseError` when there is none.

    Tried in turn: the whole text, the last fenced block, the last top-level JSON object
    found in the text.
    """
    return _json_and_span(text)[0]


def _json_and_span(text: str) -> tuple[Any, int, int]:
    """`extract_json`'s value and where in `text` it was read (start, end)."""
    stripped = text.strip()
    if not stripped:
        raise ParseError("the reply is empty", raw=text)
    try:
        return _DECODER.decode(stripped), 0, len(text)
    except json.JSONDecodeError:
        pass
    for block in reversed(list(_FENCE.finditer(text))):
        try:
            return _DECODER.decode(block.group(1).strip()), block.start(1), block.end(1)
        except json.JSONDecodeError:
            continue
    last: tuple[Any, int, int] | None = None
    i = text.find("{")
    while i != -1:
        try:
            value, end = _DECODER.raw_decode(text, i)
        except json.JSONDecodeError:
            i = text.find("{", i + 1)
            continue
        if isinstance(value, dict):
            last = (value, i, end)
        i = text.find("{", end)
    if last is None:
        raise ParseError("no JSON object found in the reply", raw=text)
    return last


def _as_int_score(value: Any, low: int, high: int) -> int:
    if isinstance(value, bool):
        raise ParseError(f"score {value!r} is not a number")
    if isinstance(value, str):
        value = value.strip()
        if not re.fullmatch(r"-?\d+(\.0+)?", value):
            raise ParseError(f"score {value!r} is not an integer")
        value = float(value)
    if isinstance(value, float):
        if not value.is_integer():
            raise ParseError(f"score {value!r} is not an integer")
        value = int(value)
    if not isinstance(value, int):
        raise ParseError(f"score {value!r} is not an integer")
    if not low <= value <= high:
        raise ParseError(f"score {value} is outside the scale {low}-{high}")
    return value


def read_score_verdict(response: JudgeResponse, low: int = 1, high: int = 3) -> tuple[int, str]:
    """(score, explanation) from a reply shaped {"explanation": str, "score": int}."""
    data = response.parsed if response.parsed is not None else extract_json(response.text)
    if not isinstance(data, dict):
        raise ParseError("the reply's JSON is not an object", raw=response.text)
    if "score" not in data:
        raise ParseError("the reply has no 'score' field", raw=response.text)
    try:
        score = _as_int_score(data["score"], low, high)
    except ParseError as exc:
        raise ParseError(str(exc), raw=response.text) from None
    explanation = data.get("explanation")
    if not isinstance(explanation, str) or not explanation.strip():
        raise ParseError("the reply has no non-empty 'explanation' string", raw=response.text)
    return score, explanation.strip()


_SCORE_VALUE = re.compile(r'"score"\s*:\s*"?\s*(\d+)')


def _last_score_value(text: str) -> re.Match[str] | None:
    """The last match of `_SCORE_VALUE` inside the JSON the verdict is read from.

    The search is bounded by where `extract_json` found the verdict, so a `"score"`
    quoted in prose around it never counts (a reply that is not JSON at all is searched
    whole: its score is then not read by the verdict either). Matches cannot overlap
    (one starts only at a `"score"` key), so the last key that matches is the last match.
    """
    try:
        _, lo, hi = _json_and_span(text)
    except ParseError:
        lo, hi = 0, len(text)
    i = text.rfind('"score"', lo, hi)
    while i != -1:
        found = _SCORE_VALUE.match(text, i, hi)
        if found is not None:
            return found
        i = text.rfind('"score"', lo, i)
    return None


def weighted_score(
    response: JudgeResponse, low: int = 1, high: int = 3
) -> tuple[float | None, str | None]:
    """Expected score over the valid score tokens, from the score token's own logprobs.

    Returns (weighted, None) or (None, reason); see `score_distribution`.
    """
    distribution, note = score_distribution(response, low, high)
    if distribution is None:
        return None, note
    return expectation(distribution), None


def expectation(distribution: dict[int, float]) -> float:
    """The mean score of `distribution`, to 4 decimals."""
    return round(sum(k * p for k, p in distribution.items()), 4)


def score_distribution(
    response: JudgeResponse, low: int = 1, high: int = 3
) -> tuple[dict[int, float] | None, str | None]:
    """The probability of each valid score, renormalised over the valid scores.

    Read from the score token's own logprobs (its top alternatives). Returns
    (distribution, None) with every score of `low`..`high` present (0.0 when no
    alternative named it), or (None, reason). The score token is located at the
    character offset of the value of the reply's last "score" key, so a digit in the
    explanation never counts.
    """
    if response.logprobs is None:
        return None, response.logprobs_note or "the judge returned no logprobs"
    tokens = response.logprobs
    text = "".join([t.token for t in tokens])
    found = _last_score_value(text)
    if found is None:
        return None, "no score value found in the logprob tokens"
    pos, value_end = found.start(1), found.end(1)
    # The score is near the end of the reply: walk back from there to the token holding it.
    end = len(text)
    target: TokenLogprob | None = None
    start = 0
    for tok in reversed(tokens):
        start = end - len(tok.token)
        if start <= pos < end:
            target = tok
            break
        end = start
    if target is None:  # pragma: no cover - pos always falls in some token
        return None, "could not locate the score token"
    if value_end > end:  # "10" sent as "1" then "0": no one token's alternatives hold it
        return None, "the score value spans several logprob tokens"
    prefix = text[start:pos]
    suffix = target.token[value_end - start :]
    valid = {str(v) for v in range(low, high + 1)}
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
        if body in valid and math.isfinite(lp):
            mass[int(body)] = mass.get(int(body), 0.0) + math.exp(lp)
    total = sum(mass.values())
    if total <= 0:
        return None, "the score token's alternatives hold no valid score"
    return {v: mass.get(v, 0.0) / total for v in range(low, high + 1)}, None
