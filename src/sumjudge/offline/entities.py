"""Names and dates in text, and those a summary sentence states that its source does not."""

from __future__ import annotations

import re

from .lexicon import (
    AMBIGUOUS_DATE_ABBREVIATIONS,
    DAYS,
    FRACTION_WORDS,
    MONTHS,
    NEGATIONS,
    NUMBER_WORDS,
    ORDINAL_WORDS,
    STOP,
    TITLES,
    UNITS,
)
from .records import SourceInfo
from .text import date_word, stem, words

# A capitalised word, with the forms names take: "O'Donnell", "D'Souza", "McKenzie",
# "Al-Farsi", "Jean-Luc", and a possessive "'s" (dropped). A word glued to a digit or
# inside a hyphenated lower-case compound ("e-Mail", "5G") is not a name.
_CAP = re.compile(
    r"(?<![\w'’-])(?:[A-Z]['’])?[A-Z][a-z]+(?:[A-Z][a-z]+)*(?:-[A-Z][a-z]+)*(?:['’]s)?(?![\w-])"
)
_NOT_NAMES = STOP | NEGATIONS | TITLES | UNITS
_NUMBER_LIKE = set(NUMBER_WORDS) | set(ORDINAL_WORDS) | set(FRACTION_WORDS)
# (not before a colon: "Next steps:", "Open points:" are a summary's labels, not "Judy asks")
_VERBISH = re.compile(r"\s+(?:and|or|is|was|will|has|had|wants|can|would|[a-z]+s)\b(?!:)")


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
        w = re.sub(r"['’]s$", "", m.group(0)).replace("’", "'")
        lw = w.lower()
        if lw in _NOT_NAMES or lw in _NUMBER_LIKE or date_word(lw):
            continue
        out.append(w)
    return out


def name_parts(name: str) -> list[str]:
    """The lower-case parts of a name: "O'Donnell" gives "o'donnell", "odonnell", "donnell"."""
    low = name.lower().replace("’", "'")
    parts = [low, low.replace("'", "").replace("-", "")]
    parts += [p for p in re.split(r"['-]", low) if len(p) > 1]
    return parts


def known_name(name: str, info: SourceInfo) -> bool:
    """Whether the source mentions a name.

    As written, without its apostrophe or hyphen ("ODonnell", "AlFarsi"), or, for a name
    in parts, every part of it.
    """
    low = name.lower().replace("’", "'")
    if low in info.name_set or stem(low) in info.vocab:
        return True
    parts = [p for p in re.split(r"['-]", low) if len(p) > 1]
    joined = low.replace("'", "").replace("-", "")
    if joined in info.name_set:
        return True
    return bool(parts) and len(parts) > 1 and all(p in info.name_set for p in parts)


def new_names(sentence: str, info: SourceInfo) -> list[str]:
    """The names in a summary sentence that occur nowhere in the source, in order."""
    out: list[str] = []
    for nm in names(sentence, initial=info.dialogue):
        if date_word(nm.lower()):
            continue
        if not known_name(nm, info) and nm not in out:
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
