"""A small Markdown renderer of our own, for summaries: untrusted text in, safe HTML out.

Understood: ATX headings (`# ...`), bullet (`-`, `*`, `+`) and numbered (`1.`, `1)`)
lists, nested by indentation; pipe tables with a `|---|:---:|` delimiter row; `**bold**`,
`__bold__`, `*italic*`, `_italic_` and `` `code` ``; backslash escapes. Everything else,
raw HTML and links included, stays text: every character of the input reaches the page
through `esc`, so no tag, attribute or `javascript:` URL can come from the summary.

Offsets are kept throughout, so highlight spans computed on the raw text (`_text.find`)
are marked in the rendered text too (cut where formatting markers interrupt them).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .highlight import Span, choose_spans, marked

__all__ = ["render_markdown"]

_HEADING = re.compile(r" {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_ITEM = re.compile(r"( *)(?:([-*+])|(\d{1,9})[.)])[ \t]+(?=\S)")
_DELIMITER_ROW = re.compile(r"\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")
_PUNCT = frozenset("\\`*_{}[]()#+-.!|<>~\"'")

Line = tuple[int, int]  # start and end offsets of one line (without its line break)


def render_markdown(text: str, spans: Sequence[Span] = ()) -> str | None:
    """`text` as HTML, or `None` when it uses no Markdown beyond paragraphs.

    Args:
        text: The summary (untrusted).
        spans: Highlights as offsets into `text` (see `_text.render_spans`).
    """
    return _Renderer(text, choose_spans(spans)).render()


class _Renderer:
    def __init__(self, text: str, spans: Sequence[Span]) -> None:
        self.text = text
        self.spans = spans
        self.lines: list[Line] = []
        pos = 0
        for raw in text.splitlines(keepends=True):
            body = raw.rstrip("\r\n")
            self.lines.append((pos, pos + len(body)))
            pos += len(raw)
        self.used = False  # whether any construct beyond a paragraph was found

    def line(self, k: int) -> str:
        start, end = self.lines[k]
        return self.text[start:end]

    def render(self) -> str | None:
        out: list[str] = []
        k, n = 0, len(self.lines)
        while k < n:
            line = self.line(k)
            if not line.strip():
                k += 1
            elif heading := _HEADING.match(line):
                start = self.lines[k][0]
                level = min(len(heading.group(1)) + 3, 6)
                body = self.inline(start + heading.start(2), start + heading.end(2))
                out.append(f'<h{level} class="md">{body}</h{level}>')
                self.used = True
                k += 1
            elif self.table_starts(k):
                k = self.table(k, out)
            elif _ITEM.match(line):
                k = self.bullets(k, out)
            else:
                k = self.paragraph(k, out)
        return "".join(out) if self.used else None

    # --- blocks -----------------------------------------------------------------------

    def starts_block(self, k: int) -> bool:
        line = self.line(k)
        return (
            not line.strip()
            or bool(_HEADING.match(line) or _ITEM.match(line))
            or self.table_starts(k)
        )

    def paragraph(self, k: int, out: list[str]) -> int:
        parts = [self.inline_line(k)]
        k += 1
        while k < len(self.lines) and not self.starts_block(k):
            parts.append(self.inline_line(k))
            k += 1
        out.append(f"<p>{'<br>'.join(parts)}</p>")
        return k

    def bullets(self, k: int, out: list[str]) -> int:
        stack: list[tuple[int, str]] = []  # (indent, tag) of the open lists
        self.used = True
        while k < len(self.lines):
            line = self.line(k)
            item = _ITEM.match(line)
            if item is None:
                if not line.strip() or self.starts_block(k):
                    break
                out.append(f"<br>{self.inline_line(k)}")  # continuation of the item
                k += 1
                continue
            indent = len(item.group(1))
            tag = "ul" if item.group(2) else "ol"
            while stack and (indent < stack[-1][0] or (indent == stack[-1][0]
                                                       and tag != stack[-1][1])):  # fmt: skip
                out.append(f"</li></{stack.pop()[1]}>")
            if not stack or indent > stack[-1][0]:
                first = int(item.group(3)) if item.group(3) else 1
                start = f' start="{first}"' if tag == "ol" and first != 1 else ""
                out.append(f'<{tag} class="md"{start}>')
                stack.append((indent, tag))
            else:
                out.append("</li>")
            begin = self.lines[k][0]
            out.append(f"<li>{self.inline(begin + item.end(), self.lines[k][1])}")
            k += 1
        while stack:
            out.append(f"</li></{stack.pop()[1]}>")
        return k

    def table_starts(self, k: int) -> bool:
        if k + 1 >= len(self.lines) or "|" not in self.line(k):
            return False
        delimiter = self.line(k + 1)
        return "-" in delimiter and "|" in delimiter and bool(_DELIMITER_ROW.match(delimiter))

    def table(self, k: int, out: list[str]) -> int:
        self.used = True
        header = self.cells(k)
        aligns = []
        for cell in self.line(k + 1).strip().strip("|").split("|"):
            cell = cell.strip()
            aligns.append(
                "center"
                if cell.startswith(":") and cell.endswith(":")
                else "right"
                if cell.endswith(":")
                else "left"
                if cell.startswith(":")
                else ""
            )
        width = len(header)
        aligns = (aligns + [""] * width)[:width]

        def row(cells: list[Line], tag: str) -> str:
            cells = (cells + [(0, 0)] * width)[:width]
            return "<tr>" + "".join(
                f"<{tag}"
                + (f' style="text-align:{align}"' if align else "")
                + f">{self.inline(s, e)}</{tag}>"
                for (s, e), align in zip(cells, aligns, strict=True)
            ) + "</tr>"  # fmt: skip

        body = []
        k += 2
        while k < len(self.lines) and self.line(k).strip() and "|" in self.line(k):
            body.append(row(self.cells(k), "td"))
            k += 1
        out.append(
            f'<table class="md"><thead>{row(header, "th")}</thead>'
            f"<tbody>{''.join(body)}</tbody></table>"
        )
        return k

    def cells(self, k: int) -> list[Line]:
        start, end = self.lines[k]
        bars = [start - 1]
        for pos in range(start, end):
            if self.text[pos] == "|" and (pos == start or self.text[pos - 1] != "\\"):
                bars.append(pos)
        bars.append(end)
        ranges = [(bars[j] + 1, bars[j + 1]) for j in range(len(bars) - 1)]
        line = self.text[start:end]
        if line.lstrip().startswith("|"):
            ranges = ranges[1:]
        if line.rstrip().endswith("|") and ranges:
            ranges = ranges[:-1]
        return [self.trim(s, e) for s, e in ranges]

    def trim(self, start: int, end: int) -> Line:
        while start < end and self.text[start].isspace():
            start += 1
        while end > start and self.text[end - 1].isspace():
            end -= 1
        return start, end

    # --- inline -----------------------------------------------------------------------

    def inline_line(self, k: int) -> str:
        return self.inline(*self.trim(*self.lines[k]))

    def inline(self, start: int, end: int) -> str:
        text, out, plain, i = self.text, [], start, start

        def flush(upto: int) -> None:
            if upto > plain:
                out.append(marked(text, plain, upto, self.spans))

        while i < end:
            ch = text[i]
            if ch == "\\" and i + 1 < end and text[i + 1] in _PUNCT:
                flush(i)
                out.append(marked(text, i + 1, i + 2, self.spans))
                i += 2
                plain = i
                continue
            if ch == "`":
                run = _run(text, i, end, "`")
                close = _find_run(text, i + run, end, "`", run)
                if close is not None and close > i + run:
                    flush(i)
                    out.append(f"<code>{marked(text, i + run, close, self.spans)}</code>")
                    self.used = True
                    i = plain = close + run
                    continue
                i += run
                continue
            if ch in "*_":
                run = _run(text, i, end, ch)
                for width, tag in ((2, "strong"), (1, "em")):
                    if run < width:
                        continue
                    close = _closing(text, i, end, ch, width)
                    if close is not None:
                        flush(i)
                        out.append(f"<{tag}>{self.inline(i + width, close)}</{tag}>")
                        self.used = True
                        i = plain = close + width
                        break
                else:
                    i += run
                continue
            i += 1
        flush(end)
        return "".join(out)


def _run(text: str, i: int, end: int, ch: str) -> int:
    n = 0
    while i + n < end and text[i + n] == ch:
        n += 1
    return n


def _find_run(text: str, start: int, end: int, ch: str, length: int) -> int | None:
    i = start
    while i < end:
        if text[i] == ch:
            run = _run(text, i, end, ch)
            if run == length:
                return i
            i += run
        else:
            i += 1
    return None


def _closing(text: str, opener: int, end: int, ch: str, width: int) -> int | None:
    """Where the emphasis opened by `width` times `ch` at `opener` closes, if it does."""
    inner = opener + width
    if inner >= end or text[inner].isspace():
        return None
    if ch == "_" and opener > 0 and text[opener - 1].isalnum():
        return None  # snake_case stays as it is
    i = inner + 1
    while i < end:
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == "`":  # code spans are opaque
            run = _run(text, i, end, "`")
            close = _find_run(text, i + run, end, "`", run)
            i = i + run if close is None else close + run
            continue
        if text[i] == ch:
            run = _run(text, i, end, ch)
            after = i + run
            boundary = ch == "*" or after >= end or not text[after].isalnum()
            if not text[i - 1].isspace() and boundary and (run == width or run >= 3):
                return i if run == width else i + run - width
            i += run
            continue
        i += 1
    return None
