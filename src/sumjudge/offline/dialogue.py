"""Source passages (sentences or dialogue turns), who is speaking to whom, and role swaps."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..text import TurnSpan, parse_turns
from .embed import Embedder, FloatArray
from .lexicon import FIRST_PERSON, SECOND_PERSON, word_set
from .mentions import pronoun_subjects
from .records import SentenceInfo, SourceInfo, Unit
from .text import sentences

# The words `_resolve` may rewrite (only these reach its callback: linear and fast).
# (The lookahead on the first letter only skips words that cannot match, twice as fast.)
_PERSON = re.compile(
    r"\b(?=["
    + "".join(
        re.escape(c) for c in sorted({w[0] for w in FIRST_PERSON | SECOND_PERSON} | {"i", "w", "y"})
    )
    + "])(?:"
    + "|".join(re.escape(w) for w in sorted(FIRST_PERSON | SECOND_PERSON, key=len, reverse=True))
    + r"|(?:i|we|you)['’][a-z]+)(?:['’][a-z]+)?\b",
    re.IGNORECASE,
)
# How far to look for the addressee of a turn in a meeting (turns before and after).
_NEAR = 50
ROLES = word_set("roles")


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
    roles: dict[tuple[str | None, str], str] = {}  # heads repeat: each read once
    units: list[Unit] = []
    for i, turn in enumerate(turns):
        spk = turn.speaker
        addressee = _vocative(turn.body, spk, vocative, by_first)
        if addressee:
            pass  # "Wulan, please prepare ...": the person named is the one addressed
        elif len(speakers) == 2:
            addressee = speakers[1] if spk == speakers[0] else speakers[0]
        else:  # the nearest other speaker (looking a bounded distance: linear time)
            addressee = _nearest_other(turns, i)
        resolved = f"{spk}: {_resolve(turn.body, spk, addressee)}"
        role = roles.get((turn.role, spk))
        if role is None:
            role = roles[turn.role, spk] = role_word(turn)
        units.append(Unit(turn.text, turn.start, turn.end, spk, resolved, role))
    return units, True


def role_word(turn: TurnSpan) -> str:
    """The role a summary may call the speaker by ("agent"), or "".

    From the label ("Dana (Support Agent):" -> "agent") or the name itself ("Agent:"), when
    it is a word of `words/roles.txt`.
    """
    for label in (turn.role or "", turn.speaker):
        last = label.lower().split()[-1:] or [""]
        if last[0] in ROLES:
            return last[0]
    return ""


@dataclass(frozen=True)
class Person:
    """A speaker as a summary may mention them: by first name, or as "the <role>"."""

    name: str
    role: str

    def pattern(self) -> str:
        """A regex alternative matching a mention (the role case-insensitively)."""
        alts = [rf"\b{re.escape(self.name)}\b"]
        if self.role:
            alts.append(rf"\b[Tt]he {re.escape(self.role)}\b")
        return "|".join(alts)

    def say(self, as_role: bool, capital: bool) -> str:
        """How to mention the person in place of a mention of the given kind."""
        if as_role and self.role:
            return ("The " if capital else "the ") + self.role
        return self.name


def people(units: list[Unit]) -> list[Person]:
    """The speakers of a dialogue, in order of appearance, with their role words."""
    seen: dict[str, Person] = {}
    for u in units:
        if u.speaker:
            first = u.speaker.split()[0]
            seen.setdefault(first, Person(first, u.role))
    return list(seen.values())


def _nearest_other(turns: list[TurnSpan], i: int) -> str:
    """The speaker of the nearest turn before, else after, turn `i` by someone else, or "".

    At most `_NEAR` turns each way; the nearest is nearly always the previous turn.
    """
    spk = turns[i].speaker
    for j in range(i - 1, max(-1, i - 1 - _NEAR), -1):
        if turns[j].speaker != spk:
            return turns[j].speaker
    for j in range(i + 1, min(len(turns), i + 1 + _NEAR)):
        if turns[j].speaker != spk:
            return turns[j].speaker
    return ""


def _resolve(body: str, speaker: str, addressee: str) -> str:
    def sub(m: re.Match[str]) -> str:
        w = m.group(0)
        kind = _PERSON_KINDS.get(w)
        if kind is None:
            kind = _person_kind(w)
        if kind == _FIRST:
            return speaker
        if kind == _SECOND and addressee:
            return addressee
        return w

    return _PERSON.sub(sub, body)


_FIRST, _SECOND, _OTHER = 1, 2, 0
# The kind of each "I"/"you" word as written, read once: a transcript repeats a few forms.
_PERSON_KINDS: dict[str, int] = {}


def _person_kind(written: str) -> int:
    w = written.lower().replace("’", "'")
    if w in FIRST_PERSON or w.split("'")[0] in {"i", "we"}:
        kind = _FIRST
    elif w in SECOND_PERSON or w.split("'")[0] == "you":
        kind = _SECOND
    else:
        kind = _OTHER
    if len(_PERSON_KINDS) > 10_000:  # bounded: contractions are open-ended ("you'd've")
        _PERSON_KINDS.clear()
    _PERSON_KINDS[written] = kind
    return kind


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
    if pattern.search(body) is None:  # most turns name nobody: one search, no iterator
        return ""
    firsts = {m.group(1) for m in pattern.finditer(body)}
    found = [o for f in firsts for o in by_first.get(f, []) if o != speaker]
    return found[0] if len(found) == 1 else ""


def _swap_variants(sent: str, persons: list[Person]) -> list[str]:
    """The sentence with its two first people exchanged.

    With only one person mentioned, the sentence with that person replaced by each other
    speaker. A person is mentioned by first name or, in calls, as "the <role>" ("the agent
    offered ..." against "the customer offered ...": who said it).
    """
    present = [p for p in persons if re.search(p.pattern(), sent)]
    if len(present) >= 2:
        return [_replace(sent, {present[0]: present[1], present[1]: present[0]})]
    if len(present) == 1:
        return [_replace(sent, {present[0]: o}) for o in persons if o != present[0]][:4]
    return []


def _replace(sent: str, swap: dict[Person, Person]) -> str:
    """The sentence with each mention of a key of `swap` made a mention of its value.

    A mention by role ("the agent") becomes a mention by role when the other person has
    one, else by name.
    """
    keys = list(swap)
    pat = re.compile("|".join(f"(?P<p{k}>{p.pattern()})" for k, p in enumerate(keys)))

    def sub(m: re.Match[str]) -> str:
        k = next(k for k in range(len(keys)) if m.group(f"p{k}"))
        text = m.group(0)
        return swap[keys[k]].say(text.lower().startswith("the "), text[:1].isupper())

    return pat.sub(sub, sent)


def swap_check(
    infos: list[SentenceInfo],
    sims: FloatArray,
    info: SourceInfo,
    embedder: Embedder | None,
    windows: FloatArray,
) -> None:
    """Set each sentence's `swap_margin`: how much better it fits than with people exchanged.

    This is role contrast for dialogues: does the source (pronouns resolved to speaker
    names) fit the sentence better with the people exchanged? `sims` are the cosines of the
    sentences as `with_names` writes them to the source windows of vectors `windows`. e5
    barely moves when names swap, but the sign of the small difference is informative.
    """
    if embedder is None:
        return
    persons = people(info.units)
    named = with_names([si.text for si in infos], persons)
    # "He will collect them from Lia" after "Sam wants ...": checked as "Sam will collect
    # them from Lia" against "Lia will collect them from Sam" (its own cosine is then that of
    # the resolved sentence, embedded with the variants)
    resolved = pronoun_subjects(named, [(p.name, p.pattern()) for p in persons])
    checked = [r if r is not None else n for r, n in zip(resolved, named, strict=True)]
    variants = [_swap_variants(t, persons) for t in checked]
    own = [t for t, r, vs in zip(checked, resolved, variants, strict=True) if r is not None and vs]
    flat = own + [v for vs in variants for v in vs]
    if not flat:
        return
    alt = embedder.embed(flat) @ windows.T
    k, o = len(own), 0
    for i, (si, vs) in enumerate(zip(infos, variants, strict=True)):
        if not vs:
            continue
        base = float(sims[i].max())
        if resolved[i] is not None:
            base = float(alt[o].max())
            o += 1
        best_alt = alt[k : k + len(vs)].max(axis=1)
        j = int(np.argmax(best_alt))
        si.swap_margin = base - float(best_alt[j])
        si.swap_variant = vs[j]
        k += len(vs)


def with_names(texts: list[str], persons: list[Person]) -> list[str]:
    """The texts with each role mention ("the agent") replaced by that speaker's name.

    The turns are embedded as "Dana: ...", so "the agent offered ..." is compared with them
    as "Dana offered ..." (`sims` of `swap_check` are those of these texts).
    """
    if not any(p.role for p in persons):
        return texts
    as_names = {p: Person(p.name, "") for p in persons if p.role}
    return [_replace(t, as_names) for t in texts]
