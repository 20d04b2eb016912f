"""Names and dates in text, and those a summary sentence states that its source does not."""

from __future__ import annotations

import re

from .lexicon import AMBIGUOUS_DATE_ABBREVIATIONS, DAYS, MONTHS, NEGATIONS, NUMBER_WORDS, STOP
from .records import SourceInfo
from .text import date_word, stem, words

_CAP = re.compile(r"\b[A-Z][a-z]+(?:['’]s)?\b")
_VERBISH = re.compile(r"\s+(?:and|or|is|was|will|has|had|wants|can|would|[a-z]+s)\b")


def names(text: str, *, initial: bool = False) -> list[str]:
    """Capitalised words that are likely names.

    The first word of the text counts only when `initial` is set and it is possessive or
    followed by a verb-like word ("Judy asks").
    """
    out: list[str] = []
    first = len(text) - len(text.lstrip())
    for m in _CAP.finditer(text):
        if m.start() == first:
            possessive = m.group(0)[-2:] in ("'s", "’s")
            if not initial or not (possessive or _VERBISH.match(text, m.end())):
                continue
        w = re.sub(r"['’]s$", "", m.group(0))
        lw = w.lower()
        if lw in STOP or lw in NEGATIONS or lw in NUMBER_WORDS or date_word(lw):
            continue
        out.append(w)
    return out


def new_names(sentence: str, info: SourceInfo) -> list[str]:
    """The names in a summary sentence that occur nowhere in the source, in order."""
    out: list[str] = []
    for nm in names(sentence, initial=info.dialogue):
        low = nm.lower()
        if date_word(low):
            continue
        novel = low not in info.name_set and stem(low) not in info.vocab
        if novel and nm not in out:
            out.append(nm)
    return out


def new_dates(sentence: str, info: SourceInfo) -> list[str]:
    """The days and months in a summary sentence that the source does not give, capitalised.

    A day or month is evidence only against a source that names other days (or months):
    otherwise it is usually a relative date resolved ("tomorrow" said on a Friday), and
    such flags were no better than chance on the dialogue sets.
    """
    out: list[str] = []
    for w in words(sentence):
        full = date_word(w)
        if not full or w in AMBIGUOUS_DATE_ABBREVIATIONS or full in info.dates:
            continue
        kind = DAYS if full in DAYS else MONTHS
        if info.dates & kind and w.capitalize() not in out:
            out.append(w.capitalize())
    return out
