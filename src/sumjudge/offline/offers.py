"""An offer and the reply that settles it, against a summary saying it went the other way.

In a call the customer's choice is often the reply to an offer that is no question:
"There's the 9:40 on Saturday." / "Early, but fine. Let's do that one." A summary saying
the customer "turned down the 9:40 train" says the opposite. Read here:

- a reply's stance: a clause of its first two sentences opens with an acceptance (a yes,
  `words/affirmations.txt`, or a taking-up, `words/acceptances.txt`: "fine", "let's do",
  "go ahead") or a refusal (`words/refusals.txt`, `words/declines.txt`); a reply with both
  ("No, that works as it is") or a non-answer ("not sure") has none;
- what it settles: the other speaker's turn before it, with that speaker's turn before
  when it names the offer only by a pronoun ("I'd still suggest it." / "Okay, send it.",
  the heater named two turns up), and the reply's own words ("Let's switch");
- a summary clause that turns something down ("declined", "turned down", "menolak") or
  takes it up ("accepted", "opted for", "memilih"; not "menerima", which is also
  "received"): the words and figures naming its object, matched to the offers that name
  two of them. The last such offer decides (a customer may hesitate and then agree: the
  later answer wins); the summary is opposed when that reply's stance is the other one.

Not read: an offer between alternatives ("the 9:40 or the 14:10?") whose reply does not
name the summary's option (taking one may be turning the other down), and a clause whose
subject is the offerer by name (the offerer declining a request is another reading).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .decisions import shared_words
from .lexicon import word_set
from .records import SourceInfo, Unit
from .replies import AGREE, DECLINE, NEITHER, body
from .text import content_of, sentences, words

# (a bare "I'll" or "I can" takes on a task, not an offer: "I'll think about it")
TAKE_UP = AGREE - {"i'll", "i will", "i can"} | word_set("acceptances")
TURN_DOWN = DECLINE | word_set("declines")
# the first word of every answer head ("let's do": "let's")
_HEAD_WORDS = frozenset(words(h)[0] for h in TAKE_UP | TURN_DOWN | NEITHER if words(h))
# a reply's clauses ("Late, but fine": "fine" is the answer)
_REPLY_CLAUSE = re.compile(r"[,;]\s*|\s+(?:but|tapi|tetapi)\s+", re.IGNORECASE)
# a summary clause turning an offer down (group 1) or taking it up (group 2), and the
# words after it that name the offer
_SAID = re.compile(
    r"\b(?:(turn(?:ed|s|ing)?\s+down|declin(?:e|ed|es|ing)|refus(?:e|ed|es|ing)|"
    r"reject(?:ed|s|ing)?|passed\s+on|menolak|ditolak)|"
    r"(accept(?:ed|s|ing)?|opt(?:ed|s)?\s+for|went\s+with|go(?:es)?\s+with|chose|"
    r"memilih|setuju\s+dengan))\s+(?:the\s+|an?\s+|to\s+)?(.{1,80})",
    re.IGNORECASE,
)
# where the offer's name ends: the next clause of the summary
_OBJECT_END = re.compile(
    r"[.;]|,?\s+(?:and|but|so|because|while|dan|tetapi|karena)\s+|,\s+(?:as|since|which)\s+"
)
_FIGURE = re.compile(r"\d+(?:[:.]\d+)?[a-z]*", re.IGNORECASE)
_REFERRING = frozenset({"it", "one", "that", "this", "them", "itu", "ini"})
_ALTERNATIVES = re.compile(r"\b(?:or|atau)\b", re.IGNORECASE)
# the offer's words the summary's object must name
MIN_NAMED = 2


@dataclass(frozen=True)
class Settled:
    """A reply that takes up or turns down what the other speaker offered."""

    taken: bool
    replier: str
    offer: frozenset[str]  # the content words and figures of the offer and the reply
    reply_words: frozenset[str]
    alternatives: bool  # the offer names alternatives ("A or B")
    quote: str


def stance(text: str) -> bool | None:
    """True when a reply takes something up, False when it turns it down, else None."""
    if _HEAD_WORDS.isdisjoint(words(text[:300])):
        return None  # (most turns: no answer word near their start)
    found: set[bool] = set()
    for sent, _, _ in sentences(text)[:2]:
        for clause in _REPLY_CLAUSE.split(sent):
            ws = words(clause)[:3]
            heads = [" ".join(ws[:n]) for n in (3, 2, 1) if len(ws) >= n]
            for head in heads:  # the longest first: "no need" is not "no", "i'll" not "i'll take"
                if head in NEITHER:
                    break
                if head in TURN_DOWN or head in TAKE_UP:
                    found.add(head in TAKE_UP and head not in TURN_DOWN)
                    break
    return found.pop() if len(found) == 1 else None


def tokens(text: str) -> set[str]:
    """A text's content words and figures ("19:50", "4g")."""
    return set(content_of(words(text))) | {m.lower() for m in _FIGURE.findall(text)}


def settled(units: list[Unit]) -> list[Settled]:
    """The replies of a transcript that take up or turn down an offer, in order (linear)."""
    out: list[Settled] = []
    for j in range(1, len(units)):
        u, before = units[j], units[j - 1]
        if not u.speaker or not before.speaker or u.speaker == before.speaker:
            continue
        reply = body(u, u.text)
        taken = stance(reply)
        if taken is None:
            continue
        offer = body(before, before.text)
        # an offer named by a pronoun: the offerer's turn before the one in between
        if j >= 3 and not _REFERRING.isdisjoint(words(offer)):
            earlier = units[j - 3]
            between = body(units[j - 2], units[j - 2].text)
            if earlier.speaker == before.speaker and stance(between) is None:
                offer = f"{body(earlier, earlier.text)} {offer}"
        said = " ".join(s for s, _, _ in sentences(reply)[:2])
        last = [s for s, _, _ in sentences(body(before, before.text))][-1:]
        quote = f"{before.speaker}: {' '.join(last).strip()} / {u.speaker}: {said.strip()}"
        out.append(
            Settled(
                taken=taken,
                replier=u.speaker,
                offer=frozenset(tokens(offer) | tokens(said)),
                reply_words=frozenset(tokens(said)),
                alternatives=bool(_ALTERNATIVES.search(offer)),
                quote=quote,
            )
        )
    return out


def _about_offerer(subject: set[str], o: Settled, speakers: set[str]) -> bool:
    """Whether a clause's subject names a speaker other than the one who replied."""
    others = {w for s in speakers if s != o.replier for w in content_of(words(s))}
    return bool(subject & others) and not subject & set(content_of(words(o.replier)))


def settled_otherwise(sentence: str, info: SourceInfo) -> str:
    """The offer and reply a summary sentence reports the other way round, or "".

    Args:
        sentence: A summary sentence.
        info: The analysed source (its settled offers, `settled`, read when first needed;
            its speakers: a clause naming the offerer is not read).

    Returns:
        "Offerer: ... / Replier: ...", the last sentence of the offer and the reply.
    """
    if sentence.rstrip().endswith("?") or not _SAID.search(sentence) or not info.offers:
        return ""
    offers, speakers = info.offers, info.speakers
    for m in _SAID.finditer(sentence):
        if re.search(
            r"\b(?:not|never|n't|tidak|belum)\b", sentence[max(0, m.start() - 16) : m.start()]
        ):
            continue  # "did not accept": which way it went is not the bare word
        taken = m.group(2) is not None
        name = _OBJECT_END.split(m.group(3), maxsplit=1)[0]
        named = tokens(name)
        if len(named) < MIN_NAMED:
            continue
        subject = set(content_of(words(sentence[: m.start()])))
        matched = [
            o
            for o in offers
            if len(shared_words(frozenset(named), o.offer)) >= MIN_NAMED
            and not (o.alternatives and not shared_words(frozenset(named), o.reply_words))
            and not _about_offerer(subject, o, speakers)
        ]
        if matched and matched[-1].taken != taken:  # (the later answer wins)
            return matched[-1].quote
    return ""
