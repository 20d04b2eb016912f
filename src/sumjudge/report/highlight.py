"""Escaping and highlighting: untrusted text becomes HTML with some passages marked."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

__all__ = [
    "QUOTED",
    "Span",
    "choose_spans",
    "clean",
    "esc",
    "find",
    "fragments",
    "marked",
    "render_spans",
    "short_labels",
]

QUOTED = re.compile(r"\"([^\"]{6,})\"")
_ELLIPSIS = re.compile(r"\s*(?:\.\.\.|…)\s*")
# Terminal escape sequences (CSI such as colours, OSC such as titles, other two-byte ones),
# then any other C0/C1 control character but tab, newline and carriage return, and lone
# surrogates (which cannot even be written as UTF-8).
_ANSI = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x9b[0-?]*[ -/]*[@-~]"  # CSI
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC
    r"|\x1b[@-Z\\-_]"  # other escapes
)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")

Span = tuple[int, int, str, str, str]  # start, end, css class, title, element id


def clean(text: str) -> str:
    """`text` without terminal escape sequences and control characters (tab, newline kept).

    Lone surrogates become U+FFFD. Texts in records are untrusted: a NUL, a BEL or an ANSI
    colour code has no business in the report.
    """
    if text.isprintable():
        return text
    return _SURROGATE.sub("\ufffd", _CONTROL.sub("", _ANSI.sub("", text)))


def esc(value: object) -> str:
    """HTML-escaped text (quotes included, so it is safe inside attributes too).

    Control characters and terminal escape sequences are removed first (see `clean`).
    """
    return html.escape(clean("" if value is None else str(value)), quote=True)


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
    return marked(text, 0, len(text), choose_spans(spans))


def choose_spans(spans: Sequence[Span]) -> list[Span]:
    """`spans` sorted by start, without overlaps (the first, longest one wins)."""
    chosen: list[Span] = []
    for span in sorted(spans, key=lambda s: (s[0], -(s[1] - s[0]))):
        if chosen and span[0] < chosen[-1][1]:
            continue  # overlapping highlights: keep the first, longest one
        chosen.append(span)
    return chosen


def marked(text: str, start: int, end: int, chosen: Sequence[Span]) -> str:
    """`text[start:end]` escaped, with the parts of `chosen` spans inside it marked.

    `chosen` must be sorted and free of overlaps (`choose_spans`). A span that crosses
    `start` or `end` is cut there; its element id goes on the piece holding its start.
    """
    out, pos = [], start
    for s, e, cls, title, anchor in chosen:
        s, e, first = max(s, start), min(e, end), s >= start
        if s >= e:
            continue
        out.append(esc(text[pos:s]))
        ident = f' id="{esc(anchor)}"' if anchor and first else ""
        out.append(f'<mark class="{cls}"{ident} title="{esc(title)}">{esc(text[s:e])}</mark>')
        pos = e
    out.append(esc(text[pos:end]))
    return "".join(out)


def short_labels(values: Sequence[str], limit: int = 36, head: int = 12) -> dict[str, str]:
    """A display label per value: whole when short, else head + "…" + a distinguishing tail.

    Values longer than `limit` keep their first `head` characters and as long a tail as it
    takes for every label to stay distinct (ids often differ only at the end, as in
    `...-M0` and `...-M1`); a value that cannot be told apart that way is shown whole.
    """
    distinct = list(dict.fromkeys(values))
    tails = {v: limit - head - 1 for v in distinct if len(v) > limit}

    def label(v: str) -> str:
        tail = tails.get(v)
        if tail is None or head + 1 + tail >= len(v):
            return v
        return f"{v[:head]}…{v[-tail:]}"

    while True:
        labels: dict[str, list[str]] = {}
        for v in distinct:
            labels.setdefault(label(v), []).append(v)
        clashing = [v for group in labels.values() if len(group) > 1 for v in group]
        grown = False
        for v in clashing:
            if v in tails and head + 1 + tails[v] < len(v):
                tails[v] += 1
                grown = True
        if not grown:
            return {v: label(v) for v in distinct}
