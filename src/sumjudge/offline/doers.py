"""Who is who in a transcript, as a summary names the people who do its tasks.

A summary names a speaker in more ways than the transcript's label does, and the owner
check (`owners`) must know them all, or a task given to the wrong person goes unseen:

- by the name in the label without its title: "Cllr Lowe:" is "Lowe" or "Cllr Lowe",
  "Pak Hasan (Pelanggan):" is "Hasan" or "Pak Hasan" (a summary may add or drop the title);
- by the name in brackets after a role label: "Agent (Nicola):" is "Nicola";
- by the name a speaker labelled by role gives themselves: "Agent: ... this is Gemma",
  "Customer: I'm Harriet Moss", "The name is Daniel Ferreira";
- in a call of two, by the name the other speaker greets or thanks them by: "Thanks, Dev.",
  "Thank you, Mr Ferreira", "Hi Tyler," (a name no speaker has);
- by role, when one speaker has it: "the agent", "the rep", "the customer", "the caller",
  "petugas", "pelanggan". Role words of one kind name the same speaker
  (`words/role_kinds.txt`: a call's agent is its "rep" and its "petugas"). In a call of two
  labelled by name, the agent is the one who opens it as agents do ("Thanks for calling
  ...", "How can I help?", "Alderbank fraud team, Oscar speaking",
  `words/service_openers.txt`), the other is the customer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .lexicon import STOP, TITLES, word_map, word_set

if TYPE_CHECKING:
    from .records import Unit

ROLE_KINDS = word_map("role_kinds")
_ROLES = word_set("roles") | frozenset(ROLE_KINDS)
# how a speaker gives their name ("this is Valerie", "my name is Aoife", "I'm Dana", "saya Nadia")
_INTRO = re.compile(
    r"\b(?:[Tt]his is|[Mm]y name is|[Mm]y name's|[Tt]he name is|[Tt]he name's|I'm|I am|[Ii]t's"
    r"|[Ss]aya|[Nn]ama saya)\s+([A-Z][a-z]+)\b"
)
_TITLE_ALTS = "|".join(re.escape(t) for t in sorted(TITLES, key=len, reverse=True))
# a title before a name ("Ms", "Dr.", "Pak"), any case
TITLE = rf"(?:(?i:{_TITLE_ALTS})\.?\s+)"
# a name the speaker greets or thanks the other by ("Thanks, Dev.", "Hi Tyler,")
_GREETED = re.compile(
    r"\b(?:[Tt]hanks|[Tt]hank you|[Hh]i|[Hh]ello|[Ss]orry|[Oo]kay|[Tt]erima kasih|[Hh]alo|[Bb]aik)"
    rf",?\s+{TITLE}?([A-Z][a-z]+)\s*[,.!?]"
)


_OPENER = re.compile(
    "|".join(re.escape(p) for p in sorted(word_set("service_openers"), key=len, reverse=True))
)


# an agent answering the phone: "Alderbank fraud team, Oscar speaking"
_SPEAKING = re.compile(r",\s+[A-Z][a-z]+\s+speaking\b")


def _opens_as_agent(text: str) -> bool:
    """Whether a turn opens a call as its agent does (`words/service_openers.txt`)."""
    return bool(_OPENER.search(text.lower()) or _SPEAKING.search(text))


def role_kind(word: str) -> str:
    """The kind of a role word ("rep" and "petugas" are "staff"), or the word itself."""
    w = word.lower()
    return ROLE_KINDS.get(w, w)


def given(name: str) -> str:
    """The first word of a name that is not a title ("Pak Joko" -> "Joko")."""
    parts = name.split()
    named = [w for w in parts if w.lower().rstrip(".") not in TITLES]
    return (named or parts or [name])[0]


def _is_role(label: str) -> bool:
    """Whether a label names a role ("Agent", "Support Agent"), not a person."""
    last = label.lower().split()[-1:]
    return bool(last) and last[0] in _ROLES


@dataclass(frozen=True)
class Doers:
    """The ways a summary names each speaker: names and role kinds, to the speaker's label."""

    names: dict[str, str]  # a name ("Lowe", "Nicola", "Harriet") -> the speaker's label
    roles: dict[str, str]  # a role kind ("staff", "customer") -> the one speaker with it

    @classmethod
    def of(cls, units: list[Unit]) -> Doers:
        """The names and roles of a transcript's speakers (see the module)."""
        names: dict[str, set[str]] = {}
        roles: dict[str, set[str]] = {}
        seen: set[str] = set()
        for k, u in enumerate(units):
            if not u.speaker:
                continue
            if u.speaker not in seen:
                seen.add(u.speaker)
                if not _is_role(u.speaker):
                    for name in _name_words(u.speaker):
                        names.setdefault(name, set()).add(u.speaker)
                bracket = re.match(rf"\s*{re.escape(u.speaker)}\s*\(([^()\n]+)\)", u.text)
                if bracket and not _is_role(bracket.group(1)) and bracket.group(1)[:1].isupper():
                    for name in _name_words(bracket.group(1)):
                        names.setdefault(name, set()).add(u.speaker)
                if u.role:
                    roles.setdefault(role_kind(u.role), set()).add(u.speaker)
            if k < 8 and (u.role or _is_role(u.speaker)):  # a role speaker's own name
                for m in _INTRO.finditer(u.text):
                    if m.group(1).lower() not in TITLES | _ROLES:
                        names.setdefault(m.group(1), set()).add(u.speaker)
        speakers = list(dict.fromkeys(u.speaker for u in units if u.speaker))
        if len(speakers) == 2 and not roles:
            agent = next((u.speaker for u in units[:4] if _opens_as_agent(u.text)), "")
            if agent:
                other = speakers[1] if agent == speakers[0] else speakers[0]
                roles = {"staff": {agent}, "customer": {other}}
        if len(speakers) == 2:  # a name greeting the other speaker, in the opening turns
            for u in units[:12]:
                other = speakers[1] if u.speaker == speakers[0] else speakers[0]
                for m in _GREETED.finditer(u.text):
                    name = m.group(1)
                    if name not in names and name.lower() not in TITLES | _ROLES | STOP:
                        names.setdefault(name, set()).add(other)
        # a name or role two speakers share names neither
        return cls(
            {n: next(iter(s)) for n, s in names.items() if len(s) == 1},
            {r: next(iter(s)) for r, s in roles.items() if len(s) == 1},
        )

    def mentions(self) -> list[tuple[str, str, str]]:
        """Each way of mentioning a speaker: its regex, the speaker's label, and a mention.

        A name may carry a title and a family name ("Mr Doherty", "Daniel Ferreira"); a
        role is "the <role word>" or, in Indonesian, the bare word ("petugas"). The third
        item mentions the speaker at a sentence start ("Lowe", "The agent").
        """
        out: list[tuple[str, str, str]] = []
        for name, speaker in self.names.items():
            out.append((rf"\b{TITLE}?{re.escape(name)}(?:\s+[A-Z][\w'’-]*)?", speaker, name))
        for kind, speaker in self.roles.items():
            words = [w for w, k in ROLE_KINDS.items() if k == kind] or [kind]
            alts = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
            pattern = rf"\b(?:(?i:the|our|their|your)\s+)?(?i:{alts})\b"
            out.append((pattern, speaker, f"The {words[0]}"))  # the file's first: "agent"
        return out


def _name_words(label: str) -> list[str]:
    """The words of a label that are names: all but titles ("Cllr Lowe" -> ["Lowe"])."""
    return [w for w in re.findall(r"[^\W\d_][\w'’-]*", label) if w.lower() not in TITLES]
