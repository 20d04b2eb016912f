"""Source passages (sentences or dialogue turns), who is speaking to whom, and role swaps."""

from __future__ import annotations

import re

import numpy as np

from ..text import parse_turns
from .embed import Embedder, FloatArray
from .lexicon import FIRST_PERSON, SECOND_PERSON
from .records import SentenceInfo, SourceInfo, Unit
from .text import sentences

# The words `_resolve` may rewrite (only these reach its callback: linear and fast).
_PERSON = re.compile(
    r"\b(?:"
    + "|".join(re.escape(w) for w in sorted(FIRST_PERSON | SECOND_PERSON, key=len, reverse=True))
    + r"|(?:i|we|you)['’][a-z]+)(?:['’][a-z]+)?\b",
    re.IGNORECASE,
)
# How far to look for the addressee of a turn in a meeting (turns before and after).
_NEAR = 50


def source_units(source: str) -> tuple[list[Unit], bool]:
    """Split a source into units (turns for dialogues, sentences otherwise).

    Returns:
        The units and whether the source is a dialogue. In a dialogue each unit's
        `resolved` text has "I"/"you" rewritten to the speaker's and the addressee's names.
    """
    turns = parse_turns(source)
    if turns is None:
        return [Unit(s, a, b, "", s) for s, a, b in sentences(source)], False
    speakers = list(dict.fromkeys(t.speaker for t in turns))
    vocative = _vocative_pattern(speakers)
    by_first: dict[str, list[str]] = {}
    for name in speakers:
        by_first.setdefault(name.split()[0], []).append(name)
    units: list[Unit] = []
    for i, turn in enumerate(turns):
        spk = turn.speaker
        addressee = _vocative(turn.body, spk, vocative, by_first)
        if addressee:
            pass  # "Wulan, please prepare ...": the person named is the one addressed
        elif len(speakers) == 2:
            addressee = speakers[1] if spk == speakers[0] else speakers[0]
        else:  # the nearest other speaker (looking a bounded distance: linear time)
            near = [*range(i - 1, max(-1, i - 1 - _NEAR), -1), *range(i + 1, i + 1 + _NEAR)]
            for j in (j for j in near if j < len(turns)):
                if turns[j].speaker != spk:
                    addressee = turns[j].speaker
                    break
        resolved = f"{spk}: {_resolve(turn.body, spk, addressee)}"
        units.append(Unit(turn.text, turn.start, turn.end, spk, resolved))
    return units, True


def _resolve(body: str, speaker: str, addressee: str) -> str:
    def sub(m: re.Match[str]) -> str:
        w = m.group(0).lower().replace("’", "'")
        if w in FIRST_PERSON or w.split("'")[0] in {"i", "we"}:
            return speaker
        if addressee and (w in SECOND_PERSON or w.split("'")[0] == "you"):
            return addressee
        return m.group(0)

    return _PERSON.sub(sub, body)


def _vocative_pattern(speakers: list[str]) -> re.Pattern[str]:
    """One pattern for a speaker's first name used as a vocative ("Wulan, ...", ", Tom.")."""
    firsts = sorted({s.split()[0] for s in speakers}, key=len, reverse=True)
    alternatives = "|".join(re.escape(f) for f in firsts) or "(?!)"
    return re.compile(rf"(?:^|[.!?]\s+|,\s*)({alternatives})\s*[,.!?]")


def _vocative(
    body: str, speaker: str, pattern: re.Pattern[str], by_first: dict[str, list[str]]
) -> str:
    """The other speaker addressed by name in a turn, or "" when none or several are.

    "Wulan, tolong ..." and "Thanks, Tom." address Wulan and Tom. `by_first` maps a first
    name to the speakers who have it.
    """
    firsts = {m.group(1) for m in pattern.finditer(body)}
    found = [o for f in firsts for o in by_first.get(f, []) if o != speaker]
    return found[0] if len(found) == 1 else ""


def _swap_variants(sent: str, speakers: list[str]) -> list[str]:
    """The sentence with its two first speaker names exchanged.

    With only one speaker name, the sentence with that name replaced by each other speaker.
    """
    present = [n for n in speakers if re.search(rf"\b{re.escape(n)}\b", sent)]
    if len(present) >= 2:
        a, b = present[:2]
        pat = re.compile(rf"\b({re.escape(a)}|{re.escape(b)})\b")
        return [pat.sub(lambda m: b if m.group(0) == a else a, sent)]
    if len(present) == 1:
        pat = re.compile(rf"\b{re.escape(present[0])}\b")
        return [pat.sub(o, sent) for o in speakers if o != present[0]][:4]
    return []


def swap_check(
    infos: list[SentenceInfo], sims: FloatArray, info: SourceInfo, embedder: Embedder | None
) -> None:
    """Set each sentence's `swap_margin`: how much better it fits than with people exchanged.

    This is role contrast for dialogues: does the source (pronouns resolved to speaker
    names) fit the sentence better with the people exchanged? e5 barely moves when names
    swap, but the sign of the small difference is informative.
    """
    if embedder is None or info.emb_windows is None:
        return
    speakers = list(dict.fromkeys(u.speaker.split()[0] for u in info.units if u.speaker))
    variants = [_swap_variants(si.text, speakers) for si in infos]
    flat = [v for vs in variants for v in vs]
    if not flat:
        return
    alt = embedder.embed(flat) @ info.emb_windows.T
    k = 0
    for i, (si, vs) in enumerate(zip(infos, variants, strict=True)):
        if not vs:
            continue
        best_alt = alt[k : k + len(vs)].max(axis=1)
        j = int(np.argmax(best_alt))
        si.swap_margin = float(sims[i].max() - best_alt[j])
        si.swap_variant = vs[j]
        k += len(vs)
