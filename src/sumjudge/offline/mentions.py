"""How a summary sentence mentions the people of a dialogue: pronoun subjects, names listed twice.

Two cheap checks of who a sentence is about, for the dialogue consistency signals:

- a sentence opening on "He" or "She" is about the person the previous sentence opens
  with ("Sam wants the white earphones. He will collect them from Lia." is about Sam), so
  the speaker-swap check can compare "Sam will collect them from Lia" with "Lia will
  collect them from Sam" instead of skipping the pronoun;
- a list of three or more names with one name twice ("Nadia, Vanessa and Vanessa") is a
  person put in the wrong place, never how a faithful summary lists people.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# "He" / "She" opening a sentence (also "He's", "She'll"): the pronoun is the subject.
_SUBJECT_PRONOUN = re.compile(r"^(?:He|She)\b(?=(?:['’][a-z]+)?\s)")
# A coordination of at least three capitalised words: "A, B and C" / "A, B, and C" (a
# possessive after the last one, "A, B and C's", is a different phrase and not matched).
_NAME_LIST = re.compile(r"(?<![\w'’-])((?:[A-Z][a-z]+, )+[A-Z][a-z]+,? and [A-Z][a-z]+)(?![\w'’-])")


def pronoun_subjects(texts: Sequence[str], persons: Sequence[tuple[str, str]]) -> list[str | None]:
    """Each sentence with an opening "He"/"She" replaced by the person it refers to, or None.

    `persons` holds each person's name and the pattern of a mention of them
    (`dialogue.Person`). The person referred to is the first one the previous sentence
    mentions (its subject, in the plain "X does Y. He ..." of a summary). None when the
    sentence does not open on such a pronoun or the previous sentence names nobody.
    """
    out: list[str | None] = [None] * len(texts)
    patterns = [(name, re.compile(pattern)) for name, pattern in persons]
    for k in range(1, len(texts)):
        m = _SUBJECT_PRONOUN.match(texts[k])
        if not m:
            continue
        first: tuple[int, str] | None = None
        for name, pat in patterns:
            hit = pat.search(texts[k - 1])
            if hit and (first is None or hit.start() < first[0]):
                first = (hit.start(), name)
        if first is not None:
            out[k] = first[1] + texts[k][m.end() :]
    return out


def listed_twice(sentence: str) -> str:
    """The name a list of three or more names gives twice ("Nadia, Vanessa and Vanessa"), or ""."""
    for m in _NAME_LIST.finditer(sentence):
        seen: set[str] = set()
        for name in re.split(r",? and |, ", m.group(1)):
            if name in seen:
                return name
            seen.add(name)
    return ""
