"""Made-up token log-probabilities: a confident digit score, and junk alternatives."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

__all__ = ["FakeLogprobs"]

_JUNK = (" the", "alt", ",", "\n", " a", "ing", ".", " is", "}", " and")


class FakeLogprobs:
    """Per-token logprob entries in the OpenAI shape, for one server's `digit_probs`.

    A digit token gets `digit_probs[0]`, its nearest other score digit `digit_probs[1]`,
    and so on; any other token is near-certain.
    """

    def __init__(self, digit_probs: Sequence[float]) -> None:
        self.digit_probs = tuple(digit_probs)
        self._digit_alts = {d: self._digit_alternatives(d) for d in "12345"}
        self._memo: dict[tuple[str, int], str] = {}  # used on the server thread only

    def _digit_alternatives(self, digit: str) -> list[tuple[str, float]]:
        chosen = int(digit)
        others = sorted({1, 2, 3} - {chosen}, key=lambda d: (abs(d - chosen), d))
        alts: list[tuple[str, float]] = []
        for i, d in enumerate([chosen, *others]):
            p = self.digit_probs[i] if i < len(self.digit_probs) else 1e-4 / (i + 1)
            alts.append((str(d), _logprob(p)))
        alts.extend((j, -9.0 - i) for i, j in enumerate(_JUNK))
        return alts

    def entry(self, tok: str, top_n: int) -> dict[str, Any]:
        """The `logprobs.content` entry of `tok` with `top_n` alternatives."""
        alts = self._digit_alts.get(tok)
        if alts is None:
            alts = [(tok, -0.01)]
            alts.extend((j, -4.0 - i) for i, j in enumerate(_JUNK[: top_n + 1]) if j != tok)
        top = [{"token": t, "logprob": lp, "bytes": list(t.encode())} for t, lp in alts[:top_n]]
        return {
            "token": tok,
            "logprob": alts[0][1],
            "bytes": list(tok.encode()),
            "top_logprobs": top,
        }

    def json_list(self, tokens: list[str], top_n: int) -> str:
        """The JSON text of the entries of all `tokens`."""
        # Serialised entries are memoised per (token, top_n): encoding hundreds of small dicts
        # per reply was the largest per-request cost.
        memo = self._memo
        parts: list[str] = []
        for tok in tokens:
            frag = memo.get((tok, top_n))
            if frag is None:
                frag = json.dumps(self.entry(tok, top_n), ensure_ascii=False)
                if len(memo) < 65536:
                    memo[(tok, top_n)] = frag
            parts.append(frag)
        return "[" + ",".join(parts) + "]"


def _logprob(p: float) -> float:
    return math.log(p) if p > 0 else -20.0
