"""Who does what: an action item's owner in a summary against who takes the task in the source.

In a transcript a task is taken in three ways, each read from the turns as written:

- the speaker commits to it ("I'll send the deck", `words/commitments.txt`); a short reply
  ("Sure, I'll have them by Wednesday") takes the task of the request it answers;
- a speaker asks someone ("Tom, can you get three quotes?", `words/requests.txt`): the
  owner is the person named, or the next speaker when that turn agrees
  (`words/affirmations.txt`); a refusal gives no owner;
- a speaker names the owner: "Sofia will draft it", "Tom to get the quotes".

In the summary an owner is the person mentioned (by first name, full name, or "the agent")
right before "will", "to", "is going to", "agreed to" ... or opening a bullet ("Tom: get
the quotes"); "Marcus asked Tom to get quotes" gives the task to Tom. The summary's task
(its content words after that mark) is matched to the source's tasks; when the tasks it
restates best (its first content word, the verb, and 60% or more of its content words,
two at least) are all taken by someone else, the owner is swapped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .lexicon import word_set
from .mentions import pronoun_subjects
from .text import content_of, sentences, words

if TYPE_CHECKING:
    from .dialogue import Person
    from .records import Unit


def _phrases(name: str) -> re.Pattern[str]:
    alts = sorted(word_set(name), key=len, reverse=True)
    return re.compile(r"(?<![\w'])(?:" + "|".join(re.escape(a) for a in alts) + r")(?![\w'])")


_COMMIT = _phrases("commitments")
_REQUEST = _phrases("requests")
_AFFIRM = _phrases("affirmations")
_REFUSAL = frozenset(["no", "sorry", "can't", "cannot", "unfortunately", "not", "tidak", "maaf"])
# after a person: the task follows ("Tom will get", "Tom to get", "Tom agreed to get")
_MARK = (
    r"(?:will|is to|are to|to|is going to|agreed to|offered to|promised to|volunteered to|"
    r"needs to|has to|must|should|akan|harus|perlu)\s+(?:also\s+|then\s+)?"
)
# a reply this short takes the task of the request it answers
SHORT_REPLY = 8
MIN_TASK = 2
MIN_MATCH = 0.6


@dataclass(frozen=True)
class Assignment:
    """A task taken in the source: by whom, its content words, and the quote."""

    owner: str  # the speaker's name as the transcript gives it
    task: frozenset[str]
    quote: str


@dataclass(frozen=True)
class OwnerSwap:
    """A summary action item given to someone other than the source's owner."""

    said: str  # the owner as the summary names them
    owner: str  # the owner in the source
    quote: str


def _body(u: Unit) -> str:
    return u.text.split(":", 1)[1].strip() if ":" in u.text else u.text


def _first(name: str) -> str:
    return name.split()[0] if name.split() else name


def assignments(units: list[Unit]) -> list[Assignment]:
    """The tasks taken in a transcript's turns (see the module)."""
    out: list[Assignment] = []
    firsts = {_first(u.speaker): u.speaker for u in units if u.speaker}
    for i, u in enumerate(units):
        if not u.speaker:
            continue
        reply = units[i + 1] if i + 1 < len(units) else None
        for sent, _, _ in sentences(_body(u)):
            low = " ".join(words(sent))
            quote = f"{u.speaker}: {sent}"
            m = _COMMIT.search(low)
            if m:
                task = frozenset(content_of(low[m.end() :].split()))
                if len(task) >= MIN_TASK:
                    out.append(Assignment(u.speaker, task, quote))
            r = _REQUEST.search(low)
            if r:
                owner = _addressee(sent, u.speaker, firsts, reply)
                task = frozenset(content_of(low[r.end() :].split()))
                if owner and len(task) >= MIN_TASK:
                    out.append(Assignment(owner, task, quote))
                    if reply is not None and reply.speaker == owner:
                        # the reply takes the task too ("Sure, I'll have them by Wednesday")
                        out.append(Assignment(owner, task, f"{quote} / {reply.text.strip()}"))
            for first, full in firsts.items():
                if full == u.speaker:
                    continue
                for n in re.finditer(rf"\b{re.escape(first)}(?:\s+[A-Z][\w'’-]*)?\s+{_MARK}", sent):
                    task = frozenset(content_of(words(sent[n.end() :])))
                    if len(task) >= MIN_TASK:
                        out.append(Assignment(full, task, quote))
    return out


def _addressee(sent: str, speaker: str, firsts: dict[str, str], reply: Unit | None) -> str:
    """Who a request is made of: the person named in it, or the next speaker who agrees."""
    named = [
        full
        for first, full in firsts.items()
        if full != speaker and re.search(rf"(?:^|,\s*){re.escape(first)}\s*[,?!.]", sent)
    ]
    if reply is None or reply.speaker == speaker or not reply.speaker:
        return named[0] if len(named) == 1 else ""
    answer = words(_body(reply))
    refused = bool(answer) and answer[0] in _REFUSAL
    if len(named) == 1:
        return "" if refused and reply.speaker == named[0] else named[0]
    agreed = bool(_AFFIRM.match(" ".join(answer[:3])))
    return reply.speaker if agreed and not refused and not named else ""


@dataclass(frozen=True)
class _Claim:
    person: Person
    said: str
    task: frozenset[str]
    verb: str  # the task's first content word ("get" of "get three quotes")


def _claims(sentence: str, persons: list[Person]) -> list[_Claim]:
    """The (owner, task) pairs a summary sentence states, the innermost owner of each task."""
    names = {w for p in persons for w in content_of(words(p.name))}
    out: list[tuple[int, _Claim]] = []
    for p in persons:
        mention = rf"(?:\b{re.escape(p.name)}(?:\s+[A-Z][\w'’-]*)?"
        mention += rf"|\b[Tt]he {re.escape(p.role)})" if p.role else ")"
        pats = [rf"({mention})\s+{_MARK}", rf"^\s*({mention})\s*[:;–—-]\s+"]
        for pat in pats:
            for m in re.finditer(pat, sentence):
                terms = [w for w in content_of(words(sentence[m.end() :])) if w not in names]
                if len(set(terms)) >= MIN_TASK:
                    out.append((m.start(), _Claim(p, m.group(1), frozenset(terms), terms[0])))
    out.sort(key=lambda x: x[0])
    # "Marcus asked Tom to get ...": the later owner's task is part of the earlier one's
    return [c for k, (_, c) in enumerate(out) if not any(c.task > d.task for _, d in out[k + 1 :])]


def owner_swaps(
    sents: list[str], persons: list[Person], tasks: list[Assignment]
) -> list[OwnerSwap | None]:
    """For each summary sentence, the action item whose owner the source contradicts, or None.

    Args:
        sents: The summary's sentences.
        persons: The dialogue's people (`dialogue.people`).
        tasks: The source's tasks (`assignments`).
    """
    out: list[OwnerSwap | None] = [None] * len(sents)
    if not tasks or not persons:
        return out
    # "She will refund two months" after "Ana explained ...": about Ana
    resolved = pronoun_subjects(sents, [(p.name, p.pattern()) for p in persons])
    for k, sent in enumerate(sents):
        for claim in _claims(resolved[k] or sent, persons):
            swap = _check(claim, tasks)
            if swap is not None:
                out[k] = swap
                break
    return out


def _check(claim: _Claim, tasks: list[Assignment]) -> OwnerSwap | None:
    scored = []
    for a in tasks:
        shared = len(claim.task & a.task)
        # the same task: its verb too ("get the time off" is not "amend the request")
        if shared >= MIN_TASK and claim.verb in a.task:
            scored.append((shared / len(claim.task), a))
    if not scored:
        return None
    best = max(s for s, _ in scored)
    if best < MIN_MATCH:
        return None
    top = [a for s, a in scored if s >= best - 0.1]
    if any(_first(a.owner) == claim.person.name for a in top):
        return None
    owners = {a.owner for a in top}
    if len(owners) != 1:
        return None
    return OwnerSwap(claim.said, top[0].owner, top[0].quote)
