"""Numbers written in words, English and Indonesian: one word's value, a run's values.

"forty-one", "two hundred and fifty", "empat puluh satu", "dua belas", "two point four",
"a dozen", "third", "ketiga", "two thirds"; and a spoken time or price, an hour or amount
followed by its minutes or hundredths ("nine thirty" is 9:30 or 9.30, never 39).
`numbers.py` finds the runs in a text and reads digits.
"""

from __future__ import annotations

from functools import cache

from .lexicon import FRACTION_WORDS, NUMBER_WORDS, ORDINAL_WORDS

__all__ = ["KOMA", "POINT", "TEEN", "TENS", "compound", "spoken_pair", "vocabulary", "word_number"]

# Indonesian operators inside number words: "dua belas" = 12, "empat puluh" = 40,
# "tiga ratus" = 300 ("ratus" is also in NUMBER_WORDS, as a multiplier).
TEEN, TENS = "belas", "puluh"
# The decimal point in words: "two point four" = 2.4, "dua koma lima" = 2.5.
POINT, KOMA = "point", "koma"


def word_number(w: str) -> tuple[float, str] | None:
    """A number word's value and kind ("num", "ordinal" or "fraction"), or None."""
    if w in NUMBER_WORDS:
        return float(NUMBER_WORDS[w]), "num"
    if w in ORDINAL_WORDS:
        return float(ORDINAL_WORDS[w]), "ordinal"
    if w in FRACTION_WORDS:
        return float(FRACTION_WORDS[w]), "fraction"
    if w.startswith("ke") and w[2:] in NUMBER_WORDS and w != "ke":  # "ketiga", "kesepuluh"
        return float(NUMBER_WORDS[w[2:]]), "ordinal"
    if w in (TEEN, TENS, POINT, KOMA):
        return 0.0, w
    return None


def compound(run: list[str]) -> tuple[set[float], bool]:
    """The values of a run of number words, and whether it reads as digits spelled out.

    "forty one" = 41, "two hundred fifty" = 250, "dua belas" = 12, "empat puluh satu" =
    41, "two million" = 2,000,000, "two thirds" = 0.67 (and the ordinal reading is kept
    for a lone "third"); "five five zero" (digits only, no tens or multiplier) is spelled
    out, 550, and also gives its digits.
    """
    items = [wn for w in run if (wn := word_number(w)) is not None]
    decimal = next((k for k, (_, kind) in enumerate(items) if kind in (POINT, KOMA)), None)
    if decimal is not None:
        whole, _ = compound(run[:decimal])
        digits = "".join(str(int(v)) for v, k in items[decimal + 1 :] if k == "num" and v < 10)
        value = float(f"{int(max(whole))}.{digits or 0}")
        scale = [v for v, k in items[decimal + 1 :] if k == "num" and v >= 1000]
        return {value, value * scale[-1]} if scale else {value}, False
    if len(items) >= 2 and all(k == "num" and v < 10 for v, k in items):
        return {float("".join(str(int(v)) for v, _ in items))} | {v for v, _ in items}, True
    total, current, last, fraction = 0.0, 0.0, 0.0, None
    for w, (v, k) in zip(run, items, strict=True):
        if w in FRACTION_WORDS and (current or k == "fraction"):
            fraction = (current or 1.0) * float(FRACTION_WORDS[w])
            current = 0.0
        elif k == TEEN:  # "dua belas": the last digit plus ten
            current += 10.0 if last else 11.0
        elif k == TENS:  # "empat puluh": the last digit times ten
            current += 9.0 * last if last else 10.0
        elif v < 10.0:
            current += v
            last = v
            continue
        elif v == 100.0:
            current = (current or 1.0) * 100.0
        elif v >= 1000.0:
            total += (current or 1.0) * v
            current = 0.0
        elif v == 12.0 and current:  # "two dozen"
            current *= 12.0
        else:
            current += v
        last = 0.0
    if fraction is not None:
        return {total + fraction}, False
    values = {total + current}
    if len(run) == 1 and run[0] in FRACTION_WORDS:  # a lone "third": ordinal or fraction
        values.add(float(FRACTION_WORDS[run[0]]))
    return values, False


@cache
def vocabulary() -> frozenset[str]:
    """Every number word `numbers` reads (lower-case letters only)."""
    vocabulary = set(NUMBER_WORDS) | set(ORDINAL_WORDS) | set(FRACTION_WORDS)
    vocabulary |= {TEEN, TENS, POINT, KOMA}
    vocabulary |= {"ke" + w for w in NUMBER_WORDS}
    return frozenset(vocabulary)


def spoken_pair(run: list[str]) -> tuple[float, float] | None:
    """An hour or amount then its minutes or hundredths in words, or None.

    "nine thirty" (9:30, or 9.30 of a price), "ten fifteen", "two forty-five": a number
    up to 24, then one from 10 to 99 in words that starts with a teen or tens word. A
    unit before a tens word is no compound in English ("thirty-nine" is 39, "nine thirty"
    is not); the caller keeps the compound's value too, as every reading is kept.
    """
    if len(run) < 2:
        return None
    first, second = word_number(run[0]), word_number(run[1])
    if first is None or second is None or first[1] != "num" or second[1] != "num":
        return None
    rest, _ = compound(run[1:])
    low = max(rest)
    if not (1.0 <= first[0] <= 24.0 and 10.0 <= second[0] < 100.0 and 10.0 <= low < 100.0):
        return None
    return first[0], low
