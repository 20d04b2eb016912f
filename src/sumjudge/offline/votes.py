"""Votes called unanimous where the source records a vote against.

A summary that calls a decision unanimous (`words/unanimous.txt`: "unanimously", "approved
by all", "secara bulat") where the passages it restates record a vote against: a tally
such as "six to one", or a word of dissent (`words/dissent.txt`) in a passage about a
vote, and the source never says "unanimous".
"""

from __future__ import annotations

import re

from .lexicon import NUMBER_WORDS, word_set
from .records import SourceInfo
from .replies import body as _body
from .text import sentences, words

UNANIMOUS = word_set("unanimous")
DISSENT = word_set("dissent")
_VOTE = frozenset(["vote", "voted", "votes", "voting", "motion", "favour", "favor", "ballot"])
_TALLY = re.compile(r"\b(\w+)\s*(?:-|–|to)\s*(\w+)\b")


def reversed_vote(sentence: str, region: range, info: SourceInfo) -> str:
    """The source sentence recording a vote against, when the summary says "unanimous"."""
    low = " ".join(words(sentence))
    if sentence.rstrip().endswith("?"):
        return ""
    if not any(re.search(rf"\b{re.escape(p)}\b", low) for p in UNANIMOUS):
        return ""
    if any(re.search(rf"\b{re.escape(p)}\b", info.folded) for p in ("unanimous", "unanimously")):
        return ""
    called = [i for i in region if not _VOTE.isdisjoint(words(info.units[i].text))]
    if not called:
        return ""  # no vote in these passages: "against" may mean anything
    # the count follows the call for the vote, a few turns on ("Hands up for A." "Seven."
    # "Option B?" "Two. So A is approved, seven to two.")
    after = range(region.start, max(region.stop, min(len(info.units), called[-1] + 5)))
    sents = [
        (f"{u.speaker}: {s}" if u.speaker else s, words(s))
        for u in (info.units[i] for i in after)
        for s, _, _ in sentences(_body(u, u.text))
    ]
    # the tally says most ("six to one"), else a word of dissent ("Against.")
    tallies = [q for q, ws in sents if _tally_against(" ".join(ws))]
    dissents = [q for q, ws in sents if not DISSENT.isdisjoint(ws)]
    return (tallies + dissents + [""])[0].strip()


def _tally_against(text: str) -> bool:
    """Whether a text holds a tally with votes against ("six to one", "6-1", "5 to 2")."""
    for m in _TALLY.finditer(text):
        a, b = (_count(m.group(k)) for k in (1, 2))
        if a is not None and b is not None and a > b >= 1:
            return True
    return False


def _count(w: str) -> int | None:
    """A small count in digits or words ("6", "six"), else None."""
    if w.isdigit():
        return int(w) if len(w) <= 3 else None
    v = NUMBER_WORDS.get(w)
    return int(float(v)) if v is not None and float(v).is_integer() else None
