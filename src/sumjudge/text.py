r"""Plain-text helpers shared across sumjudge: sentences, transcript turns, control characters.

This is a leaf module: it imports only the standard library, so any part of the package
(the offline judge, autoevaluation, long-document chunking, reports) can use it without
creating an import cycle.

Example:
    >>> [s.text for s in split_sentences("Mr. Lee left. He came back!")]
    ['Mr. Lee left.', 'He came back!']
    >>> parse_turn_line("[00:01:12] Rina (PM): Let's start.")
    TurnLine(speaker='Rina', text="Let's start.", role='PM', timestamp='00:01:12')
    >>> strip_control("\x1b[31mred\x1b[0m\x00 bell\x07")
    'red bell'
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = [
    "Sentence",
    "TurnLine",
    "TurnSpan",
    "find_turns",
    "parse_turn_line",
    "parse_turns",
    "split_sentences",
    "strip_control",
]

# --- control characters ----------------------------------------------------------------------

# ANSI escape sequences: CSI ("ESC [ ... final"), OSC ("ESC ] ... BEL" or "ESC ] ... ESC \\"),
# and the two-character escapes ("ESC c", "ESC 7"); the C1 form of CSI (U+009B) as well.
_ANSI = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x1b[ -/]*[0-~]"
)
# C0 controls except tab and line feed, DEL and the C1 controls; CR is handled apart.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_ANY_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def strip_control(text: str) -> str:
    r"""`text` without terminal escapes and control characters; unchanged if it has none.

    ANSI escape sequences (colours, cursor moves, OSC titles and links) are removed whole;
    NUL, BEL, backspace, form feed, vertical tab, ESC, DEL and the C1 controls are removed;
    a carriage return ("\r\n" or a lone "\r") becomes a line feed. Tabs and line feeds
    stay, so markdown and transcripts keep their layout.

    Args:
        text: Any text, e.g. a source, a summary or a transcript turn.

    Returns:
        The cleaned text (the same object when there was nothing to remove).
    """
    if not _ANY_CONTROL.search(text):
        return text
    text = _ANSI.sub("", text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROL.sub("", text)


# --- sentences -------------------------------------------------------------------------------

# A sentence ends at ., ! or ? (optionally followed by closing quotes or a bracket) when
# whitespace and the start of a new word follow; a line break always ends one.
_SENT_SPLIT = re.compile(r"(?<=[.!?])[\"'”’)]*\s+(?=[\"'“(]?[A-Z0-9a-z])|\n+")
# A full stop after one of these is an abbreviation, not a sentence end ("Mr. Smith",
# "v. Stiviano", "U.S. officials", "Jan. 5").
_ABBREV = re.compile(
    r"(?:^|[\s(])(?:[A-Za-z]|Mr|Mrs|Ms|Dr|Prof|St|Jr|Sr|vs|etc|No|U\.S|U\.K|Jan|Feb|Aug|Sept|Oct|"
    r"Nov|Dec|Inc|Ltd|Co|Gen|Sen|Rep|Gov|Bpk|Ibu|Sdr)\.$"
)


class Sentence(NamedTuple):
    """One sentence: its verbatim text and where it lies (`text == source[start:end]`)."""

    text: str
    start: int
    end: int


def split_sentences(text: str) -> list[Sentence]:
    """Split text into sentences with character offsets.

    Sentences are trimmed of surrounding whitespace; pieces without any letter or digit
    (stray punctuation, bullets) are dropped, so the sentences need not cover all of `text`.

    Args:
        text: Any prose; line breaks always end a sentence.

    Returns:
        The sentences in order, each a verbatim span of `text`.
    """
    out: list[Sentence] = []
    pos = 0
    for m in _SENT_SPLIT.finditer(text):
        # Only the few characters before the stop can hold an abbreviation (the longest,
        # " Sept.", is 6): searching from 0 made splitting quadratic in the text's length.
        if _ABBREV.search(text, max(0, m.start() - 8), m.start()) and "\n" not in m.group(0):
            continue
        _add_span(text, pos, m.start(), out)
        pos = m.end()
    _add_span(text, pos, len(text), out)
    return out


def _add_span(text: str, a: int, b: int, out: list[Sentence]) -> None:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    if b > a and any(c.isalnum() for c in text[a:b]):
        out.append(Sentence(text[a:b], a, b))


# --- transcript turns ------------------------------------------------------------------------

# "[00:12:05]", "00:12:05" or "00:12" before the speaker
_TIMESTAMP = r"\[?(?P<timestamp>\d{1,2}:\d{2}(?::\d{2})?)\]?"
# Inside running text a speaker must look like a name (capitalised, at most three words):
# "Note:" at the end of a sentence or "Total: 5" would otherwise start turns.
_NAME = r"(?P<speaker>[A-Z][\w.'\-]*(?: [A-Z0-9][\w.'\-]*){0,2})"
_ROLE = r"\((?P<role>[^()\n]{1,40})\)"
# A turn starts at the text start, at a line start, or after " . " (one-line chats).
_TURN_HEAD = rf"\s*(?:{_TIMESTAMP}\s+)?{_NAME}(?: {_ROLE})?:\s"
_FIRST_TURN = re.compile(_TURN_HEAD)  # at the text start (`match`)
# The later ones: both alternatives start with a literal character, so the regex engine
# skips ahead to the next line break or full stop instead of trying every position.
_TURN_START = re.compile(rf"(?:\n|\.(?<=\s\.)\s+){_TURN_HEAD}")
# On a line of its own the speaker may be any short label ("agent", "Customer Service").
_TURN_LINE = re.compile(
    rf"^\s*(?:{_TIMESTAMP}\s+)?(?P<speaker>[A-Za-z][\w .'-]{{0,40}}?)(?:\s*{_ROLE})?"
    r"\s*:\s+(?P<text>\S.*)$"
)


class TurnSpan(NamedTuple):
    """One turn found in a transcript, located in it.

    Attributes:
        speaker: The speaker's name as written ("Rina").
        text: The verbatim turn from the speaker's name on, without a leading timestamp
            ("Rina (PM): Let's start."); `text == transcript[start:end]`.
        start: Offset of the speaker's name in the transcript.
        end: Offset just past the turn's last non-space character.
        role: The role in brackets after the name ("PM"), or None.
        timestamp: The leading timestamp without brackets ("00:01:12"), or None.
        body: What was said, without the "Speaker (Role):" head.
    """

    speaker: str
    text: str
    start: int
    end: int
    role: str | None
    timestamp: str | None
    body: str


class TurnLine(NamedTuple):
    """One transcript line split into its parts (see `parse_turn_line`)."""

    speaker: str
    text: str
    role: str | None
    timestamp: str | None


def find_turns(text: str) -> list[TurnSpan]:
    """Every "Speaker: text" turn in a transcript, whether or not it reads as a dialogue.

    A turn starts at a line start (or after " . " in one-line chats) with an optional
    timestamp and a capitalised name of up to three words, optionally followed by a role in
    brackets, then a colon and whitespace; it runs to the next turn. A trailing " ." (the
    separator of one-line chats) is not part of the turn.

    Args:
        text: The transcript.

    Returns:
        The turns in order; empty when there are none.
    """
    first = _FIRST_TURN.match(text)
    starts = [first] if first else []
    starts += _TURN_START.finditer(text, first.end() if first else 0)
    turns: list[TurnSpan] = []
    for i, m in enumerate(starts):
        a = m.start("speaker")
        b = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        seg = text[a:b].rstrip()
        if seg.endswith(" ."):
            seg = seg[:-2].rstrip()
        body = seg[m.end() - a :].strip()
        turns.append(
            TurnSpan(
                m.group("speaker"), seg, a, a + len(seg), m.group("role"), m["timestamp"], body
            )
        )
    return turns


def parse_turns(text: str) -> list[TurnSpan] | None:
    """The turns of a dialogue transcript, or None when the text is not a dialogue.

    The text counts as a dialogue when `find_turns` finds at least three turns covering
    at least 60% of it, by at most max(12, half the number of turns) speakers; otherwise
    the "turns" are more likely labels inside prose ("Update: ...").

    Args:
        text: The candidate transcript.

    Returns:
        The turns, as `find_turns` gives them, or None.
    """
    turns = find_turns(text)
    if len(turns) < 3:
        return None
    covered = sum(t.end - t.start for t in turns)
    speakers = {t.speaker for t in turns}
    if covered < 0.6 * len(text.strip()) or len(speakers) > max(12, len(turns) // 2):
        return None
    return turns


def parse_turn_line(line: str) -> TurnLine | None:
    """Split one transcript line into speaker, role, timestamp and text.

    Accepts "Speaker: text", "Name (Role): text" and either after a timestamp
    ("[00:01:12] Agent: Hello"). On a line of its own the speaker may be any label of
    letters, digits, spaces, dots, apostrophes and hyphens up to 41 characters, starting
    with a letter (lower-case "agent:" included), unlike `find_turns`.

    Args:
        line: One line, without its line break.

    Returns:
        The parts (text and role stripped; a blank role is None), or None when the line
        has no "Speaker:" head.
    """
    m = _TURN_LINE.match(line)
    if m is None:
        return None
    role = (m["role"] or "").strip() or None  # "Tom ( ):" has no role
    return TurnLine(m["speaker"], m["text"].strip(), role, m["timestamp"])
