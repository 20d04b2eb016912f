"""A vote's outcome reversed: "the motion was defeated" where the source says it carried.

The source records the outcome in a short sentence of its own, often turns after the motion
is read ("The motion carries five to two"), sharing only its noun with the summary's fuller
sentence ("The motion to relocate was defeated, 5 to 2"): too little for the clause
alignment of `polarity`. Here the vote noun (`words/motions.txt`: motion, amendment,
resolution, usulan) stands for the thing voted on, and the two sentences are about the same
vote when the first such noun of each is the same. The summary reverses the outcome when it
uses one side of the decision pair of `words/contraries.txt` (carried / defeated, passed /
failed, disetujui / ditolak) and the source has sentences with that noun on the other side
only. Not read: a sentence using both sides ("the amendment failed and the motion
passed"), a negated sentence or a question (which way it goes is not the bare word), a
source that also gives the summary's side (two votes on one noun: the summary may restate
either), and tallies with no number in common ("5 to 2" against "eighteen to four": another vote).
"""

from __future__ import annotations

from .decisions import contrary_sides
from .lexicon import NEGATIONS, word_set
from .number_words import word_number
from .records import SourceInfo
from .replies import body
from .text import sentences, words

MOTIONS = word_set("motions")
# the contrary pair of decisions (approved / rejected) is the first of `contraries.txt`
_DECISION = 0
# "refuse" is a side of the pair, not a negation; "without" limits, it does not negate
_NEGATIONS = NEGATIONS - {"without", "refuse", "refused", "refuses"}


def _outcome(sentence: str) -> tuple[str, int, frozenset[str]] | None:
    """The (vote noun, side, numbers) a sentence gives a vote, or None.

    None when the sentence names no vote noun, uses no side or both, negates it or asks.
    """
    if sentence.rstrip().endswith("?"):
        return None
    ws = words(sentence.replace("n't", " not"))
    noun = next((w for w in ws if w in MOTIONS), None)
    sides = {side for k, side in contrary_sides(ws) if k == _DECISION}
    if noun is None or len(sides) != 1:
        return None
    # a negation just before the outcome word turns it ("was not carried"); one elsewhere
    # is about something else ("defeated 5 to 2, no abstentions")
    side = (_DECISION, *sides)
    at = next(i for i in range(len(ws)) if side in contrary_sides(ws[i : i + 2]))
    at += side in contrary_sides(ws[at + 1 : at + 2])  # (the word itself, not a phrase)
    if not _NEGATIONS.isdisjoint(ws[max(0, at - 4) : at]):
        return None
    return noun.rstrip("s"), sides.pop(), frozenset(_tally(w) for w in ws if _tally(w))


def _tally(w: str) -> str:
    """A count as digits ("nine" and "9" are "9"), or "" for a word that is none."""
    if w.isdigit():
        return str(int(w))
    got = word_number(w)
    return str(int(got[0])) if got and got[1] == "num" and got[0] == int(got[0]) else ""


def reversed_outcome(sentence: str, info: SourceInfo) -> str:
    """The source sentence giving the other outcome of the summary's vote, or "".

    Args:
        sentence: The summary sentence.
        info: The analysed source.

    Returns:
        The source sentence as written ("Speaker: ..." in a transcript), or "".
    """
    said = _outcome(sentence)
    if said is None:
        return ""
    noun, side, numbers = said
    other: list[tuple[str, frozenset[str]]] = []
    for u in info.units:
        for sent, _, _ in sentences(body(u, u.text)):
            got = _outcome(sent)
            if got is None or got[0] != noun:
                continue
            if got[1] == side:
                return ""  # the source gives the summary's outcome too
            quote = f"{u.speaker}: {sent.strip()}" if u.speaker else sent.strip()
            other.append((quote, got[2]))
    return next((q for q, n in other if not (numbers and n and numbers.isdisjoint(n))), "")
