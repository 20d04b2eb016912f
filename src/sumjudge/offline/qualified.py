"""One thing qualified both ways: "delivered correctly" against "delivered to the wrong address".

The clause alignment of `polarity` needs two shared content words; a verdict on one thing
often shares only that thing ("it was delivered correctly" / "it was delivered to the
wrong address"; "the invoice was paid late" / "the invoice was paid on time"). Here the two
sides of a contrary pair (`words/contraries.txt`) are opposed with a single shared content
word when that word stands within three words of the contrary word in both sentences: the
two words then qualify the same thing. Not read: a negation near either contrary word
(which way it goes is not the bare word), a summary sentence using both sides, and a source
passage that also uses the summary's side of the pair (it states both: a contrast, or a
proposal and then the decision).
"""

from __future__ import annotations

from .decisions import CONTRARIES, base_forms, contrary_sides, shared_words
from .lexicon import NEGATIONS
from .text import content_of, words

# how far a contrary word may stand from the word it qualifies
_NEAR = 3
# "refuse" is a side of a pair, not a negation; "without" limits, it does not negate
_NEGATIONS = NEGATIONS - {"without", "refuse", "refused", "refuses"}
_PAIR_WORDS = tuple(frozenset(w for side in pair for w in side) for pair in CONTRARIES)


def _qualified(ws: list[str], k: int, side: int, names: frozenset[str]) -> set[str] | None:
    """The content words near the word of side `side` of contrary pair `k`, or None.

    None when no word or phrase of that side is in `ws`, or a negation stands near it.
    """
    # (a phrase's first word: "on time"; the word itself where a single word matched)
    at = next((i for i in range(len(ws)) if (k, side) in contrary_sides(ws[i : i + 2])), None)
    if at is None:
        return None
    at += (k, side) in contrary_sides(ws[at + 1 : at + 2])
    around = ws[max(0, at - _NEAR) : at + _NEAR + 1]
    if not _NEGATIONS.isdisjoint(around) or any(w.endswith("n't") for w in around):
        return None
    return {c for c in content_of(around) if c not in names and c not in _PAIR_WORDS[k]}


def qualified_both_ways(
    sentence: str, quotes: list[str], names: frozenset[str] = frozenset()
) -> str:
    """The source sentence among `quotes` qualifying the summary's thing the other way, or "".

    Args:
        sentence: A summary sentence.
        quotes: The source sentences of the passages it is matched to, as written.
        names: The words of the speakers' names (not a thing qualified).

    Returns:
        The source sentence as written, or "".
    """
    ws = base_forms(words(sentence))
    sides = contrary_sides(ws)
    for k, side in sides:
        if (k, 1 - side) in sides or (here := _qualified(ws, k, side, names)) is None:
            continue
        read = [(q, base_forms(words(q.split(": ", 1)[-1]))) for q in quotes]
        if any((k, side) in contrary_sides(q_ws) for _, q_ws in read):
            continue  # the source uses the summary's side too
        for quote, q_ws in read:
            there = _qualified(q_ws, k, 1 - side, names)
            if there and shared_words(frozenset(here), frozenset(there)):
                return quote
    return ""
