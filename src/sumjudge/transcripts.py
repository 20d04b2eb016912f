r"""Transcripts in the formats people have, brought to one normalised form.

Recognised formats (`detect_format`):

- ``webvtt``: a WebVTT file (first line ``WEBVTT``). Cue ids and timings are dropped;
  ``<v Speaker>text</v>`` voices and ``Speaker:`` prefixes become speakers; other tags
  (``<c>``, ``<i>``, ``<00:00:01.000>``...) are removed and entities unescaped; ``NOTE``,
  ``STYLE`` and ``REGION`` blocks are skipped.
- ``srt``: SubRip (numbered cues with ``00:00:01,000 --> 00:00:04,000`` timings),
  treated like WebVTT cues.
- ``json``: a JSON list of turns, ``[{"speaker"|"role"|"name": ..., "text": ...}]``
  (``"content"`` is accepted for the text).
- ``lines``: plain ``Speaker: text`` lines, with or without ``[00:01:02]`` timestamps.
- ``text``: anything else (prose).

The normalised form is a list of `TranscriptTurn` (speaker, text, timestamp), rendered by
`render_turns` as one ``Speaker: text`` line per turn. Consecutive cues of one speaker are
merged into one turn. `normalize_source` applies this to a summary's source: subtitle
files and JSON turn lists become ``Speaker: text`` lines, and everything else (prose,
``Speaker:`` lines, markdown) is returned unchanged.

This is a leaf module: it imports only the standard library and `sumjudge.text`.

Example:
    >>> print(normalize_source("WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.000\n<v Rina>Hi.</v>"))
    Rina: Hi.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any, Literal, NamedTuple

from .text import parse_turn_line

__all__ = [
    "TranscriptFormat",
    "TranscriptTurn",
    "detect_format",
    "normalize_source",
    "parse_transcript",
    "render_turns",
    "structured_format",
    "turns_from_json",
]

TranscriptFormat = Literal["webvtt", "srt", "json", "lines", "text"]


class TranscriptTurn(NamedTuple):
    """One turn of a normalised transcript.

    Attributes:
        speaker: Who speaks, as written ("Rina"); None when the source does not say.
        text: What was said, on one line (white space collapsed).
        timestamp: When the turn started, for ``Speaker:`` lines and JSON turns that give
            one; None for subtitle cues (their timings are dropped).
        role: The role in brackets after the name ("Rina (PM):") or a JSON turn's "role"
            next to its "name"/"speaker"; None otherwise.
    """

    speaker: str | None
    text: str
    timestamp: str | None = None
    role: str | None = None


_TIMING = re.compile(
    r"^\s*(?P<start>(?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3})\s*-->\s*(?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3}"
)
_SRT_TIMING = re.compile(r"^\s*\d+:\d{2}:\d{2},\d{1,3}\s*-->\s*\d+:\d{2}:\d{2},\d{1,3}")
_VOICE = re.compile(
    r"<v(?:\.[^\s>]*)?\s+(?P<speaker>[^>]*)>(?P<text>.*?)(?:</v>|(?=<v[\s.])|$)", re.S
)
_TAG = re.compile(r"</?[A-Za-z][^>]*>|<\d[\d:.]*>|\{\\[^}]*\}")
_SPACE = re.compile(r"\s+")
_SENTENCE_END = re.compile(r"[.!?…][\"'”’)\]]*$")
_SPEAKER_KEYS = ("speaker", "name", "role")
_TEXT_KEYS = ("text", "content")


def detect_format(text: str) -> TranscriptFormat:
    """The format of a transcript text (see the module docstring).

    Args:
        text: The transcript, as read from a file or a column.

    Returns:
        "webvtt", "srt", "json", "lines" (every non-blank line is a ``Speaker: text``
        turn, at least two of them) or "text".
    """
    fmt = structured_format(text)
    if fmt is not None:
        return fmt
    content = [line for line in text.splitlines() if line.strip()]
    if len(content) >= 2 and all(parse_turn_line(line) is not None for line in content):
        return "lines"
    return "text"


def structured_format(text: str) -> TranscriptFormat | None:
    """The format when it is "webvtt", "srt" or "json", else None.

    Cheaper than `detect_format`: prose is recognised from its first character.
    """
    head = text.lstrip("\ufeff \t\r\n")
    if not head or head[0] not in "W0123456789[":
        return None
    if re.match(r"WEBVTT(?:[ \t].*)?(?:\r?\n|$)", head):
        return "webvtt"
    lines = head.splitlines()
    if lines and (
        (lines[0].strip().isdigit() and len(lines) > 1 and _SRT_TIMING.match(lines[1]))
        or _SRT_TIMING.match(lines[0])
    ):
        return "srt"
    if head.startswith("[") and turns_from_json(head) is not None:
        return "json"
    return None


def _one_line(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def _cue_payload(lines: list[str]) -> list[tuple[str | None, str]]:
    """(speaker, text) pieces of one cue's payload lines."""
    payload = "\n".join(lines)
    pieces: list[tuple[str | None, str]] = []
    if "<v" in payload and _VOICE.search(payload):
        before = payload[: _VOICE.search(payload).start()]  # type: ignore[union-attr]
        if _one_line(html.unescape(_TAG.sub("", before))):
            pieces.extend(_prefixed(before))
        for m in _VOICE.finditer(payload):
            speaker = _one_line(html.unescape(_TAG.sub("", m["speaker"]))) or None
            body = _one_line(html.unescape(_TAG.sub("", m["text"])))
            if body:
                pieces.append((speaker, body))
        return pieces
    return _prefixed(payload)


def _prefixed(payload: str) -> list[tuple[str | None, str]]:
    """Lines of a cue without voices: a ``Speaker:`` (or "- Speaker:") head starts a piece."""
    pieces: list[tuple[str | None, str]] = []
    for raw in payload.splitlines():
        line = _one_line(html.unescape(_TAG.sub("", raw)))
        if not line:
            continue
        if line.startswith(("- ", "– ")):
            line = line[2:].strip()
        parsed = parse_turn_line(line)
        if parsed is not None:
            pieces.append((parsed.speaker, parsed.text))
        elif pieces:
            speaker, text = pieces[-1]
            pieces[-1] = (speaker, f"{text} {line}")
        else:
            pieces.append((None, line))
    return pieces


def _cues(text: str, fmt: TranscriptFormat) -> list[TranscriptTurn]:
    blocks = re.split(r"\n[ \t]*\n", text.replace("\r\n", "\n").replace("\r", "\n"))
    turns: list[TranscriptTurn] = []
    for i, block in enumerate(blocks):
        lines = [line for line in block.split("\n") if line.strip()]
        if not lines:
            continue
        if fmt == "webvtt" and (
            (i == 0 and lines[0].lstrip("\ufeff").startswith("WEBVTT"))
            or re.match(r"(NOTE|STYLE|REGION)(?:\s|$)", lines[0])
        ):
            continue
        timing = next((n for n, line in enumerate(lines[:2]) if _TIMING.match(line)), None)
        if timing is None:
            continue  # not a cue (stray text between cues)
        for speaker, body in _cue_payload(lines[timing + 1 :]):
            _add(turns, speaker, body)
    return turns


def _add(turns: list[TranscriptTurn], speaker: str | None, text: str) -> None:
    """Append a cue's piece, merged into the previous turn when the same speaker goes on.

    Cues without a speaker are merged until one ends a sentence, so a subtitle file
    without voices reads as lines of whole sentences.
    """
    if turns and turns[-1].speaker == speaker:
        last = turns[-1]
        if speaker is not None or not _SENTENCE_END.search(last.text):
            turns[-1] = last._replace(text=f"{last.text} {text}")
            return
    turns.append(TranscriptTurn(speaker, text))


def turns_from_json(value: Any) -> list[TranscriptTurn] | None:
    """The turns of a JSON turn list (text or parsed), or None when it is not one.

    A turn list is a non-empty list of objects, each with a text ("text" or "content")
    and, optionally, "speaker", "name", "role" and "timestamp". The speaker is the first
    of "speaker", "name" and "role"; a "role" next to a name is kept as the role.

    Args:
        value: The JSON text, or the already parsed value.

    Returns:
        The turns, or None.
    """
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            return None
    if not isinstance(value, list) or not value:
        return None
    turns: list[TranscriptTurn] = []
    for entry in value:
        if not isinstance(entry, dict):
            return None
        text = next((entry[k] for k in _TEXT_KEYS if isinstance(entry.get(k), str)), None)
        if text is None:
            return None
        speaker = next(
            (str(entry[k]).strip() for k in _SPEAKER_KEYS if entry.get(k) not in (None, "")),
            None,
        )
        role = entry.get("role")
        role = (
            str(role).strip() if role not in (None, "") and str(role).strip() != speaker else None
        )
        stamp = entry.get("timestamp")
        turns.append(
            TranscriptTurn(
                speaker, _one_line(text), None if stamp in (None, "") else str(stamp), role
            )
        )
    return turns


def parse_transcript(text: str) -> list[TranscriptTurn] | None:
    """The turns of a WebVTT, SRT, JSON-turn-list or ``Speaker:``-lines transcript.

    Args:
        text: The transcript text.

    Returns:
        The turns in order, or None for prose (format "text").
    """
    fmt = detect_format(text)
    if fmt in ("webvtt", "srt"):
        return _cues(text, fmt)
    if fmt == "json":
        return turns_from_json(text.lstrip("\ufeff"))
    if fmt == "lines":
        out = []
        for line in text.splitlines():
            parsed = parse_turn_line(line)
            if parsed is not None:
                out.append(
                    TranscriptTurn(parsed.speaker, parsed.text, parsed.timestamp, parsed.role)
                )
        return out
    return None


def render_turns(turns: list[TranscriptTurn]) -> str:
    """One ``Speaker: text`` line per turn (``Name (Role): text`` with a role; timings dropped).

    A turn without a speaker is its text alone.
    """
    lines = []
    for t in turns:
        if t.speaker is None:
            lines.append(t.text)
        elif t.role:
            lines.append(f"{t.speaker} ({t.role}): {t.text}")
        else:
            lines.append(f"{t.speaker}: {t.text}")
    return "\n".join(lines)


def normalize_source(text: str) -> str:
    """A source text with subtitle and JSON-turn formats rendered as ``Speaker: text`` lines.

    WebVTT, SRT and JSON turn lists are parsed (`parse_transcript`) and rendered
    (`render_turns`); any other text, ``Speaker:`` lines and markdown included, is returned
    unchanged (the same string), as is a subtitle file without any cue text.

    Args:
        text: A source, as read from a file or a column.

    Returns:
        The text the judges are given.
    """
    if structured_format(text) is None:
        return text
    turns = parse_transcript(text)
    return render_turns(turns) if turns else text
