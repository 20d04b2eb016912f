"""Who does what: the person a summary gives a task to against who does it in the source.

The source's tasks and their doers are read by `assignments`; the ways a summary names each
speaker (names, titles, names in brackets, role words) by `doers`.

In the summary the owner is the person (a name, with or without a title, or a role: "the
agent", "the caller", "petugas") who opens a clause and is followed by its verb: "Tom will
get ...", "Tom gets ...", "Tom sent ...", "Tom is sending ...", "- Tom: get ...", "Pak Joko
mencari ...", or who a passive names after "by" ("the quotes are collected by Tom");
"Marcus asked Tom to get quotes" gives the task to Tom. The summary's task (its content
words from the verb on) is matched to the source's tasks: when the tasks it restates best
(the same verb, and 60% or more of the shorter task's content words, two at least) are all
someone else's, and the summary's person does that verb nowhere in the source, the task
was given to the wrong person.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .assignments import AUX, MIN_TASK, PAST, Assignment, clause, is_indonesian, task_words
from .doers import Doers
from .lexicon import word_set
from .mentions import pronoun_subjects
from .text import alike, words

if TYPE_CHECKING:
    from .dialogue import Person
    from .records import Unit


# words after a name that make it no doer ("Tom and Ana", "Tom's", "Tom in ...")
_NOT_VERB = word_set("not_after_doer")
MIN_MATCH = 0.6


@dataclass(frozen=True)
class OwnerSwap:
    """A summary task given to someone other than the one who does it in the source."""

    said: str  # the owner as the summary names them
    owner: str  # the owner in the source
    quote: str


@dataclass(frozen=True)
class _Claim:
    speaker: str  # the speaker the mention refers to, as the transcript names them
    said: str
    task: frozenset[str]
    verb: str  # the task's first content word ("get" of "get three quotes")


# a doer opens a clause: the sentence, a bullet's label, or after ";" / "and" / "asked" /
# "that" ("It was agreed that Tom will ...")
_START = (
    r"(?:^\s*|[;:]\s+|\band\s+|,\s+|\basked\s+|\btold\s+|\bminta\s+|\bthat\s+|\bthen\s+"
    r"|\bbahwa\s+)"
)
# an apposition after a mention ("Josh, the agent, will ...", "the chair, Cllr Brennan, writes")
_APPOSITION = r"(?:,\s+[^,;:.]{1,40},)?"
# a passive's doer ("the quotes are collected by Tom"): the clause before "by" is the task
_PASSIVE = r"\b(?:is|are|was|were|be|been|being)\s+(?:\w+\s+)?(?P<verb>\w+(?:ed|en|t|wn))\s+by\s+"
# a second verb of the same doer ("Tom found the fault and moved it to channel 11"): after
# "and", a verb in the past or in the third person like the first, or an Indonesian verb
# with its active or passive prefix ("memperpanjang sertifikat dan mengabari grup")
# a doer after another person and "and" shares the task with them ("Ann and Emily will ...")
_JOINT = re.compile(r"\b[A-Z][\w'’-]*\s+(?:and|dan)\s+$")
_AND = re.compile(r"(?:,\s*)?\b(?:and|dan)\s+(?=(\w+))")


def _claims(sentence: str, mentions: list[tuple[str, str]], indonesian: bool) -> list[_Claim]:
    """The (doer, task) pairs a summary sentence states, the innermost doer of each task.

    `mentions` pairs the regex of each way of naming a person with the speaker it refers to
    (`doers.Doers.mentions`).
    """
    out: list[tuple[int, _Claim]] = []
    for mention, speaker in mentions:
        pats = [
            rf"{_START}({mention}){_APPOSITION}\s+{AUX}(?=[a-z])",
            rf"^\s*({mention})\s*[:;–—-]\s+",
        ]
        for pat in pats:
            for m in re.finditer(pat, sentence):
                if _JOINT.search(sentence[: m.start(1)]):  # "Ann and Emily will ...": both
                    continue
                rest = sentence[m.end() :]
                first = words(rest)[:1]
                if not first or first[0] in _NOT_VERB:  # "Tom and ...", "Tom's", "Tom in ..."
                    continue
                for part in [clause(rest), *_second_verbs(rest, first[0], indonesian)]:
                    terms = _terms(part, mentions, indonesian)
                    if len(set(terms)) >= MIN_TASK:
                        claim = _Claim(speaker, m.group(1), frozenset(terms), terms[0])
                        out.append((m.start(1), claim))
        for m in re.finditer(rf"{_PASSIVE}(?P<who>{mention})", sentence):
            before = re.split(r"[;:]|,\s+", sentence[: m.start()])[-1]
            terms = _terms(f"{before} {m.group('verb')}", mentions, indonesian)
            if len(set(terms)) >= MIN_TASK:
                said = _Claim(speaker, m.group("who"), frozenset(terms), terms[-1])
                out.append((m.start("who"), said))
    out.sort(key=lambda x: x[0])
    # "Marcus asked Tom to get ...": the later doer's task is part of the earlier one's (a
    # second verb of the same doer is not another doer)
    return [
        c
        for k, (_, c) in enumerate(out)
        if not any(c.task > d.task and c.speaker != d.speaker for _, d in out[k + 1 :])
    ]


def _second_verbs(rest: str, verb: str, indonesian: bool) -> list[str]:
    """The clauses of further verbs of a claim's doer, up to the end of the sentence part."""
    part = re.split(r"[;!?]|\.(?!\d)", rest, maxsplit=1)[0]
    out: list[str] = []
    for m in _AND.finditer(part):
        w = m.group(1)
        if not w.islower():  # "and Tobias sets up ...": another doer's clause
            continue
        past = (verb.endswith("ed") or verb in PAST) and (w.endswith("ed") or w in PAST)
        third = verb.endswith("s") and w.endswith("s") and not w.endswith("ss")
        prefixed = indonesian and w.startswith(("me", "di")) and len(w) > 5
        if past or third or prefixed:
            out.append(clause(part[m.end() :]))
    return out


def _terms(text: str, mentions: list[tuple[str, str]], indonesian: bool) -> list[str]:
    """A claim's task words in order, without the people it names."""
    for mention, _ in mentions:
        text = re.sub(mention, " ", text)
    return task_words(text, indonesian)


@dataclass(frozen=True)
class OwnerReading:
    """What the source says of the doers a summary sentence names."""

    swap: OwnerSwap | None  # a task given to someone other than its doer in the source
    # a task given to the person who does it in the source (the sentence's people placed
    # as the source places them: `features` clears its embedding swap margin)
    confirmed: bool


def owner_swaps(
    sents: list[str], persons: list[Person], units: list[Unit], tasks: list[Assignment]
) -> list[OwnerSwap | None]:
    """For each summary sentence, the task whose doer the source contradicts, or None.

    Args:
        sents: The summary's sentences.
        persons: The dialogue's people (`dialogue.people`: for "He"/"She" opening a sentence).
        units: The dialogue's turns (who is who: `doers.Doers`).
        tasks: The source's tasks (`assignments.assignments`).
    """
    return [r.swap for r in owner_readings(sents, persons, units, tasks)]


def owner_readings(
    sents: list[str], persons: list[Person], units: list[Unit], tasks: list[Assignment]
) -> list[OwnerReading]:
    """For each summary sentence, its owner swap and whether an owner claim is confirmed.

    The arguments are those of `owner_swaps`. A sentence with a swap is never confirmed.
    """
    out = [OwnerReading(None, False)] * len(sents)
    if not tasks:
        return out
    said = Doers.of(units).mentions()
    mentions = [(pattern, speaker) for pattern, speaker, _ in said]
    if not mentions:
        return out
    indonesian = is_indonesian(units)
    # "She will refund two months" after "Ana explained ...": about Ana
    named = [(say, pattern) for pattern, _, say in said]
    resolved = pronoun_subjects(sents, named + [(p.name, p.pattern()) for p in persons])
    # Each task's word keys, once per summary: a long transcript has thousands of tasks,
    # and only those sharing a key with a claim can match it (`_candidates`).
    keyed = [(a, frozenset(_key(w) for w in a.task | a.context)) for a in tasks]
    for k, sent in enumerate(sents):
        confirmed = False
        for claim in _claims(resolved[k] or sent, mentions, indonesian):
            candidates = _candidates(claim, keyed)
            swap = _check(claim, candidates)
            if swap is not None:
                out[k] = OwnerReading(swap, False)
                break
            confirmed = confirmed or _confirmed(claim, candidates)
        else:
            out[k] = OwnerReading(None, confirmed)
    return out


def _confirmed(claim: _Claim, tasks: list[Assignment]) -> bool:
    """Whether the claimed doer does the task the claim restates best (its verb too)."""
    same = [(_overlap(claim, a)[0], a) for a in tasks if any(alike(claim.verb, w) for w in a.task)]
    best = max((r for r, _ in same), default=0.0)
    return best >= MIN_MATCH and any(a.owner == claim.speaker for r, a in same if r >= best - 0.1)


def _check(claim: _Claim, tasks: list[Assignment]) -> OwnerSwap | None:
    """The source's doer of the claim's task, when it is someone else (else None)."""
    scored = [(_overlap(claim, a), a) for a in tasks]
    # the same task: its verb too ("get the time off" is not "amend the request")
    same = [(r, a) for r, a in scored if any(alike(claim.verb, w) for w in a.task)]
    if not same:
        return None
    best = max(r for r, _ in same)
    if best[0] < MIN_MATCH:
        return None
    top = [(r, a) for r, a in same if r[0] >= best[0] - 0.1]
    # the claimed doer restating the task about as well (both ways), in other words, or
    # doing what its verb says anywhere in the source, clears it
    cover = max(r[1] for r, _ in top)
    if any(
        a.owner == claim.speaker and r[0] >= best[0] - 0.1 and r[1] >= cover - 0.1
        for r, a in scored
    ):
        return None
    if any(a.owner == claim.speaker for _, a in same):
        return None
    owners = {a.owner for _, a in top}
    if len(owners) != 1:
        return None
    return OwnerSwap(claim.said, top[0][1].owner, top[0][1].quote)


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


def _overlap(claim: _Claim, a: Assignment) -> tuple[float, float]:
    """How well a source task matches the claim's, two ways (0 below two words shared).

    The share of the shorter task's words the two share, and the share of the claim's.

    The shorter task: a summary adds details to a task ("cancels the bill and reissues it
    with his reading: roughly £268 ...") or restates a part of a long one.
    """
    words = a.task | a.context
    shared = sum(1 for w in claim.task if any(alike(w, x) for x in words))
    if shared < MIN_TASK:
        return (0.0, 0.0)
    return (shared / min(len(claim.task), len(words)), shared / len(claim.task))
