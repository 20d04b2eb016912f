"""Every explanation agrees with its score, over many summaries good and bad.

The summaries are the faithful corpus, the planted errors of the contradiction tests, and
variants of each faithful summary made worse in the ways summaries go wrong (sentences
dropped, numbers changed, words doubled, sentences repeated, cut or reordered, words
garbled, another source's summary, an ungrammatical sentence added): some 110 items and
450 verdicts, each in English and Indonesian.
"""

from __future__ import annotations

import re

import pytest

from sumjudge.offline import OfflineScorer
from sumjudge.offline.text import sentences, strip_markup

from .faithful_corpus import CORPUS, Faithful
from .test_contradictions import CALL

# the all-clear bodies: never below 3
ALL_CLEAR = (
    "Every summary sentence (",
    "nothing the source contradicts",
    "No repeated or broken sentences",
    "Every sentence (",
    "It covers the main source passages",
    "Setiap kalimat",
    "tidak ada yang bertentangan",
    "Tidak ada kalimat yang berulang",
    "Ringkasan mencakup bagian utama",
)
_SUPPORTED = re.compile(r"(\d+) (?:of|dari) (\d+) (?:summary sentences|kalimat ringkasan)")


def _variants(item: Faithful, other: Faithful) -> list[str]:
    sents = [s for s, _, _ in sentences(strip_markup(item.summary))]
    out = [item.summary]
    if len(sents) > 1:
        out.append(" ".join(sents[:1]))  # most left out
        out.append(" ".join(sents + sents[:2]))  # repeated sentences
        out.append(" ".join(s.rsplit(" ", 3)[0] for s in sents))  # every sentence cut
    out.append(re.sub(r"\d+", lambda m: str(int(m.group()) + 7), item.summary))  # numbers
    out.append(item.summary.replace(" the ", " the the ", 2))  # doubled words
    words = item.summary.split()
    out.append(" ".join(words[::2]) + ".")  # garbled
    out.append(" ".join(reversed(sents)))  # out of order
    out.append(strip_markup(other.summary))  # another source's summary
    out.append(item.summary + " Their is many customer which is still depend on it.")
    return out


def _items() -> list[tuple[str, str]]:
    items: list[tuple[str, str]] = []
    for k, item in enumerate(CORPUS):
        other = CORPUS[(k + 3) % len(CORPUS)]
        items += [(item.source, v) for v in _variants(item, other)]
    items += [
        (CALL, "Raj will email the migration guide today."),
        (CALL, "Ana offered extended support for version one."),
        (CORPUS[-1].source, "The parking policy was approved unanimously."),
    ]
    return items


@pytest.mark.parametrize("language", ["en", "id"])
def test_every_explanation_agrees_with_its_score(language: str) -> None:
    """Head "<Metric> <score>/3."; a 3 carries no evidence and below 3 no all-clear; a 1 has
    evidence; evidence is in the explanation; "k of n supported" only when k < n."""
    scorer = OfflineScorer(use_embeddings=False)
    items = _items()
    assert len(items) >= 100
    seen = {1: 0, 2: 0, 3: 0}
    for source, summary in items:
        for metric, v in scorer.score(source, summary, language=language).items():
            seen[v.score] += 1
            where = (metric, v.score, summary[:60], v.explanation)
            assert re.match(rf"^\w+ {v.score}/3\. \S", v.explanation), where
            if v.score == 3:
                assert not v.evidence, where
            else:
                assert not any(p in v.explanation for p in ALL_CLEAR), where
            if v.score == 1:
                assert v.evidence, where
            for e in v.evidence[:5]:
                assert e[1:] in v.explanation, where
            for k, n in _SUPPORTED.findall(v.explanation):
                assert int(k) < int(n), where
    assert min(seen.values()) >= 20, seen  # every score is exercised
