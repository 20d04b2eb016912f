"""Escaping and highlighting: untrusted text becomes HTML with some passages marked."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

__all__ = ["QUOTED", "Span", "esc", "find", "fragments", "render_spans"]

QUOTED = re.compile(r"\"([^\"]{6,})\"")
_ELLIPSIS = re.compile(r"\s*(?:\.\.\.|…)\s*")

Span = tuple[int, int, str, str, str]  # start, end, css class, title, element id


def esc(value: object) -> str:
    """HTML-escaped text (quotes included, so it is safe inside attributes too)."""
    return html.escape("" if value is None else str(value), quote=True)


def fragments(quote: str) -> list[str]:
    """The parts of a quote worth finding: surrounding quotes dropped, split at ellipses."""
    stripped = quote.strip().strip("\"'“”‘’").strip()
    return [f.strip(" .,;:") for f in _ELLIPSIS.split(stripped) if len(f.strip(" .,;:")) >= 3]


def find(text: str, fragment: str) -> tuple[int, int] | None:
    """Where `fragment` occurs in `text` as whole words, ignoring case, spacing and quotes.

    A fragment that starts (ends) with a letter or digit must start (end) at a word
    boundary, so "Selama" is not found inside "Selamat"; "word" is Unicode-aware.
    """
    words = fragment.split()
    if not words:
        return None
    pattern = r"\s+".join(_word_pattern(w) for w in words)
    if re.match(r"\w", words[0]):
        pattern = r"(?<!\w)" + pattern
    if re.search(r"\w$", words[-1]):
        pattern += r"(?!\w)"
    match = re.search(pattern, text, flags=re.IGNORECASE)
    return (match.start(), match.end()) if match else None


def _word_pattern(word: str) -> str:
    out = []
    for ch in word:
        if ch in "'‘’":
            out.append("['‘’]")
        elif ch in '"“”':
            out.append('["“”]')
        else:
            out.append(re.escape(ch))
    return "".join(out)


def render_spans(text: str, spans: Sequence[Span]) -> str:
    """`text` escaped, with each span wrapped in `<mark>` (overlaps: the first wins)."""
    chosen: list[Span] = []
    for span in sorted(spans, key=lambda s: (s[0], -(s[1] - s[0]))):
        if chosen and span[0] < chosen[-1][1]:
            continue  # overlapping highlights: keep the first, longest one
        chosen.append(span)
    out, pos = [], 0
    for start, end, cls, title, anchor in chosen:
        out.append(esc(text[pos:start]))
        ident = f' id="{esc(anchor)}"' if anchor else ""
        out.append(f'<mark class="{cls}"{ident} title="{esc(title)}">{esc(text[start:end])}</mark>')
        pos = end
    out.append(esc(text[pos:]))
    return "".join(out)
