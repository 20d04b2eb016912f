"""What can honestly be judged without an LLM (`model="local"`).

- Accuracy: each summary sentence is checked against the transcript by
  `sumjudge.offline.OfflineScorer.check_sentences` (lexical and, when available,
  embedding support); the support quote is verified like a judge's quote.
- Adherence: the deterministic categorical check only. Rubric questions for free-form
  sections need an LLM judge, so those sections are N/A with that reason.
- Completeness: N/A ("needs an LLM judge").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..errors import ConfigError
from .model import Turn
from .results import AccuracyPoint
from .transcript import verify_quote

__all__ = ["NEEDS_LLM", "load_scorer", "offline_points"]

NEEDS_LLM = "N/A: needs an LLM judge (offline mode judges only what it can check without one)"

_TURN_PREFIX = re.compile(r"^\[\d+\]\s[^:]*:\s")


def load_scorer(model: str) -> Any:
    """The offline scorer, imported lazily so the LLM path never needs it."""
    try:
        from ..offline import OfflineScorer

        if not hasattr(OfflineScorer, "check_sentences"):
            raise ImportError("OfflineScorer has no check_sentences")
        return OfflineScorer(use_embeddings=False if model == "local-lexical" else None)
    except (ImportError, OSError) as exc:
        raise ConfigError(
            f"the offline judge (model={model!r}) is not available in this installation "
            f"({type(exc).__name__}: {exc}); use an LLM judge, e.g. --model "
            "google/gemini-2.5-flash or --base-url for a local OpenAI-compatible server"
        ) from exc


def offline_points(
    scorer: Any,
    turns: Sequence[Turn],
    sections: dict[str, str],
    *,
    language: str | None,
) -> tuple[AccuracyPoint, ...]:
    """One accuracy point per summary sentence, section by section."""
    source = "\n".join(t.text for t in turns)
    normalized_turns = [" ".join(t.text.split()).casefold() for t in turns]
    points: list[AccuracyPoint] = []
    for section, text in sections.items():
        if not text.strip():
            continue
        for check in scorer.check_sentences(source, text, language=language):
            quote = _TURN_PREFIX.sub("", str(check.support_quote)).strip()
            verified = verify_quote(quote, turns)
            folded = " ".join(quote.split()).casefold()
            cited = tuple(
                n
                for n, t in enumerate(normalized_turns, 1)
                if folded and (folded in t or t in folded)
            )
            points.append(
                AccuracyPoint(
                    point=str(check.point),
                    accuracy=str(check.justification),
                    is_accurate=bool(check.is_accurate),
                    section=section,
                    turns=cited,
                    quote=quote,
                    quote_verified=verified,
                    flags=("quote not found in the transcript",) if verified is False else (),
                )
            )
    return tuple(points)
