"""Splices: a summary sentence stitched from two copied fragments joined mid-clause.

Garbled extractive-abstractive output glues the start of one source sentence onto the
middle of another ("manuel also recommended that patients stop taking medication | no
longer exist before he can resume ..."): each side is copied, but the joint is where
neither fragment ends or starts in the source. A writer who reuses source phrases joins
them at clause or phrase joints (punctuation, "and", "who", a preposition), or paraphrases
the joint; a fragment shortened or reordered within one passage (the next fragment a few
words away) or with a word replaced ("will bid to break" written "will attempt to break")
is compression, not a splice. Only fragments of at least `MIN_WORDS` copied words count,
so paraphrase (short shared phrases) never trips it.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass

from .lexicon import word_set

PairStarts = dict[tuple[str, str], list[int]]

CLAUSE_OPENERS = word_set("clause_openers")
PHRASE_OPENERS = word_set("phrase_openers")
# Each side of a splice is a copied run of at least this many words.
MIN_WORDS = 3
# A second fragment starting up to this many source words after the first one ends is the
# same passage with words left out (compression).
SKIP_WORDS = 12
# The copied-fragment search looks at the first places of a word pair only (linear time in
# a long source that has thousands of "of the").
MAX_PAIR_STARTS = 64
# The same word tokens as `text.words`, with the characters between them kept.
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?|n't|'s", re.UNICODE)


@dataclass(frozen=True)
class Joints:
    """A text's word tokens and whether punctuation stands before each of them."""

    tokens: list[str]
    punct_before: bytes  # 1 where non-space characters separate token j-1 and token j

    @staticmethod
    def of(text: str) -> Joints:
        """The word tokens of `text` (as `text.words` reads them) and their joints."""
        low = text.lower().replace("’", "'")
        toks: list[str] = []
        marks = bytearray()
        end = 0
        for m in _WORD.finditer(low):
            # any non-space character between two words is punctuation (or markup)
            marks.append(1 if low[end : m.start()].strip() else 0)
            toks.append(m.group(0))
            end = m.end()
        if marks:
            marks[0] = 1  # the start of the text is a joint
        return Joints(toks, bytes(marks))

    def natural_end(self, j: int) -> bool:
        """Whether a fragment ending before token `j` ends at a clause or phrase joint."""
        return (
            j >= len(self.tokens)
            or bool(self.punct_before[j])
            or (self.tokens[j] in CLAUSE_OPENERS)
        )

    def natural_start(self, j: int) -> bool:
        """Whether a fragment starting at token `j` starts at a clause or phrase joint."""
        return (
            j == 0
            or bool(self.punct_before[j])
            or self.tokens[j] in CLAUSE_OPENERS
            or self.tokens[j] in PHRASE_OPENERS
            or self.tokens[j - 1] in CLAUSE_OPENERS
        )


def copied_fragments(
    sent: list[str], src: list[str], pos: PairStarts
) -> list[tuple[int, int, int]]:
    """Greedy copied fragments of `sent` in `src`: (start in sent, length, start in src).

    Words not copied (as part of a pair or more) are fragments of source start -1. Between
    equally long matches the one nearest to the previous fragment's end is taken (the same
    passage continued, not a distant repeat of a common phrase).
    """
    out: list[tuple[int, int, int]] = []
    i, prev_end = 0, -(10**9)
    while i < len(sent):
        best, where = 0, -1
        if i + 1 < len(sent):
            for j in pos.get((sent[i], sent[i + 1]), [])[:MAX_PAIR_STARTS]:
                k = 2
                while i + k < len(sent) and j + k < len(src) and sent[i + k] == src[j + k]:
                    k += 1
                if k > best or (k == best and abs(j - prev_end) < abs(where - prev_end)):
                    best, where = k, j
        if best:
            out.append((i, best, where))
            i += best
            prev_end = where + best
        else:
            out.append((i, 1, -1))
            i += 1
    return out


def _substituted(sent: list[str], i: int, src: list[str], j: int) -> bool:
    """Whether `sent` from word `i` on is `src` from word `j` on, first word or two replaced.

    "will bid to break" written "will attempt to break" is a paraphrase of one passage.
    """
    for k in (1, 2):
        a, b = sent[i + k : i + k + 2], src[j + k : j + k + 2]
        if len(a) == 2 and a == b:
            return True
    return False


def splices(sent: Joints, tokens: list[str], joints: Callable[[], Joints], pos: PairStarts) -> int:
    """How many mid-clause joints of two copied fragments a sentence has (see module).

    `tokens` are the source's word tokens, `pos` where the sentence's word pairs start in
    them, and `joints` gives the source's `Joints` (read on first need: most sentences have
    no candidate joint, and reading them costs a pass over a long source).
    """
    frags = copied_fragments(sent.tokens, tokens, pos)
    count = 0
    for (_, l1, j1), (i2, l2, j2) in itertools.pairwise(frags):
        if j1 < 0 or j2 < 0 or l1 < MIN_WORDS or l2 < MIN_WORDS or sent.punct_before[i2]:
            continue
        if abs(j2 - (j1 + l1)) <= SKIP_WORDS or _substituted(sent.tokens, i2, tokens, j1 + l1):
            continue
        source = joints()
        if not source.natural_end(j1 + l1) and not source.natural_start(j2):
            count += 1
    return count


def splice_rate(
    sentences: list[str], tokens: list[str], joints: Callable[[], Joints], pos: PairStarts
) -> float:
    """Splices per summary sentence (the `splice` signal; arguments as for `splices`).

    `pos` may hold more pairs than the sentences have (those of the whole summary).
    """
    sents = [Joints.of(s) for s in sentences]
    return sum(splices(j, tokens, joints, pos) for j in sents) / max(1, len(sents))
