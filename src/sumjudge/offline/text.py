"""Text utilities for the offline judge: tokens, dialogue units, numbers, names, language.

Sentence splitting and transcript turns are shared with the rest of the package and live in
`sumjudge.text`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..text import parse_turns, split_sentences
from .lexicon import (
    AMBIGUOUS_DATE_ABBREVIATIONS,
    DATE_ABBREVIATIONS,
    DAYS,
    EN_MARK,
    FIRST_PERSON,
    ID_MARK,
    MONTHS,
    NEGATIONS,
    NUMBER_WORDS,
    SCALES,
    SECOND_PERSON,
    STOP,
)

# Unambiguous abbreviations are read as the full name when matching content words; "sat",
# "sun", "wed" or "mar" are more often ordinary words.
_CONTENT_ABBREVIATIONS = {
    k: v for k, v in DATE_ABBREVIATIONS.items() if k not in AMBIGUOUS_DATE_ABBREVIATIONS
}

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?|n't|'s", re.UNICODE)
_NUM = re.compile(r"\d+(?:[.,]\d+)*")


@dataclass(frozen=True)
class Unit:
    """A source passage: a sentence, or a dialogue turn, with its verbatim span."""

    text: str  # verbatim substring of the source
    start: int
    end: int
    speaker: str  # "" for prose
    resolved: str  # text with first/second person rewritten to speaker names (dialogues)


def words(text: str) -> list[str]:
    """Lower-cased word tokens."""
    return [w.replace("’", "'") for w in _WORD.findall(text.lower())]


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
    """Stemmed content tokens (stopwords and punctuation removed); unambiguous month and day
    abbreviations count as the full name ("Oct" matches "October")."""
    return [
        stem(_CONTENT_ABBREVIATIONS.get(w, w))
        for w in words(text)
        if (w not in STOP and len(w) > 1) or w.isdigit()
    ]


def date_word(w: str) -> str:
    """The full month or day name for a (lower-cased) month/day word or abbreviation, else ""."""
    w = DATE_ABBREVIATIONS.get(w.rstrip("."), w)
    return w if w in MONTHS or w in DAYS else ""


def ngrams(toks: list[str], n: int) -> list[tuple[str, ...]]:
    return [tuple(toks[i : i + n]) for i in range(len(toks) - n + 1)]


_HEADING = re.compile(
    r"^\s*(?:#{1,6}\s+.*|\*\*[^*\n]{1,60}\*\*:?|__[^_\n]{1,60}__:?|[^.!?\n]{1,40}:)\s*$"
)
_BULLET = re.compile(r"^(\s*)(?:[-*\u2022]|\d{1,2}[.)])\s+", re.MULTILINE)
_EMPHASIS = re.compile(r"\*\*|__|`")


def strip_markup(text: str) -> str:
    """Summary text without markdown: heading lines dropped, bullets and emphasis removed.

    AI summaries often come as markdown sections ("**Action items**", "- Rina: ...");
    the headings are structure, not claims, and must not count as broken sentences or
    unknown names.
    """
    lines = [ln for ln in text.splitlines() if not _HEADING.match(ln)]
    plain = _BULLET.sub(r"\1", "\n".join(lines))
    return _EMPHASIS.sub("", plain).strip() or text.strip()


def _resolve(body: str, speaker: str, addressee: str) -> str:
    def sub(m: re.Match[str]) -> str:
        w = m.group(0).lower().replace("’", "'")
        if w in FIRST_PERSON or w.split("'")[0] in {"i", "we"}:
            return speaker
        if addressee and (w in SECOND_PERSON or w.split("'")[0] == "you"):
            return addressee
        return m.group(0)

    return re.sub(r"\b[A-Za-z]+(?:['’][a-z]+)?\b", sub, body)


def _vocative(body: str, others: list[str]) -> str:
    """The other speaker addressed by name in a turn ("Wulan, tolong ...", "Thanks, Tom."),
    or "" when none or several are."""
    found = [
        o
        for o in others
        if re.search(rf"(?:^|[.!?]\s+|,\s*){re.escape(o.split()[0])}\s*[,.!?]", body)
    ]
    return found[0] if len(found) == 1 else ""


def source_units(source: str) -> tuple[list[Unit], bool]:
    """Split a source into units (turns for dialogues, sentences otherwise)."""
    turns = parse_turns(source)
    if turns is None:
        return [Unit(s, a, b, "", s) for s, a, b in split_sentences(source)], False
    speakers = list(dict.fromkeys(t.speaker for t in turns))
    units: list[Unit] = []
    for i, turn in enumerate(turns):
        spk, body = turn.speaker, turn.body
        addressee = _vocative(body, [o for o in speakers if o != spk])
        if addressee:
            pass  # "Wulan, please prepare ...": the person named is the one addressed
        elif len(speakers) == 2:
            addressee = speakers[1] if spk == speakers[0] else speakers[0]
        else:
            for j in list(range(i - 1, -1, -1)) + list(range(i + 1, len(turns))):
                if turns[j].speaker != spk:
                    addressee = turns[j].speaker
                    break
        resolved = f"{spk}: {_resolve(body, spk, addressee)}"
        units.append(Unit(turn.text, turn.start, turn.end, spk, resolved))
    return units, True


_SCALED = re.compile(
    r"(\d+(?:\.\d+)?)\s*(k|K|m|M|bn|B|thousand|million|billion|ribu|rb|juta|jt|miliar|milyar)\b"
)


def numbers(text: str) -> set[str]:
    """Normalised numbers in the text (digits and number words).

    A number with a scale word or suffix also counts as its full value, so "$110K",
    "110 thousand" and "$110,000" (or "2 juta" and "2.000.000"-free "2000000") match.
    """
    out = {n.replace(",", "") for n in _NUM.findall(text)}
    out |= {NUMBER_WORDS[w] for w in words(text) if w in NUMBER_WORDS}
    for value, unit in _SCALED.findall(text):
        full = float(value) * SCALES[unit.lower()]
        if full.is_integer():
            out.add(str(int(full)))
    return {n.rstrip("0").rstrip(".") if "." in n else n for n in out}


_NUM_WITH_SCALE = re.compile(
    r"\d+(?:[.,]\d+)*(?:\s*(?:k|K|m|M|bn|B|thousand|million|billion|ribu|rb|juta|jt|miliar|"
    r"milyar)\b)?"
)


def numbers_verbatim(text: str) -> list[str]:
    """Numbers as written, with a scale suffix kept ("$110K" -> "110K", so that it matches
    "$110,000" in the source)."""
    found = [m.group(0) for m in _NUM_WITH_SCALE.finditer(text)]
    found += [w for w in re.findall(r"[A-Za-z]+", text) if w.lower() in NUMBER_WORDS]
    return found


_CAP = re.compile(r"\b[A-Z][a-z]+(?:['’]s)?\b")
_VERBISH = re.compile(r"\s+(?:and|or|is|was|will|has|had|wants|can|would|[a-z]+s)\b")


def names(text: str, *, initial: bool = False) -> list[str]:
    """Capitalised words that are likely names. The first word of the text counts only when
    ``initial`` is set and it is possessive or followed by a verb-like word ("Judy asks")."""
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


def detect_language(text: str) -> str:
    """ "id" when Indonesian stopwords dominate English ones, else "en"."""
    ws = words(text[:4000])
    id_hits = sum(1 for w in ws if w in ID_MARK)
    en_hits = sum(1 for w in ws if w in EN_MARK)
    return "id" if id_hits > en_hits and id_hits >= 3 else "en"
