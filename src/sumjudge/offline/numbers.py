"""Numbers in text and the numbers a summary sentence states that its source does not."""

from __future__ import annotations

import re

from .lexicon import MULTIPLIERS, NUMBER_WORDS, SCALES
from .records import SourceInfo
from .text import words

_NUM = re.compile(r"\d+(?:[.,]\d+)*")
# The scale suffixes and words of SCALES (matched case-insensitively through .lower()).
_SCALE_WORDS = r"k|K|m|M|bn|B|thousand|million|billion|ribu|rb|juta|jt|miliar|milyar"
_SCALED = re.compile(rf"(\d+(?:\.\d+)?)\s*({_SCALE_WORDS})\b")
_NUM_WITH_SCALE = re.compile(rf"\d+(?:[.,]\d+)*(?:\s*(?:{_SCALE_WORDS})\b)?")


def numbers(text: str) -> set[str]:
    """Normalised numbers in the text (digits and number words).

    A number with a scale word or suffix also counts as its full value, so "$110K",
    "110 thousand" and "$110,000" (or "2 juta" and "2000000") match.
    """
    out = {n.replace(",", "") for n in _NUM.findall(text)}
    out |= {NUMBER_WORDS[w] for w in words(text) if w in NUMBER_WORDS}
    for value, unit in _SCALED.findall(text):
        full = float(value) * SCALES[unit.lower()]
        if full.is_integer():
            out.add(str(int(full)))
    return {n.rstrip("0").rstrip(".") if "." in n else n for n in out}


def numbers_verbatim(text: str) -> list[str]:
    """Numbers as written, with a scale suffix kept.

    "$110K" gives "110K", so that it matches "$110,000" in the source.
    """
    found = [m.group(0) for m in _NUM_WITH_SCALE.finditer(text)]
    found += [w for w in re.findall(r"[A-Za-z]+", text) if w.lower() in NUMBER_WORDS]
    return found


def new_numbers(sentence: str, info: SourceInfo) -> list[str]:
    """The numbers of a summary sentence (as written) that the source does not state.

    Weak number words (see `_weak_number`) and sums or differences of the sentence's own
    source-backed numbers (see `_derived`) are not counted.
    """
    verbatim = numbers_verbatim(sentence)
    out: list[str] = []
    for v in verbatim:
        nv = numbers(v)
        if not nv or nv & info.nums or v in out or _weak_number(v, info):
            continue
        if _derived(nv, verbatim, info):
            continue
        out.append(v)
    return out


def _weak_number(v: str, info: SourceInfo) -> bool:
    """Number words that are poor evidence.

    These are "one", bare multipliers ("million" when the source writes "2M"), and in
    dialogues head-counts like "Two friends" (<= number of speakers).
    """
    low = v.lower()
    if low == "one" or low in MULTIPLIERS:
        return True
    if low.isalpha() and info.dialogue:
        value = NUMBER_WORDS.get(low, "")
        return value.isdigit() and int(value) <= max(2, len(info.speakers))
    return False


def _values(forms: set[str]) -> set[float]:
    out: set[float] = set()
    for f in forms:
        try:
            out.add(float(f))
        except ValueError:
            continue
    return out


def _derived(forms: set[str], sentence_numbers: list[str], info: SourceInfo) -> bool:
    """Whether a number is the sum or difference of two source-backed numbers of its sentence.

    "$86K of it: $64K freight and $22K repairs" is arithmetic on the source, not a new fact.
    """
    targets = _values(forms)
    known = [_values(numbers(w)) for w in sentence_numbers if numbers(w) and numbers(w) & info.nums]
    operands = sorted({x for vals in known for x in vals})
    for i, a in enumerate(operands):
        for b in operands[i + 1 :]:
            for t in targets:
                tol = 0.005 * max(abs(t), 1.0)
                if abs(a + b - t) <= tol or abs(b - a - t) <= tol:
                    return True
    return False
