"""Sentence-shape signals of fluency and coherence that do not punish paraphrase.

Each signal counts something a fluent writer does not produce, whatever words they choose:
an article followed by a function word ("The is the of ..."), a content word back within a
few words ("the game highlights of the game highlights"), a run-on sentence far longer than any a
reader can follow, and a summary that opens on a connective pointing back at nothing
("However, ..."). None depends on how many words the summary shares with its source.
"""

from __future__ import annotations

import itertools

from .lexicon import word_set
from .text import content, words

ARTICLES = word_set("articles")
NOT_AFTER_ARTICLE = word_set("not_after_article")
CONNECTIVES = word_set("connectives")
# A sentence of more than this many words is a run-on: news sentences rarely pass 40, and
# bullets and meeting notes are far shorter. Only the excess counts, so length as such is
# never a signal.
RUN_ON_WORDS = 50
# A content word back within this many words is a loop, not emphasis.
NEAR_REPEAT = 5


def article_errors(sent: str) -> int:
    """Article-function word pairs in a sentence ("the of", "a is")."""
    ws = words(sent)
    pairs = itertools.pairwise(ws)
    return sum(1 for a, b in pairs if a in ARTICLES and b in NOT_AFTER_ARTICLE)


def repeated_content(sent: str) -> bool:
    """Whether a content word (of four letters or more) comes back within a few words.

    Garbled generation loops over a phrase ("buffon has labelled buffon", "the match
    highlights of the game highlights"); a writer who repeats a word does so sentences or
    clauses apart. Adjacent doubles ("fan fan") count too.
    """
    last: dict[str, int] = {}
    for i, w in enumerate(words(sent)):
        c = content(w)
        if not c or len(c[0]) < 4 or c[0].isdigit():
            continue
        if i - last.get(c[0], -NEAR_REPEAT - 1) <= NEAR_REPEAT:
            return True
        last[c[0]] = i
    return False


def shape_features(sents: list[str]) -> dict[str, float]:
    """The summary-level shape signals (see the module docstring).

    Args:
        sents: The summary's sentences.

    Returns:
        `article_err` (pairs per sentence), `rep_in_sent` (share of sentences
        repeating a content word), `run_on` (words beyond RUN_ON_WORDS per sentence, as a
        share of the summary's words) and `conn_start` (the first sentence opens on a
        connective).
    """
    n = max(1, len(sents))
    lens = [len(words(s)) for s in sents]
    first = words(sents[0])[:1] if sents else []
    return {
        "article_err": sum(article_errors(s) for s in sents) / n,
        "rep_in_sent": sum(1 for s in sents if repeated_content(s)) / n,
        "run_on": sum(max(0, k - RUN_ON_WORDS) for k in lens) / max(1, sum(lens)),
        "conn_start": 1.0 if first and first[0] in CONNECTIVES else 0.0,
    }
