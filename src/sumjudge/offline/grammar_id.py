"""Grammar errors in Indonesian: particle and word-order patterns no fluent writer produces.

Each rule is a pattern whose every match is an error, whatever the topic:

- the clitic "-nya" written as a word of its own ("kembali nya", "rusak nya");
- "oleh" with no agent after it: before punctuation or at the end ("dibayar oleh;");
- one verb twice, active and passive side by side ("mengabari dikabari"), or its root
  beside its "meN-...-kan"/"-i" form ("selesai menyelesaikan");
- a named subject repeated by a pronoun at the start of a sentence ("Mas Andi dia
  mendukung");
- an aspect word before "yang" and its predicate ("sudah yang rusak" for "yang sudah
  rusak"): the aspect marks a predicate, and "yang" opens a noun phrase; a superlative
  or an ordinal after "yang" is one ("sudah yang terbaik", "sudah yang kedua kalinya").
"""

from __future__ import annotations

import re

from .lexicon import TITLES

_TOKEN = re.compile(r"[^\W_]+(?:-[^\W_]+)*|[^\w\s]")
_PRONOUNS = frozenset(["dia", "ia", "beliau"])
# aspect words; "masih" is left out ("masih yang lama": still the old one)
_ASPECTS = frozenset(["sudah", "telah", "sedang", "akan", "belum"])
# meN- before a root, by the root's first letter: "k" and "t", "s", "p" drop their letter
_NASAL: tuple[tuple[str, str], ...] = (
    ("meng", ""),
    ("meng", "k"),
    ("men", "t"),
    ("meny", "s"),
    ("mem", "p"),
    ("mem", ""),
    ("men", ""),
    ("me", ""),
)


def indonesian_errors(sent: str, names: frozenset[str] = frozenset()) -> list[str]:
    """The grammar errors of one Indonesian sentence, each as the words at fault.

    `names` holds the lower-case names of the source and summary (a sentence's first
    capitalised words are a name only if listed there).
    """
    raw = _TOKEN.findall(sent)
    toks = [t.lower() for t in raw]
    out: list[str] = []
    for i, t in enumerate(toks):
        prev = toks[i - 1] if i > 0 else ""
        nxt = toks[i + 1] if i + 1 < len(toks) else ""
        if t == "nya" and prev.isalpha():
            out.append(f"{prev} nya")
        elif t == "oleh" and (nxt == "" or (not nxt.isalnum() and nxt not in ('"', "'", ":"))):
            out.append(f"{prev} oleh{nxt}")
        elif prev.isalpha() and t.isalpha() and _same_verb(prev, t):
            out.append(f"{prev} {t}")
        elif t == "yang" and prev in _ASPECTS and nxt.isalpha() and not _nominal(nxt):
            out.append(f"{prev} yang {nxt}")
    named = _named_subject(raw, names)
    if named:
        out.append(named)
    return out


def _nominal(w: str) -> bool:
    """A superlative or an ordinal: "yang terbaik", "yang paling", "yang kedua"."""
    return w.startswith(("ter", "ke")) or w in ("paling", "pertama", "lain", "sama")


def _roots(active: str) -> set[str]:
    """The roots a "meN-" word may come from ("mengabari": "abari", "kabari")."""
    out: set[str] = set()
    for prefix, letter in _NASAL:
        if active.startswith(prefix) and len(active) - len(prefix) >= 3:
            out.add(letter + active[len(prefix) :])
    return out


def _same_verb(a: str, b: str) -> bool:
    """Two forms of one verb side by side: "mengabari dikabari", "selesai menyelesaikan"."""
    if a.startswith("di") and b.startswith("me"):
        a, b = b, a
    if a.startswith("me") and b.startswith("di") and len(b) > 4:
        return b[2:] in _roots(a)  # active and passive of one root
    if b.startswith("me") and b.endswith(("kan", "i")) and len(a) >= 4:
        stem = b[:-3] if b.endswith("kan") else b[:-1]
        return a in _roots(stem)  # a root and its transitive form
    return False


def _named_subject(raw: list[str], names: frozenset[str]) -> str:
    """A sentence opening with a name then a pronoun for it ("Mas Andi dia ..."), or ""."""
    k = 0
    while k < len(raw) and raw[k].lower().rstrip(".") in TITLES:
        k += 1
    start = k
    while k < len(raw) and raw[k][:1].isupper() and raw[k].lower() in names:
        k += 1
    if k == start or k >= len(raw) - 1 or raw[k].lower() not in _PRONOUNS:
        return ""
    return " ".join(raw[: k + 1])
