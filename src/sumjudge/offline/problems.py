"""Problems of single summary sentences: broken sentences, weak clauses, unmatched negation."""

from __future__ import annotations

import itertools
import re

import numpy as np
import numpy.typing as npt

from .lexicon import BROKEN_END, NEGATIONS
from .records import SourceInfo
from .support import WindowSupport
from .text import content, words

# Prepositions that are also adverbs: after a form of "be" they close a sentence ("once the
# change is in", "the offer is still on"); anywhere else at the end they leave it unfinished.
_ADVERB_PARTICLES = frozenset(["in", "on"])
_BE_FORMS = frozenset(["is", "are", "was", "were", "be", "been", "being", "am"])
# Adverbs that may stand between the two ("the offer is still on", "the forms are all in").
_BETWEEN = frozenset(["not", "still", "now", "already", "all", "back", "finally", "also"])

_CLAUSE = re.compile(
    r",\s+|;\s+|\s+(?:and|but|because|so|while|which|who|after|before|although|dan|tetapi|"
    r"karena|sehingga|yang)\s+"
)


def broken_reason(sent: str) -> str:
    """Why a sentence looks broken (too short, unfinished, doubled words...), or ""."""
    ws = words(sent)
    stripped = sent.strip()
    if len(ws) < 3:
        return "too short"
    # (a colon closes the lead-in of a list: "The team chose two themes:")
    if stripped[-1] not in ".!?:\"'”’)":
        return "no closing punctuation"
    if ws[-1] in BROKEN_END and not _particle_end(ws):
        return f'ends with "{ws[-1]}"'
    if stripped.count("(") != stripped.count(")"):
        return "unbalanced parentheses"
    for a, b in itertools.pairwise(ws):
        if a == b and a.isalpha():
            return f'doubled word "{a} {b}"'
    for k in (2, 3, 4):
        for i in range(len(ws) - 2 * k + 1):
            if ws[i : i + k] == ws[i + k : i + 2 * k]:
                return f'repeated phrase "{" ".join(ws[i : i + k])}"'
    return ""


def _particle_end(ws: list[str]) -> bool:
    """Whether the last word is a preposition used as an adverb after "be" ("... is in")."""
    if ws[-1] not in _ADVERB_PARTICLES or len(ws) < 2:
        return False
    return ws[-2] in _BE_FORMS or (len(ws) >= 3 and ws[-2] in _BETWEEN and ws[-3] in _BE_FORMS)


def clause_min(sent: str, support: WindowSupport) -> float:
    """Lexical support of the sentence's least supported clause (of two or more content words).

    A sentence that joins a supported clause to an invented one ("..., and he was fired")
    has a high support on average; its weakest clause shows the invention. 1.0 when no
    clause has two content words.
    """
    lowest = 1.0
    for clause in _CLAUSE.split(sent):
        cc = set(content(clause))
        if len(cc) >= 2:
            sup = int(support.counts(cc).max()) / len(cc)
            lowest = min(lowest, sup)
    return lowest


def unmatched_negation(
    sent: str, has_content: bool, lex: npt.NDArray[np.float64], best: int, info: SourceInfo
) -> str:
    """The sentence's first negation word when no matching source passage is negated, else "".

    A negation is matched by any passage that supports the sentence nearly as well as the
    best one (`lex` holds the lexical support of every window): the best window alone is
    often a neighbouring turn. It is also matched, however the sentence is worded, by a
    negated passage anywhere that has the negation's scope: the first two content words
    after it ("no charge" by "there won't be any charge"). Passages with a word negative in
    meaning ("waived", "gratis") count as negated.
    """
    ws = words(sent)
    at = [i for i, w in enumerate(ws) if w in NEGATIONS]
    if not at:
        return ""
    close = np.flatnonzero(lex >= 0.8 * lex.max()) if has_content else [best]
    spans = [info.windows[int(k)] for k in close] + [info.windows[best]]
    # in a dialogue the turn after a passage is its answer: what was tried, then "still
    # nothing" ("the reset did not help")
    reply = 1 if info.dialogue else 0
    if any(any(info.neg_units[lo : hi + reply]) for lo, hi in spans):
        return ""
    for i in at:
        scope = set(content(" ".join(ws[i + 1 : i + 6]))[:2])
        if not scope or not any(
            neg and scope <= unit
            for neg, unit in zip(info.neg_units, info.unit_content, strict=True)
        ):
            return ws[i]
    return ""
