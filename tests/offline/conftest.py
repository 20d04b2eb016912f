"""What the offline judge's tests share: one lexical scorer, its owner evidence, and the
source sentences it cites as contradicted."""

from __future__ import annotations

import pytest

from sumjudge.offline import OfflineScorer


@pytest.fixture(scope="module")
def lex() -> OfflineScorer:
    """A lexical-only scorer shared by a module's tests."""
    return OfflineScorer(use_embeddings=False)


def owner_evidence(scorer: OfflineScorer, source: str, summary: str) -> list[str]:
    """The consistency evidence lines that cite a task given to the wrong person (en, id)."""
    ev = scorer.score(source, summary, ["consistency"])["consistency"].evidence
    return [e for e in ev if "gives the task to" in e or "memberikan tugas" in e]


def contradicted(scorer: OfflineScorer, source: str, summary: str) -> list[str]:
    """The source sentences `scorer` cites as contradicted by `summary`, one per sentence."""
    return [si.contradicts for si in scorer.analyse(source, summary).sentences if si.contradicts]
