"""Numbers in text and the numbers a summary sentence states that its source does not.

A number is read from what people write, in English and Indonesian: digits with either
thousands convention ("1,200", "1.200", "2,5 juta"), scale suffixes and words ("$110K",
"2 juta"), number words and their compounds ("forty-one", "empat puluh satu", "two
hundred and fifty", "a dozen"), ordinals ("third", "21st", "ketiga", "ke-3"), fractions
("half", "a third", "sepertiga": also their percentage), codes spelled one character
at a time ("N L 5 5 0 2", "five five zero two"), clock times ("9:00" is also "9", "19:50"
also "7:50"), ratios ("3.1:1": its 1 is the ratio's unit, no fact) and money said in
words ("9 pounds 33" is 9.33). Each mention carries every value it may stand for; a
summary's mention is new only when none of them is in the source.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import cache

from .lexicon import FRACTION_WORDS, MULTIPLIERS, ORDINAL_WORDS, SCALES, word_set
from .number_words import KOMA, POINT, compound, spoken_pair, vocabulary, word_number
from .records import SourceInfo

__all__ = ["Mention", "mentions", "new_numbers", "numbers"]

# Single characters spelled out one by one ("N L 5 5 0 2 9 8 1", "5-5-0"): three or more,
# at least two of them digits.
_SPELLED = re.compile(r"(?<![\w.,])(?:[A-Za-z0-9][ -]){2,}[A-Za-z0-9](?![\w])")
_ORDINAL_SUFFIXES = frozenset(["st", "nd", "rd", "th"])
_WEAK_WORD_VALUES = frozenset([0.0, 1.0, 2.0])  # "one", "first", "second", "a couple"
# "9 pounds 33": a currency word between the units and two-digit hundredths (not "7 pounds
# 12 ounces", a weight).
_MONEY_GAP = re.compile(r"\s+(?P<unit>[^\W\d_]+)\s+(?:and\s+)?", re.IGNORECASE)
_NOT_MONEY_AFTER = re.compile(r"\s*(?:ounces?|oz)\b", re.IGNORECASE)
MONEY_UNITS = word_set("money_units")


@dataclass(frozen=True)
class Mention:
    """One number as written in a text, with every value it may stand for.

    Attributes:
        written: The span as written ("forty-one", "$110K" gives "110K").
        values: Canonical forms of its possible values ("41"; "1.2" and "1200" for "1.200").
        words_only: Written in words only (no digit): weaker evidence.
        small_word: A word-only mention of 0, 1 or 2, a fraction or a bare multiplier
            ("one", "second", "half", "million"), or the 1 of a ratio ("3:1", a "1:1"
            meeting): never evidence on its own.
        parts: Values of its parts that a source also states by writing it: "9:30" gives
            9 and 30, "9 pounds 33" gives 9 and 33 (the source is read generously).
    """

    written: str
    values: frozenset[str]
    words_only: bool
    small_word: bool
    parts: frozenset[str] = frozenset()


def _canon(v: float) -> str:
    if float(v).is_integer():
        return str(int(v))
    return f"{round(v, 4):g}"


def _digit_values(tok: str) -> set[float]:
    """The values of a digit token under either thousands convention."""
    parts = re.split(r"[.,]", tok)
    out: set[float] = set()
    if len(parts) == 1:
        return {float(tok)}
    if all(len(p) == 3 for p in parts[1:]):  # every separator a thousands separator
        out.add(float("".join(parts)))
    if all(len(p) == 3 for p in parts[1:-1]):  # the last one a decimal mark
        out.add(float("".join(parts[:-1]) + "." + parts[-1]))
    if not out:  # "1.2.3" (a version, a date): its groups
        out.update(float(p) for p in parts)
    return out


def _forms(values: set[float], *, fraction: bool = False) -> frozenset[str]:
    out = {_canon(v) for v in values}
    if fraction:  # "half" is also "50%", "a third" also "33%"
        for v in (v for v in values if v < 1.0):
            out |= {_canon(round(v * 100)), _canon(round(v * 100, 1)), _canon(round(v, 2))}
    return frozenset(out)


def mentions(text: str) -> list[Mention]:
    """The numbers of a text, in order, each with its possible values."""
    return _scan(text)[0]


def _scan(text: str) -> tuple[list[Mention], set[str]]:
    """The mentions of a text and its number words (lower-case)."""
    out: list[Mention] = []
    spelled_spans: list[tuple[int, int]] = []
    for m in _SPELLED.finditer(text):
        chars = re.sub(r"[ -]", "", m.group(0))
        if sum(c.isdigit() for c in chars) < 2:
            continue
        spelled_spans.append(m.span())
        digits = {float(d) for d in re.findall(r"\d+", chars)}
        out.append(Mention(m.group(0), _forms(digits) | {chars.lower()}, False, False))
    found = _outside(_tokens(text), spelled_spans)
    located: list[tuple[Mention, int, int]] = []
    i = 0
    while i < len(found):
        m = found[i]
        if m.group("num"):
            located.append((_digits_mention(m), m.start(), m.end()))
            i += 1
            continue
        j = i + 1  # number words joined by spaces or hyphens ("and" after "hundred")
        while j < len(found) and found[j].group("word"):
            gap = text[found[j - 1].end() : found[j].start()]
            after_scale = found[j - 1].group(0).lower() in MULTIPLIERS
            if not (_SPACE.fullmatch(gap) or (after_scale and _AND.fullmatch(gap))):
                break
            j += 1
        run = [x.group(0).lower() for x in found[i:j]]
        while run and run[-1] in (POINT, KOMA):  # "the point", "dua koma" without digits
            run.pop()
            j -= 1
        if not run or run[0] in (POINT, KOMA):
            i += 1
            continue
        vals, _spelled = compound(run)
        fraction = any(w in FRACTION_WORDS for w in run)
        value = max(vals)
        small = len(run) == 1 and (
            value in _WEAK_WORD_VALUES
            or fraction
            or run[0] in MULTIPLIERS
            or (run[0] in ORDINAL_WORDS and value <= 2)
        )
        written = text[m.start() : found[j - 1].end()]
        forms = _forms(vals, fraction=fraction)
        pair = spoken_pair(run)
        if pair is not None:  # "nine thirty": 9:30 or 9.30
            forms |= _clock(int(pair[0]), int(pair[1])) | {_canon(pair[0] + pair[1] / 100)}
        mention = Mention(written, forms, True, small)
        located.append((mention, m.start(), found[j - 1].end()))
        i = j
    out += _joined(text, located)
    return out, {m.group(0).lower() for m in found if m.group("word")}


def _joined(text: str, located: list[tuple[Mention, int, int]]) -> list[Mention]:
    """The mentions with the pairs that make one number joined: times, ratios, money.

    Two digit tokens joined by a colon are a clock time ("9:00", "19:50": an hour up to
    24 and two-digit minutes) or else a ratio ("3.1:1", "1:1"); three or more so joined
    (a timestamp "00:01:45") stay as they are. An amount, a currency word and two-digit
    hundredths ("249 pounds 80") are one amount.
    """
    out: list[Mention] = []
    k = 0
    while k < len(located):
        m, _, end = located[k]
        if k + 1 == len(located):
            out.append(m)
            break
        nxt, n_start, n_end = located[k + 1]
        gap = text[end:n_start]
        if gap == ":" and not (m.words_only or nxt.words_only):
            run = k + 1  # the last token of the colon-joined run
            while run + 1 < len(located) and _colon_joined(text, located[run], located[run + 1]):
                run += 1
            if run == k + 1:
                out += _clock_or_ratio(m, nxt)
            else:
                out += _timestamp([x for x, _, _ in located[k : run + 1]])
            k = run + 1
            continue
        money = _money(m, nxt, gap, text[n_end : n_end + 12])
        if money is not None:
            out.append(money)
            k += 2
            continue
        out.append(m)
        k += 1
    return out


def _colon_joined(text: str, a: tuple[Mention, int, int], b: tuple[Mention, int, int]) -> bool:
    return text[a[2] : b[1]] == ":" and not (a[0].words_only or b[0].words_only)


def _clock_or_ratio(left: Mention, right: Mention) -> list[Mention]:
    """Two numbers joined by a colon: a time ("9:00", also 9; "19:50" also "7:50") or a ratio.

    A time is one mention (its hour and minutes are parts); a ratio is its two sides,
    a side of 1 weak: it is the unit the other side is measured in ("3.1 to 1"), and a
    "1:1" is a meeting of two people, no quantity.
    """
    written = f"{left.written}:{right.written}"
    if left.written.isdigit() and len(right.written) == 2 and right.written.isdigit():
        hour, minutes = int(left.written), int(right.written)
        if hour <= 24 and minutes < 60:
            parts = left.values | right.values
            return [Mention(written, _clock(hour, minutes), False, False, parts)]
    return [
        Mention(side.written, side.values, False, side.values == {"1"}) for side in (left, right)
    ]


def _timestamp(parts: list[Mention]) -> list[Mention]:
    """A timestamp's parts ("00:01:45.000"), the first also standing for its "01:45" readings.

    A summary of a timed transcript may cite a moment as minutes and seconds ("at 01:45")
    or hours and minutes: each adjacent pair, read as a clock time, is among the parts a
    source states.
    """
    pairs: set[str] = set()
    for a, b in itertools.pairwise(parts):
        whole = re.match(r"\d{2}(?![\d,])", b.written)
        if a.written.isdigit() and whole is not None:
            pairs |= _clock(int(a.written), int(whole.group(0)))
    first = parts[0]
    joined = Mention(first.written, first.values, False, False, first.parts | pairs)
    return [joined, *parts[1:]]


def _clock(hour: int, minutes: int) -> frozenset[str]:
    """A time's forms: "19:50" and "19.50", "7:50" and "7.50"; "9:00" is also "9"."""
    if minutes >= 60 or hour > 24:
        return frozenset()
    values = set()
    for h in {hour, hour - 12} if hour > 12 else {hour}:
        values |= {f"{h}:{minutes:02d}", _canon(h + minutes / 100)}
        if minutes == 0:
            values.add(str(h))
    return frozenset(values)


def _money(major: Mention, minor: Mention, gap: str, after: str) -> Mention | None:
    """An amount said in words ("249 pounds 80" is 249.80), or None if there is none."""
    said = _MONEY_GAP.fullmatch(gap)
    if said is None or said.group("unit").lower() not in MONEY_UNITS:
        return None
    if _NOT_MONEY_AFTER.match(after):
        return None
    cents = _floats(minor.values)
    two_digits = minor.written.isdigit() and len(minor.written) == 2
    if len(cents) != 1 or not (two_digits or (minor.words_only and 10 <= min(cents) < 100)):
        return None
    hundredths = min(cents) / 100
    values = frozenset(_canon(v + hundredths) for v in _floats(major.values))
    written = f"{major.written}{gap}{minor.written}"
    return Mention(written, values, False, False, major.values | minor.values)


_SPACE = re.compile(r"[ \t-]+")
_AND = re.compile(r"\s+and\s+", re.IGNORECASE)


@cache
def _pattern() -> re.Pattern[str]:
    """Digits (with a scale or ordinal suffix), or a run of letters."""
    suffixes = "|".join(
        sorted((re.escape(w) for w in set(SCALES) | _ORDINAL_SUFFIXES), key=len, reverse=True)
    )
    return re.compile(
        rf"(?P<num>\d+(?:[.,]\d+)*)(?:(?P<gap>\s?)(?P<suffix>{suffixes})(?![^\W_]))?"
        r"|(?P<word>[^\W\d_]+)",
        re.IGNORECASE,
    )


def _tokens(text: str) -> list[re.Match[str]]:
    """Digit tokens and number words (whole runs of letters), in order.

    Letter runs are matched whole and kept when, lower-cased, they are a number word: one
    pass of a small pattern, where an alternation of every number word tried at each
    position took most of the time on long sources. (That alternation also matched
    through Unicode case folding, "ſix" for "six", which no reader knew: it raised.)
    """
    known = vocabulary()
    pattern = _pattern()
    word = pattern.groupindex["word"]  # (by number: no lookup of the name per match)
    return [m for m in pattern.finditer(text) if (r := m[word]) is None or r.lower() in known]


def _outside(toks: list[re.Match[str]], spans: list[tuple[int, int]]) -> list[re.Match[str]]:
    """The tokens that start outside the (sorted, disjoint) spans."""
    if not spans:
        return toks
    out, k = [], 0
    for t in toks:
        while k < len(spans) and spans[k][1] <= t.start():
            k += 1
        if k == len(spans) or t.start() < spans[k][0]:
            out.append(t)
    return out


def _digits_mention(m: re.Match[str]) -> Mention:
    """A digit token with its scale ("110K", "2 juta") or ordinal suffix ("21st")."""
    values = _digit_values(m.group("num"))
    suffix = (m.group("suffix") or "").lower()
    if suffix in SCALES:
        values |= {v * SCALES[suffix] for v in values}
        return Mention(m.group(0), _forms(values), False, False)
    return Mention(m.group("num"), _forms(values), False, False)


def numbers(text: str) -> set[str]:
    """Every value the numbers of a text may stand for (canonical forms).

    A source's words spelled out one by one also count joined, and a compound's parts
    count on their own ("forty-one" also gives 40 and 1): the source side is read
    generously, so that only a number it cannot have meant is evidence.
    """
    out: set[str] = set()
    found, number_words = _scan(text)
    for m in found:
        out |= m.values | m.parts
    for low in number_words - {POINT, KOMA}:
        wn = word_number(low)
        if wn is not None and wn[1] in ("num", "ordinal", "fraction"):
            out |= _forms({wn[0]})
        if low in FRACTION_WORDS:
            out |= _forms({float(FRACTION_WORDS[low])}, fraction=True)
    return out


def new_numbers(sentence: str, info: SourceInfo) -> list[str]:
    """The numbers of a summary sentence (as written) that the source does not state.

    Small number words (see `Mention.small_word`), dialogue head-counts in words ("two
    friends" with two or more speakers) and sums or differences of the sentence's own
    source-backed numbers (see `_derived`) are not counted.
    """
    found = mentions(sentence)
    out: list[str] = []
    for m in found:
        if m.values & info.nums or m.written in out or m.small_word:
            continue
        if m.words_only and info.dialogue and _head_count(m, info):
            continue
        if _derived(m, found, info):
            continue
        out.append(m.written)
    return out


def _head_count(m: Mention, info: SourceInfo) -> bool:
    value = next(iter(m.values))
    return len(m.values) == 1 and value.isdigit() and int(value) <= max(2, len(info.speakers))


def _floats(forms: frozenset[str]) -> set[float]:
    out: set[float] = set()
    for f in forms:
        try:
            out.add(float(f))
        except ValueError:
            continue
    return out


def _derived(m: Mention, found: list[Mention], info: SourceInfo) -> bool:
    """Whether a number is the sum or difference of two source-backed numbers of its sentence.

    "$86K of it: $64K freight and $22K repairs" is arithmetic on the source, not a new fact.
    """
    targets = _floats(m.values)
    operands = sorted({x for o in found if o.values & info.nums for x in _floats(o.values)})
    for i, a in enumerate(operands):
        for b in operands[i + 1 :]:
            for t in targets:
                tol = 0.005 * max(abs(t), 1.0)
                if abs(a + b - t) <= tol or abs(b - a - t) <= tol:
                    return True
    return False
