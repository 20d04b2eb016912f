"""Who does what: the person a summary gives a task to against who does it in the source.

In a transcript a task is done or taken in three ways, each read from the turns as written:

- the speaker does it or takes it on in the first person: "I'll send the deck", "I've
  added a note", "I switched on alerts", "saya kirim jadwalnya" (the owner is the speaker);
  a short reply ("Sure, I'll have them by Wednesday") takes the task of the request it
  answers;
- a speaker asks someone ("Tom, can you get three quotes?", `words/requests.txt`): the
  owner is the person named, or the next speaker when that turn agrees
  (`words/affirmations.txt`); a refusal gives no owner;
- a speaker names the doer: "Sofia will draft it", "Tom to get the quotes", "Tobias sets
  up the accounts".

In the summary the owner is the person (first name, full name with a title, or "the
agent") who opens a clause and is followed by its verb: "Tom will get ...", "Tom gets
...", "Tom sent ...", "Tom is sending ...", "- Tom: get ...", "Pak Joko mencari ...";
"Marcus asked Tom to get quotes" gives the task to Tom. The summary's task (its content
words from the verb on) is matched to the source's tasks: when the tasks it restates best
(the same verb, and 60% or more of its content words, two at least) are all someone else's,
the task was given to the wrong person.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .dialogue import Person
from .lexicon import TITLES, word_map, word_set
from .mentions import pronoun_subjects
from .text import alike, content_of, sentences, words

if TYPE_CHECKING:
    from .records import Unit


def _phrases(name: str) -> re.Pattern[str]:
    alts = sorted(word_set(name), key=len, reverse=True)
    return re.compile(r"(?<![\w'])(?:" + "|".join(re.escape(a) for a in alts) + r")(?![\w'])")


_REQUEST = _phrases("requests")
_AFFIRM = _phrases("affirmations")
_REFUSAL = frozenset(["no", "sorry", "can't", "cannot", "unfortunately", "not", "tidak", "maaf"])
_PAST = word_map("irregular_past")
# auxiliaries and adverbs between a doer and the verb ("will", "is going to", "has just")
_AUX = (
    r"(?:(?:will|shall|can|could|would|should|must|is|are|was|were|am|has|have|had|be|been|"
    r"also|then|just|already|now|still|going|to|agreed|offered|promised|volunteered|needs|"
    r"need|wants|want|akan|sudah|baru|mau|bisa|harus|perlu|yang|juga|langsung)\s+)*"
)
# the first person doing something: "I'll", "I've", "I'm", "I", "saya", "aku"
_FIRST = re.compile(rf"(?<![\w'])(?:i(?:'ll|'ve|'m|'d)?|saya|aku)\s+{_AUX}(?=[a-z])")
# words after a name that make it no doer ("Tom and Ana", "Tom's", "Tom in ...")
_NOT_VERB = frozenset(
    [
        "and",
        "or",
        "but",
        "in",
        "on",
        "at",
        "of",
        "for",
        "with",
        "from",
        "by",
        "as",
        "than",
        "who",
        "which",
        "that",
        "'s",
        "dan",
        "atau",
        "di",
        "ke",
        "dari",
        "yang",
    ]
)
# what may come before a name said to someone ("Tobias, ...", "And Tobias, ...", ", Tobias?")
_VOCATIVE_BEFORE = r"(?:^|,\s*|^(?i:and|also|so|then|ok|okay|oh|right|now)\s+)"
# how a speaker gives their name ("this is Valerie", "my name is Aoife", "I'm Dana")
_INTRO = re.compile(
    r"\b(?:[Tt]his is|[Mm]y name is|[Mm]y name's|I'm|I am|[Ii]t's)\s+([A-Z][a-z]+)\b"
)
# a short reply takes the task of the request it answers
SHORT_REPLY = 8
MIN_TASK = 2
MIN_MATCH = 0.6


@dataclass(frozen=True)
class Assignment:
    """A task done or taken in the source: by whom, its content words, and the quote."""

    owner: str  # the speaker's name as the transcript gives it
    task: frozenset[str]
    quote: str


@dataclass(frozen=True)
class OwnerSwap:
    """A summary task given to someone other than the one who does it in the source."""

    said: str  # the owner as the summary names them
    owner: str  # the owner in the source
    quote: str


def _body(u: Unit) -> str:
    return u.text.split(":", 1)[1].strip() if ":" in u.text else u.text


def given(name: str) -> str:
    """The first word of a name that is not a title ("Pak Joko" -> "Joko")."""
    parts = name.split()
    named = [w for w in parts if w.lower().rstrip(".") not in TITLES]
    return (named or parts or [name])[0]


def _task(text: str) -> frozenset[str]:
    """The content words of a task, verbs in their base form ("sent" as "send")."""
    return frozenset(content_of([_PAST.get(w, w) for w in words(text)]))


def assignments(units: list[Unit]) -> list[Assignment]:
    """The tasks done or taken in a transcript's turns (see the module)."""
    out: list[Assignment] = []
    firsts = {given(u.speaker): u.speaker for u in units if u.speaker}
    for i, u in enumerate(units):
        if not u.speaker:
            continue
        reply = units[i + 1] if i + 1 < len(units) else None
        prev = units[i - 1] if i > 0 else None
        for sent, _, _ in sentences(_body(u)):
            low = " ".join(words(sent))
            quote = f"{u.speaker}: {sent}"
            for m in _FIRST.finditer(low):
                task = _task(_clause(low[m.end() :]))
                if len(task) >= MIN_TASK:
                    out.append(Assignment(u.speaker, task, quote))
                elif len(low.split()) <= SHORT_REPLY and prev and _REQUEST.search(_low(prev)):
                    # "Sure, I'll have them by Wednesday": the task asked for just before
                    out.append(Assignment(u.speaker, _task(_body(prev)), f"{prev.text} / {sent}"))
            r = _REQUEST.search(low)
            if r:
                owner = _addressee(sent, u.speaker, firsts, reply)
                task = _task(_clause(low[r.end() :]))
                if owner and len(task) >= MIN_TASK:
                    out.append(Assignment(owner, task, quote))
            for first, full in firsts.items():
                if full == u.speaker:
                    continue
                for n in re.finditer(rf"\b{re.escape(first)}(?:\s+[A-Z][\w'’-]*)?\s+{_AUX}", sent):
                    task = _task(_clause(sent[n.end() :]))
                    if len(task) >= MIN_TASK:
                        out.append(Assignment(full, task, quote))
    return out + _merged(out)


def _merged(tasks: list[Assignment]) -> list[Assignment]:
    """A request and the reply taking it, as one task.

    "Can you migrate staging?" / "I'll run the migration this afternoon and post in the
    channel" is one task, which a summary may restate from both.
    """
    out: list[Assignment] = []
    for a, b in itertools.pairwise(tasks):
        if a.owner == b.owner and a.quote != b.quote:
            out.append(Assignment(a.owner, a.task | b.task, f"{a.quote} / {b.quote}"))
    return out


def aliases(units: list[Unit]) -> dict[str, str]:
    """Names speakers labelled by role give themselves ("Agent: ... this is Valerie")."""
    out: dict[str, str] = {}
    for u in units[:8]:
        for m in _INTRO.finditer(_body(u)):
            if u.speaker and m.group(1).lower() not in TITLES:
                out.setdefault(m.group(1), u.speaker)
    return out


def _low(u: Unit) -> str:
    return " ".join(words(_body(u)))


def _clause(text: str) -> str:
    """The text up to the end of its clause (a task is one clause)."""
    return re.split(
        r"[;.!?]|,\s+(?:and|but|so)\s+|\s+(?:but|because|while)\s+"
        r"|\s+and\s+(?=(?:i|i'll|i've|i'm|we|you|he|she|they|saya|aku)\b)",
        text,
        flags=re.IGNORECASE,
    )[0]


def _addressee(sent: str, speaker: str, firsts: dict[str, str], reply: Unit | None) -> str:
    """Who a request is made of: the person named in it, or the next speaker who agrees."""
    named = [
        full
        for first, full in firsts.items()
        if full != speaker and re.search(rf"{_VOCATIVE_BEFORE}{re.escape(first)}\s*[,?!.]", sent)
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
    speaker: str  # the speaker the mention refers to, as the transcript names them
    said: str
    task: frozenset[str]
    verb: str  # the task's first content word ("get" of "get three quotes")


def _claims(sentence: str, persons: list[tuple[Person, str]]) -> list[_Claim]:
    """The (doer, task) pairs a summary sentence states, the innermost doer of each task.

    `persons` pairs each way of naming a person with the speaker it refers to.
    """
    names = {w for p, _ in persons for w in content_of(words(p.name))}
    titles = "|".join(re.escape(t) for t in sorted(TITLES, key=len, reverse=True))
    out: list[tuple[int, _Claim]] = []
    for p, speaker in persons:
        mention = rf"(?:\b(?:(?i:{titles})\.?\s+)?{re.escape(p.name)}(?:\s+[A-Z][\w'’-]*)?"
        mention += rf"|\b[Tt]he {re.escape(p.role)})" if p.role else ")"
        # a doer opens a clause: the sentence, a bullet's label, or after ";" / "and"
        start = r"(?:^\s*|;\s+|\band\s+|,\s+|\basked\s+|\btold\s+)"
        pats = [
            rf"{start}({mention})\s+{_AUX}(?=[a-z])",
            rf"^\s*({mention})\s*[:;–—-]\s+",
        ]
        for pat in pats:
            for m in re.finditer(pat, sentence):
                rest = sentence[m.end() :]
                first = words(rest)[:1]
                if not first or first[0] in _NOT_VERB:  # "Tom and ...", "Tom's", "Tom in ..."
                    continue
                ordered = content_of([_PAST.get(w, w) for w in words(_clause(rest))])
                terms = [w for w in ordered if w not in names]
                if len(set(terms)) >= MIN_TASK:
                    claim = _Claim(speaker, m.group(1), frozenset(terms), terms[0])
                    out.append((m.start(1), claim))
    out.sort(key=lambda x: x[0])
    # "Marcus asked Tom to get ...": the later doer's task is part of the earlier one's
    return [c for k, (_, c) in enumerate(out) if not any(c.task > d.task for _, d in out[k + 1 :])]


def owner_swaps(
    sents: list[str], persons: list[Person], units: list[Unit], tasks: list[Assignment]
) -> list[OwnerSwap | None]:
    """For each summary sentence, the task whose doer the source contradicts, or None.

    Args:
        sents: The summary's sentences.
        persons: The dialogue's people (`dialogue.people`).
        units: The dialogue's turns (who is who, and the names they give themselves).
        tasks: The source's tasks (`assignments`).
    """
    out: list[OwnerSwap | None] = [None] * len(sents)
    if not tasks or not persons:
        return out
    # a speaker as a summary names them: by the first word that is no title ("Pak Joko")
    full = {u.speaker.split()[0]: u.speaker for u in units if u.speaker}
    known = [
        (Person(given(full.get(p.name, p.name)), p.role), full.get(p.name, p.name)) for p in persons
    ]
    known += [(Person(alias, ""), spk) for alias, spk in aliases(units).items()]
    # "She will refund two months" after "Ana explained ...": about Ana
    resolved = pronoun_subjects(sents, [(p.name, p.pattern()) for p in persons])
    # Each task's word keys, once per summary: a long transcript has thousands of tasks,
    # and only those sharing a key with a claim can match it (`_candidates`).
    keyed = [(a, frozenset(_key(w) for w in a.task)) for a in tasks]
    for k, sent in enumerate(sents):
        for claim in _claims(resolved[k] or sent, known):
            swap = _check(claim, _candidates(claim, keyed))
            if swap is not None:
                out[k] = swap
                break
    return out


def _check(claim: _Claim, tasks: list[Assignment]) -> OwnerSwap | None:
    """The source's doer of the claim's task, when it is someone else (else None)."""
    scored = [(_overlap(claim, a), a) for a in tasks]
    # the same task: its verb too ("get the time off" is not "amend the request")
    same = [(r, a) for r, a in scored if any(alike(claim.verb, w) for w in a.task)]
    if not same:
        return None
    best = max(r for r, _ in same)
    if best < MIN_MATCH:
        return None
    # the claimed doer restating the task about as well, in other words, or doing what its
    # verb says anywhere in the source, clears it
    if any(a.owner == claim.speaker and r >= best - 0.1 for r, a in scored):
        return None
    if any(a.owner == claim.speaker for _, a in same):
        return None
    top = [a for r, a in same if r >= best - 0.1]
    owners = {a.owner for a in top}
    if len(owners) != 1:
        return None
    return OwnerSwap(claim.said, top[0].owner, top[0].quote)


def _key(word: str) -> str:
    """A word's first three letters.

    Two stems `text.alike` calls one word's forms share them (or are equal, when shorter).
    """
    return word[:3]


def _candidates(claim: _Claim, keyed: list[tuple[Assignment, frozenset[str]]]) -> list[Assignment]:
    """The tasks `_check` can tell apart from no match.

    Those sharing the claim's verb's key or at least MIN_TASK of its words' keys: any other
    task overlaps it by 0 and has another verb, which `_check` reads as absent.
    """
    verb = _key(claim.verb)
    words = [_key(w) for w in claim.task]
    return [
        a for a, keys in keyed if verb in keys or sum(1 for w in words if w in keys) >= MIN_TASK
    ]


def _overlap(claim: _Claim, a: Assignment) -> float:
    """The share of the claim's task words in the assignment's (0 below two shared)."""
    shared = sum(1 for w in claim.task if any(alike(w, x) for x in a.task))
    return shared / len(claim.task) if shared >= MIN_TASK else 0.0
