"""The offline judge's word lists, read once from the plain-text files in `words/`.

Each file holds one entry per line; `#` starts a comment and blank lines are ignored. A
mapping file has two whitespace-separated columns, key and value. Keeping the lists as data
lets them be reviewed and extended (another language, another filler word) without touching
code; they ship as package data.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

__all__ = [
    "AMBIGUOUS_DATE_ABBREVIATIONS",
    "BROKEN_END",
    "DATE_ABBREVIATIONS",
    "DAYS",
    "EN_MARK",
    "EN_STOP",
    "FIRST_PERSON",
    "FRACTION_WORDS",
    "ID_MARK",
    "ID_STOP",
    "MONTHS",
    "MULTIPLIERS",
    "NEGATIONS",
    "NEGATIVE_MEANING",
    "NUMBER_WORDS",
    "ORDINAL_WORDS",
    "SCALES",
    "SECOND_PERSON",
    "STOP",
    "TITLES",
    "UNITS",
    "UNIT_SYNONYMS",
    "word_map",
    "word_pairs",
    "word_set",
]


@cache
def _entries(name: str) -> tuple[str, ...]:
    path = resources.files(__package__).joinpath("words").joinpath(f"{name}.txt")
    lines = (line.split("#", 1)[0].strip() for line in path.read_text("utf-8").splitlines())
    return tuple(line for line in lines if line)


def word_set(name: str) -> frozenset[str]:
    """The words of `words/<name>.txt`.

    Args:
        name: The file's name without `.txt`.

    Returns:
        The words, as written (the lists are lower-case).
    """
    return frozenset(_entries(name))


def word_map(name: str) -> dict[str, str]:
    """The key-value pairs of `words/<name>.txt` (two columns per line).

    Args:
        name: The file's name without `.txt`.

    Returns:
        A new dict from the first column to the second.
    """
    return dict(line.split(maxsplit=1) for line in _entries(name))


def word_pairs(name: str) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """The pairs of word sets of `words/<name>.txt` (one pair a line, sides split by "|").

    Args:
        name: The file's name without `.txt`.

    Returns:
        Each line's two sides as sets of words.
    """
    out: list[tuple[frozenset[str], frozenset[str]]] = []
    for line in _entries(name):
        left, _, right = line.partition("|")
        out.append((frozenset(left.split()), frozenset(right.split())))
    return tuple(out)


EN_STOP = word_set("stopwords_en")
ID_STOP = word_set("stopwords_id")
STOP = EN_STOP | ID_STOP
NEGATIONS = word_set("negations")
NEGATIVE_MEANING = word_set("negative_meaning")
MONTHS = word_set("months")
DAYS = word_set("days")
DATE_ABBREVIATIONS = word_map("date_abbreviations")
AMBIGUOUS_DATE_ABBREVIATIONS = word_set("ambiguous_date_abbreviations")
NUMBER_WORDS = word_map("number_words")
ORDINAL_WORDS = word_map("ordinal_words")
FRACTION_WORDS = word_map("fraction_words")
TITLES = word_set("titles")
UNITS = word_set("units")
UNIT_SYNONYMS = word_map("unit_synonyms")
MULTIPLIERS = word_set("multipliers")
SCALES = {k: float(v) for k, v in word_map("scales").items()}
FIRST_PERSON = word_set("first_person")
SECOND_PERSON = word_set("second_person")
EN_MARK = word_set("language_marks_en")
ID_MARK = word_set("language_marks_id")
BROKEN_END = word_set("broken_end")
