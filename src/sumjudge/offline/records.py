"""What the offline judge knows about a source, a summary sentence and a scored pair."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from .embed import FloatArray
from .splice import Joints
from .support import WindowSupport

if TYPE_CHECKING:
    from .assignments import Assignment
    from .cannot import Refusals
    from .decision_swaps import Decided
    from .offers import Settled
    from .owners import OwnerSwap


@dataclass(frozen=True)
class Unit:
    """A source passage: a sentence, or a dialogue turn, with its verbatim span."""

    text: str  # verbatim substring of the source
    start: int
    end: int
    speaker: str  # "" for prose
    resolved: str  # text with first/second person rewritten to speaker names (dialogues)
    role: str = ""  # the speaker's role word, lower-case ("agent" for "Dana (Agent):")


@dataclass
class SourceInfo:
    """Per-source analysis, computed once and shared by all summaries of that source."""

    text: str
    units: list[Unit]
    dialogue: bool
    windows: list[tuple[int, int]]
    unit_content: list[set[str]]
    vocab: set[str]
    bigrams: set[tuple[str, ...]]
    trigrams: set[tuple[str, ...]]
    nums: set[str]
    name_set: set[str]
    neg_units: list[bool]
    importance: list[float]
    n_words: int
    speakers: set[str]
    tokens: list[str]
    dates: set[str] = field(default_factory=set)  # full month/day names the source uses
    keywords: list[tuple[str, int]] = field(default_factory=list)  # most repeated terms
    folded: str = ""  # the text casefolded with white space collapsed (verbatim checks)
    raw: str = ""  # the source as given, before `sumjudge.transcripts` normalised it
    emb_windows: FloatArray | None = None
    emb_units: FloatArray | None = None
    # a long source embeds a sample of its units (`focus.py`): their indices, in order of
    # the rows of `emb_units` and `emb_weights`; None when every unit is embedded
    emb_unit_ids: npt.NDArray[np.intp] | None = None
    emb_weights: FloatArray | None = None  # importance of each unit for wcov, sums to 1
    # the single sentences of multi-sentence dialogue turns (a summary point often restates
    # one sentence of a long turn: "Tom tells the department heads" in a read-back)
    emb_parts: FloatArray | None = None

    # Built on first use and kept with the source (shared by all its summaries).
    @cached_property
    def support(self) -> WindowSupport:
        """Counts of a word set's words in every window (lexical support)."""
        return WindowSupport(self.unit_content, self.windows)

    def pair_starts(self, pairs: set[tuple[str, str]]) -> dict[tuple[str, str], list[int]]:
        """Where each of `pairs` (consecutive tokens) starts in the source's tokens, in order.

        One pass over the tokens for the pairs of one summary (copied-fragment search): an
        index of every pair of a 2 MB source would hold some 60 MB.
        """
        pos: dict[tuple[str, str], list[int]] = {}
        for j, pair in enumerate(itertools.pairwise(self.tokens)):
            if pair in pairs:
                pos.setdefault(pair, []).append(j)
        return pos

    @cached_property
    def joints(self) -> Joints:
        """The source's tokens with where punctuation separates them (the splice check)."""
        j = Joints.of(self.text)
        # the same tokens as `tokens`: keep one list of them
        return Joints(self.tokens, j.punct_before) if j.tokens == self.tokens else j

    @cached_property
    def token_set(self) -> set[str]:
        """The distinct source tokens."""
        return set(self.tokens)

    @cached_property
    def assignments(self) -> list[Assignment]:
        """The tasks taken in a transcript's turns, and by whom (`assignments.assignments`)."""
        from .assignments import assignments  # (it reads units: imported where used)

        return assignments(self.units) if self.dialogue else []

    @cached_property
    def offers(self) -> list[Settled]:
        """The replies in a transcript's turns that take up or turn down an offer."""
        from .offers import settled  # (it reads units: imported where used)

        return settled(self.units) if self.dialogue else []

    @cached_property
    def refusals(self) -> Refusals:
        """The acts the source says cannot be done, and the ones it states plainly."""
        from .cannot import refusals  # (it reads units: imported where used)

        return refusals(self.units)

    @cached_property
    def decided(self) -> list[Decided]:
        """The source's clauses giving a decision to a name (`decision_swaps`)."""
        from .decision_swaps import decided  # (it reads units: imported where used)

        return decided(self.units)


@dataclass
class SentenceInfo:
    """One summary sentence: its support in the source and the evidence found against it."""

    text: str
    lex_support: float
    emb_support: float | None
    best_window: int
    new_numbers: list[str] = field(default_factory=list)
    new_names: list[str] = field(default_factory=list)
    new_dates: list[str] = field(default_factory=list)
    unmatched_negation: str = ""
    listed_twice: str = ""  # a name a list of people gives twice ("Nadia, Vanessa and Vanessa")
    broken: str = ""
    local_novel: float = 0.0
    clause_min: float = 1.0
    swap_margin: float | None = None
    swap_variant: str = ""
    contradicts: str = ""  # the source sentence it says the opposite of (`polarity`)
    vote_reversed: str = ""  # the source sentence recording a vote it calls unanimous
    owner_swap: OwnerSwap | None = None  # an action item given to the wrong person
    agreement: list[str] = field(default_factory=list)  # agreement errors ("many customer")

    @property
    def support(self) -> float:
        """Lexical support, averaged with embedding support when there is one."""
        if self.emb_support is None:
            return self.lex_support
        return 0.5 * self.lex_support + 0.5 * self.emb_support

    @property
    def fact_errors(self) -> int:
        """Numbers, names and dates the sentence states that the source does not."""
        return len(self.new_numbers) + len(self.new_names) + len(self.new_dates)

    @property
    def contradictions(self) -> int:
        """Statements the source contradicts (the opposite of a sentence, a vote, an owner).

        A negation that is the opposite of a source sentence counts once, as the
        contradiction (which cites the sentence), not also as an unmatched negation.
        """
        opposite = bool(self.contradicts) and not self.unmatched_negation
        return opposite + bool(self.vote_reversed) + (self.owner_swap is not None)


@dataclass
class Analysis:
    """A summary analysed against its source: per-sentence results and summary features."""

    source: SourceInfo
    sentences: list[SentenceInfo]
    features: dict[str, float]
    repeated: list[tuple[str, str]]
    omitted: list[str]
    doubled_words: list[str]
    extractive: bool = False  # every summary sentence is a verbatim passage of the source
