"""An act the source says cannot be done, summarised as done or to be done.

"We won't be able to pay the hotel ourselves, because the policy has no cover for it"
against a summary's "The insurer will pay the hotel directly": the modal refusal ("can't",
"won't be able to", "unable to", "tidak bisa") bears on its first content word, the act
refused ("pay"), which the summary states plainly. A refusal often names its object only
through the request it answers ("What about the roaming charges?" / "I'm sorry, I can't
refund charges from another network."), so it is read with the other speaker's turn
before it. The summary sentence must state the act (a form of the same word, in a clause
with no negation) and share two other content words with the refusal and that request.

A refusal to promise, guarantee or confirm (`words/hedges.txt`: "I'll put you forward. I
can't promise it yet.") hedges the sentence before it: a summary reporting that as settled
(`words/settled.txt`: "has appointed him", "was confirmed") with two of its content words
says the opposite, unless the source itself settles it in or after the hedge.

Not read, what faithful writing does: a summary sentence that asks, wants, hedges or
conditions ("asked for a refund", "may be refunded", "if it is lost";
`words/unsettled.txt`), and an act the source also states plainly later (the refusal was
overturned: the later word wins) or where it shares two words with the summary (the
summary may restate that one).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from .decisions import CLAUSE, base_forms, root, same_word
from .lexicon import word_set
from .records import SourceInfo, Unit
from .replies import body
from .text import content_of, sentences, stem, words

# a modal refusal and the words after it, where the refused act is
_REFUSAL = re.compile(
    r"\b(?:can't|cannot|can\s+not|couldn't|won't\s+be\s+able\s+to|will\s+not\s+be\s+able\s+to|"
    r"(?:am|are|is|was|were)\s+(?:not\s+able|unable)\s+to|unable\s+to|not\s+able\s+to|"
    r"(?:tidak|tak|nggak|gak|enggak|belum)\s+(?:bisa|dapat|boleh))\s+((?:\S+\s+){0,3}\S+)",
    re.IGNORECASE,
)
# a summary sentence that asks, wants, hedges or conditions states nothing as done
_OPEN = word_set("unsettled")
_HEDGES = frozenset(stem(w) for w in word_set("hedges"))
_SETTLED = word_set("settled")
_NEGATION = re.compile(
    r"\b(?:not|no|never|cannot|can't|won't|don't|doesn't|didn't|isn't|aren't|wasn't|"
    r"weren't|unable|tidak|tak|bukan|belum|nggak|gak|enggak)\b|n't\b",
    re.IGNORECASE,
)
# words the summary shares with the refusal and its request, beyond the act
MIN_SHARED = 2
# how many units after a refusal a plain statement of the act overturns it
_LATER = 10


@dataclass(frozen=True)
class Refusal:
    """A modal refusal in the source: the act refused and what it is about."""

    act: str  # the content stem of the act ("refund")
    about: frozenset[str]  # the content words of the refusal and the request before it
    unit: int
    quote: str
    hedge: bool = False  # "I can't promise it": what was just said is not settled


class Refusals:
    """A source's modal refusals, and (built when first asked) its plain statements."""

    def __init__(self, found: list[Refusal], units: list[Unit]) -> None:
        self.found = found
        self._units = units

    @cached_property
    def stated(self) -> dict[str, list[tuple[int, frozenset[str]]]]:
        """Root of a word -> (unit, content words) of each clause stating it plainly.

        Built only for a source whose refusal a summary sentence may contradict (one pass).
        """
        out: dict[str, list[tuple[int, frozenset[str]]]] = {}
        for i, u in enumerate(self._units):
            for sent, _, _ in sentences(body(u, u.text)):
                if sent.rstrip().endswith("?") or _REFUSAL.search(sent):
                    continue
                for piece in CLAUSE.split(sent):
                    if not _NEGATION.search(piece):
                        c = frozenset(content_of(base_forms(words(piece))))
                        for w in c:
                            out.setdefault(root(w), []).append((i, c))
        return out


def refusals(units: list[Unit]) -> Refusals:
    """The modal refusals of a source (one pass over its units)."""
    found: list[Refusal] = []
    for i, u in enumerate(units):
        if not _REFUSAL.search(u.text):
            continue  # (most units: no sentence to split)
        said = [s for s, _, _ in sentences(body(u, u.text))]
        for k, sent in enumerate(said):
            if sent.rstrip().endswith("?") or not _REFUSAL.search(sent):
                continue  # "Can't you send one now?" asks
            for m in _REFUSAL.finditer(sent):
                act = content_of(base_forms(words(m.group(1))))[:1]
                if not act:
                    continue
                about = set(content_of(base_forms(words(sent))))
                before = units[i - 1] if i else None
                if before is not None and u.speaker and before.speaker != u.speaker:
                    about |= set(content_of(base_forms(words(body(before, before.text)))))
                hedge = any(same_word(act[0], h) for h in _HEDGES)
                if hedge and k:  # (what it hedges: the sentence before)
                    sent = f"{said[k - 1].strip()} {sent.strip()}"
                    about |= set(content_of(base_forms(words(said[k - 1]))))
                quote = f"{u.speaker}: {sent.strip()}" if u.speaker else sent.strip()
                found.append(Refusal(act[0], frozenset(about - {act[0]}), i, quote, hedge))
    return Refusals(found, units)


def refused_but_done(sentence: str, info: SourceInfo) -> str:
    """The source's refusal of an act a summary sentence states as done, or "".

    Args:
        sentence: A summary sentence.
        info: The analysed source (its modal refusals, `refusals`, read when first needed).

    Returns:
        The refusal as written ("Speaker: ..." in a transcript), or "".
    """
    ws = words(sentence)
    if sentence.rstrip().endswith("?") or not _OPEN.isdisjoint(ws):
        return ""
    source = info.refusals
    if not source.found:
        return ""
    said = set(content_of(base_forms(ws)))
    plain_pieces = [p for p in CLAUSE.split(sentence) if not _NEGATION.search(p)]
    plain = [c for p in plain_pieces if (c := set(content_of(base_forms(words(p)))))]
    settled = _SETTLED.intersection(w for piece in plain_pieces for w in words(piece))
    for r in source.found:
        if r.hedge and settled and not _settled_later(r, settled, source):
            pass  # a hedged statement reported as settled ("has appointed him")
        elif not any(same_word(r.act, w) for c in plain for w in c):
            continue
        shared = {w for w in said if any(same_word(w, x) for x in r.about)}
        if len(shared - {r.act}) < MIN_SHARED or _stated(r, said, source):
            continue
        return r.quote
    return ""


def _settled_later(r: Refusal, settled: frozenset[str], source: Refusals) -> bool:
    """Whether the source settles what it hedged: a settled word in or after the hedge."""
    return any(
        stem(w) in r.about or any(i >= r.unit for i, _ in source.stated.get(root(stem(w)), []))
        for w in settled
    )


def _stated(r: Refusal, said: set[str], source: Refusals) -> bool:
    """Whether the source states the act plainly after the refusal, or as the summary does.

    A plain statement within `_LATER` units after it overturns the refusal; one anywhere
    sharing two more content words with the summary may be what the summary restates.
    """
    return any(
        r.unit < i <= r.unit + _LATER or len((c & said) - {r.act}) >= MIN_SHARED
        for i, c in source.stated.get(root(r.act), [])
    )
