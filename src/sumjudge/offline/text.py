"""Tokens for the offline judge: words, light stemming, content words, dates and language.

Sentence splitting and transcript turns are plain-text concerns shared with the rest of the
package and live in `sumjudge.text`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..text import Sentence, split_sentences
from .lexicon import (
    AMBIGUOUS_DATE_ABBREVIATIONS,
    DATE_ABBREVIATIONS,
    DAYS,
    EN_MARK,
    FRACTION_WORDS,
    ID_MARK,
    MONTHS,
    NUMBER_WORDS,
    ORDINAL_WORDS,
    STOP,
    UNIT_SYNONYMS,
)

# Unambiguous abbreviations are read as the full name when matching content words; "sat",
# "sun", "wed" or "mar" are more often ordinary words.
_CONTENT_ABBREVIATIONS = {
    k: v for k, v in DATE_ABBREVIATIONS.items() if k not in AMBIGUOUS_DATE_ABBREVIATIONS
}
_CONTENT_MAP = {**_CONTENT_ABBREVIATIONS, **UNIT_SYNONYMS}
_NUMBER_WORDS = frozenset(NUMBER_WORDS) | frozenset(ORDINAL_WORDS) | frozenset(FRACTION_WORDS)
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?|n't|'s", re.UNICODE)


def words(text: str) -> list[str]:
    """Lower-cased word tokens, with curly apostrophes made straight."""
    return _WORD.findall(text.lower().replace("’", "'"))


@lru_cache(maxsize=200_000)
def stem(w: str) -> str:
    """A very light stemmer, enough to match plural/tense variants."""
    if w.endswith("'s"):
        w = w[:-2]
    if len(w) > 5 and w.endswith("ing"):
        return w[:-3]
    if len(w) > 4 and w.endswith("ed"):
        return w[:-2]
    if len(w) > 4 and w.endswith("es"):
        return w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
        return w[:-1]
    return w


def content(text: str) -> list[str]:
    """Stemmed content tokens (stopwords, numbers and punctuation removed).

    Unambiguous month and day abbreviations count as the full name ("Oct" matches
    "October"), and units and currencies as one spelling ("Mbps" matches "megabits").
    Numbers, in digits or words, are not content words: "41" and "forty-one" are the
    same claim, which `numbers` checks; as words they would count as unsupported.
    """
    return content_of(words(text))


def content_of(ws: list[str]) -> list[str]:
    """`content` of already tokenised words (`words`)."""
    forms = _CONTENT_FORMS
    if len(forms) > _CONTENT_FORMS_MAX:
        forms.clear()
    out: list[str] = []
    for w in ws:
        try:
            form = forms[w]
        except KeyError:
            form = forms[w] = _content_form(w)
        if form is not None:
            out.append(form)
    return out


# Each word's content form (None: not a content word), looked up once per distinct word:
# a long source repeats its words thousands of times. Bounded like `stem`'s cache.
_CONTENT_FORMS: dict[str, str | None] = {}
_CONTENT_FORMS_MAX = 200_000


def _content_form(w: str) -> str | None:
    if w in STOP or len(w) <= 1 or w in _NUMBER_WORDS or w[0].isdigit():
        return None
    return stem(_CONTENT_MAP.get(w, w))


def alike(a: str, b: str) -> bool:
    """Whether two stems are one word's forms ("writ" of "writes" and "write").

    Equal, one the other but for an ending of up to two letters (not "add", "address"),
    or sharing a start of five letters or more ("agre" / "agree", "migrate" / "migration").
    """
    short, long = sorted((a, b), key=len)
    if short == long or (
        len(short) >= 3 and long.startswith(short) and len(long) - len(short) <= 2
    ):
        return True
    common = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(short))
    return common >= 5 and common >= len(short) - 2


def fold(text: str) -> str:
    """Casefolded, with white space collapsed (for verbatim comparisons)."""
    return " ".join(text.split()).casefold()


def date_word(w: str) -> str:
    """The full month or day name for a (lower-cased) month/day word or abbreviation, else ""."""
    w = DATE_ABBREVIATIONS.get(w.rstrip("."), w)
    return w if w in MONTHS or w in DAYS else ""


def ngrams(toks: list[str], n: int) -> list[tuple[str, ...]]:
    """The `n`-grams of a token list, in order."""
    return list(zip(*(toks[k:] for k in range(n)), strict=False))


_HEADING = re.compile(
    r"^\s*(?:#{1,6}\s+.*|\*\*[^*\n]{1,60}\*\*:?|__[^_\n]{1,60}__:?|[^.!?\n]{1,40}:)\s*$"
)
_BULLET = re.compile(r"^(\s*)(?:[-*\u2022]|\d{1,2}[.)])\s+", re.MULTILINE)
_EMPHASIS = re.compile(r"\*\*|__|`")
# a bold run-in label closed by a full stop ("**Impact.** Checkout was down ..."): a label
# of what follows, not a sentence of its own
_RUN_IN = re.compile(r"^(\s*(?:[-*\u2022]\s+)?(?:\*\*|__)[^*_\n.]{1,40})\.((?:\*\*|__)\s+\S)", re.M)
_TABLE_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_TABLE_RULE = re.compile(r"^[\s|:-]+$")


def _tables_as_sentences(lines: list[str]) -> list[str]:
    """Markdown pipe tables as one sentence per data row ("Budi; Update the docs; Thursday.").

    The header row and the rule under it are structure, like a heading: dropped.
    """
    out: list[str] = []
    header_done = False
    for i, line in enumerate(lines):
        row = _TABLE_ROW.match(line)
        if row is None:
            out.append(line)
            header_done = False
            continue
        if _TABLE_RULE.match(row.group(1)):
            continue
        following = lines[i + 1] if i + 1 < len(lines) else ""
        next_row = _TABLE_ROW.match(following)
        if not header_done and next_row is not None and _TABLE_RULE.match(next_row.group(1)):
            header_done = True  # the header of a table
            continue
        cells = [c.strip() for c in row.group(1).split("|") if c.strip()]
        if cells:
            sentence = "; ".join(cells)
            out.append(sentence if sentence[-1] in ".!?" else sentence + ".")
    return out


def strip_markup(text: str) -> str:
    """Summary text without markdown: headings, bullets, emphasis and tables.

    Heading lines are dropped, bullet markers and emphasis removed, a bold run-in label
    closed by a full stop ("**Impact.** ...") read as a label ("Impact: ..."), and each data
    row of a pipe table becomes one sentence. AI summaries often come as markdown sections
    ("**Action items**", "- Rina: ...", tables of owners and dates); headings and table
    headers are structure, not claims, and must not count as broken sentences or unknown
    names.
    """
    lines = [ln for ln in _tables_as_sentences(text.splitlines()) if not _HEADING.match(ln)]
    plain = _BULLET.sub(r"\1", _RUN_IN.sub(r"\1:\2", "\n".join(lines)))
    return _EMPHASIS.sub("", plain).strip() or text.strip()


def detect_language(text: str) -> str:
    """Return "id" when Indonesian marker words outnumber English ones (at least 3), else "en"."""
    ws = words(text[:4000])
    id_hits = sum(1 for w in ws if w in ID_MARK)
    en_hits = sum(1 for w in ws if w in EN_MARK)
    return "id" if id_hits > en_hits and id_hits >= 3 else "en"


def shorten(text: str, limit: int = 90) -> str:
    """Whitespace collapsed and cut at a word boundary to about `limit` characters."""
    text = re.sub(r"\s+", " ", text).strip()
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0]
    return cut + " ..."


# Lines longer than this are cut into pieces at safe sentence ends before splitting, so the
# cost stays linear in the length of the text (`sumjudge.text.split_sentences` looks back to
# the start of its text for abbreviations at every full stop).
_PIECE = 2000
_SAFE_END = re.compile(r"(?<=[a-z]{4}[.!?])\s+(?=[A-Z])")


def sentences(text: str) -> list[Sentence]:
    """`sumjudge.text.split_sentences` in linear time: line by line, long lines in pieces.

    Line breaks end sentences anyway; a long line is cut only after a full stop that ends a
    lower-case word of four or more letters and before a capital (never after "Mr." or
    "U.S."), so the sentences are the same.
    """
    out: list[Sentence] = []
    pos = 0
    for line in text.split("\n"):
        for a, b in _pieces(line):
            out += [Sentence(s, pos + a + x, pos + a + y) for s, x, y in split_sentences(line[a:b])]
        pos += len(line) + 1
    return out


def _pieces(line: str) -> list[tuple[int, int]]:
    if len(line) <= _PIECE:
        return [(0, len(line))]
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _SAFE_END.finditer(line):
        if m.start() - start >= _PIECE:
            spans.append((start, m.start()))
            start = m.end()
    spans.append((start, len(line)))
    return spans
