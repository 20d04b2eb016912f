"""Text utilities for the offline judge: tokens, dialogue units, numbers, names, language.

Sentence splitting and transcript turns are shared with the rest of the package and live in
`sumjudge.text`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..text import parse_turns, split_sentences

EN_STOP = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "also",
        "am",
        "an",
        "and",
        "any",
        "are",
        "aren't",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "let",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "'s",
        "'re",
        "'ve",
        "'ll",
        "'d",
        "n't",
        "s",
        "t",
        "re",
        "ve",
        "ll",
        "d",
        "m",
        "o",
        "y",
        "also",
        "said",
        "says",
        "say",
        "get",
        "got",
        "going",
        "go",
        "one",
        "two",
        "new",
        "like",
        "well",
        "us",
        "just",
        "yes",
        "ok",
        "okay",
        "oh",
        "yeah",
        "hi",
        "hey",
    ]
)
ID_STOP = frozenset(
    [
        "yang",
        "dan",
        "di",
        "ini",
        "itu",
        "dengan",
        "untuk",
        "tidak",
        "dari",
        "dalam",
        "akan",
        "pada",
        "juga",
        "ke",
        "karena",
        "ada",
        "adalah",
        "bisa",
        "sudah",
        "saya",
        "kami",
        "kita",
        "mereka",
        "dia",
        "ia",
        "anda",
        "kamu",
        "aku",
        "atau",
        "tetapi",
        "tapi",
        "jadi",
        "agar",
        "oleh",
        "sebagai",
        "lebih",
        "belum",
        "bukan",
        "hanya",
        "saja",
        "lagi",
        "masih",
        "sangat",
        "seperti",
        "telah",
        "sedang",
        "harus",
        "dapat",
        "para",
        "nya",
        "pak",
        "bu",
        "ya",
        "oke",
        "iya",
        "halo",
        "baik",
        "terima",
        "kasih",
        "mau",
        "apa",
        "kapan",
        "bagaimana",
        "kenapa",
    ]
)
STOP = EN_STOP | ID_STOP

NEGATIONS = frozenset(
    [
        "not",
        "no",
        "never",
        "none",
        "nobody",
        "nothing",
        "neither",
        "nor",
        "cannot",
        "can't",
        "won't",
        "don't",
        "doesn't",
        "didn't",
        "isn't",
        "aren't",
        "wasn't",
        "weren't",
        "hasn't",
        "haven't",
        "hadn't",
        "shouldn't",
        "wouldn't",
        "couldn't",
        "mustn't",
        "n't",
        "refuses",
        "refused",
        "refuse",
        "without",
        "tidak",
        "bukan",
        "belum",
        "jangan",
        "tak",
        "enggak",
        "gak",
        "nggak",
    ]
)
MONTHS = frozenset(
    [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "januari",
        "februari",
        "maret",
        "mei",
        "juni",
        "juli",
        "agustus",
        "oktober",
        "desember",
    ]
) - {"may"}
# Abbreviations of month and day names and what they stand for. Only unambiguous forms are
# used when matching content words ("sat", "sun", "wed", "mar" are also ordinary words), but
# all of them are dates, never names, when capitalised ("Oct 24", "Fri").
DATE_ABBREVIATIONS: dict[str, str] = {
    "jan": "january",
    "feb": "february",
    "mar": "march",
    "apr": "april",
    "jun": "june",
    "jul": "july",
    "aug": "august",
    "sep": "september",
    "sept": "september",
    "oct": "october",
    "nov": "november",
    "dec": "december",
    "okt": "oktober",
    "des": "desember",
    "agu": "agustus",
    "agt": "agustus",
    "mon": "monday",
    "tue": "tuesday",
    "tues": "tuesday",
    "wed": "wednesday",
    "thu": "thursday",
    "thur": "thursday",
    "thurs": "thursday",
    "fri": "friday",
    "sat": "saturday",
    "sun": "sunday",
}
AMBIGUOUS_DATE_ABBREVIATIONS = frozenset(["mar", "mon", "wed", "sat", "sun", "dec", "des", "agu"])
_CONTENT_ABBREVIATIONS = {
    k: v for k, v in DATE_ABBREVIATIONS.items() if k not in AMBIGUOUS_DATE_ABBREVIATIONS
}

DAYS = frozenset(
    [
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "senin",
        "selasa",
        "rabu",
        "kamis",
        "jumat",
        "sabtu",
        "minggu",
    ]
)
NUMBER_WORDS = {
    "zero": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "eleven": "11",
    "twelve": "12",
    "fifteen": "15",
    "twenty": "20",
    "thirty": "30",
    "forty": "40",
    "fifty": "50",
    "hundred": "100",
    "thousand": "1000",
    "million": "1000000",
    "billion": "1000000000",
    "satu": "1",
    "dua": "2",
    "tiga": "3",
    "empat": "4",
    "lima": "5",
    "enam": "6",
    "tujuh": "7",
    "delapan": "8",
    "sembilan": "9",
    "sepuluh": "10",
    "seratus": "100",
    "seribu": "1000",
    "juta": "1000000",
    "miliar": "1000000000",
}
FIRST_PERSON = frozenset(
    [
        "i",
        "me",
        "my",
        "mine",
        "myself",
        "i'm",
        "i'll",
        "i've",
        "i'd",
        "we",
        "us",
        "our",
        "ours",
        "aku",
        "saya",
        "gue",
    ]
)
SECOND_PERSON = frozenset(
    [
        "you",
        "your",
        "yours",
        "yourself",
        "you're",
        "you'll",
        "you've",
        "you'd",
        "kamu",
        "anda",
        "lo",
    ]
)

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
_SCALE = {
    "k": 1e3,
    "thousand": 1e3,
    "ribu": 1e3,
    "rb": 1e3,
    "m": 1e6,
    "million": 1e6,
    "juta": 1e6,
    "jt": 1e6,
    "bn": 1e9,
    "b": 1e9,
    "billion": 1e9,
    "miliar": 1e9,
    "milyar": 1e9,
}


def numbers(text: str) -> set[str]:
    """Normalised numbers in the text (digits and number words).

    A number with a scale word or suffix also counts as its full value, so "$110K",
    "110 thousand" and "$110,000" (or "2 juta" and "2.000.000"-free "2000000") match.
    """
    out = {n.replace(",", "") for n in _NUM.findall(text)}
    out |= {NUMBER_WORDS[w] for w in words(text) if w in NUMBER_WORDS}
    for value, unit in _SCALED.findall(text):
        full = float(value) * _SCALE[unit.lower()]
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
    id_hits = sum(1 for w in ws if w in _ID_MARK)
    en_hits = sum(1 for w in ws if w in _EN_MARK)
    return "id" if id_hits > en_hits and id_hits >= 3 else "en"


_ID_MARK = frozenset(
    [
        "yang",
        "dan",
        "di",
        "ini",
        "itu",
        "dengan",
        "untuk",
        "tidak",
        "dari",
        "dalam",
        "akan",
        "sudah",
        "saya",
        "kami",
    ]
)
_EN_MARK = frozenset(
    [
        "the",
        "and",
        "of",
        "to",
        "is",
        "that",
        "in",
        "it",
        "for",
        "with",
        "was",
        "on",
        "are",
        "be",
        "this",
    ]
)
