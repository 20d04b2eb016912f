"""The tasks a transcript gives out, and to whom: who is asked, who volunteers, who did it.

A task is done or taken in a turn in four ways, each read from the turns as written:

- the speaker does it or takes it on in the first person: "I'll send the deck", "I've
  added a note", "I switched on alerts", "can I offer you ...", "saya buka laporannya",
  and in a call the agent's "we" ("we'll refund it"): the owner is the speaker; a short
  reply ("Sure, I'll have them by Wednesday") takes the task of the request it answers
  (of a turn handing out several, the one said to the replier by name);
  what the speaker does not do ("I didn't make them"), a view ("I think we need ...",
  `words/opinion_verbs.txt`) and what a call's customer asks about ("Do I need to report
  it?") are no tasks;
- a speaker asks someone ("Tom, can you get three quotes?", "Ms Achebe, please prepare
  ...", "Dmitri, you own the login bug", `words/requests.txt`): the owner is the person
  named, or the next speaker when that turn agrees (`words/affirmations.txt`); a refusal
  gives no owner;
- a speaker names the doer: "Sofia will draft it", "Tom to get the quotes", "Tobias sets
  up the accounts", or reads out an action list: "Tessa: the reconciliation plan";
- a passive names the doer after "by": "the letter will be issued by Adaeze".

A speaker is known by every name `doers.Doers` gives them (the label without its title,
a name in brackets, the name they introduce themselves by).

A task is its content words, verbs in their base form ("sent" as "send"; in Indonesian
without the affixes that make a verb active or passive, `id_base`), so a summary's
restatement in another tense or voice matches it.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .doers import TITLE, Doers
from .lexicon import NEGATIONS, word_map, word_set
from .text import content_of, detect_language, sentences, stem, words

if TYPE_CHECKING:
    from .records import Unit


def _phrases(name: str) -> re.Pattern[str]:
    """One pattern for the phrases of a word file ("^" ties a phrase to the sentence start)."""
    alts = sorted(word_set(name), key=len, reverse=True)
    parts = ["^" + re.escape(a[1:]) if a.startswith("^") else re.escape(a) for a in alts]
    return re.compile(r"(?<![\w'])(?:" + "|".join(parts) + r")(?![\w'])")


_REQUEST = _phrases("requests")
_AFFIRM = _phrases("affirmations")
_REFUSAL = frozenset(["no", "sorry", "can't", "cannot", "unfortunately", "not", "tidak", "maaf"])
PAST = word_map("irregular_past")
_SAME_ACT = word_map("task_verbs")
_NO_TASK = NEGATIONS | word_set("opinion_verbs")
# auxiliaries and adverbs between a doer and the verb ("will", "is going to", "has just")
# ("offered" only before "to": "Ana offered the basic plan" is Ana's offer)
AUX = (
    r"(?:(?:will|shall|can|could|would|should|must|is|are|was|were|am|has|have|had|be|been|"
    r"also|then|just|already|now|still|going|to|akan|sudah|baru|mau|bisa|harus|perlu|yang|"
    r"juga|langsung)\s+|(?:agreed|offered|promised|volunteered|needs?|wants?|asked|expected|"
    r"due|supposed|assigned)\s+to\s+|(?:diminta|ditugaskan)\s+(?:untuk\s+)?)*"
)
# the first person doing something: "I'll", "I've", "I'm", "I", "saya", "aku"
_FIRST = re.compile(rf"(?<![\w'])(?:i(?:'ll|'ve|'m|'d)?|saya|aku)\s+{AUX}(?=[a-z])")
# a call's agent speaking for the company ("we'll refund it", "kami ganti"): the agent's task,
# as the customer is no part of that "we" (in a meeting "we" is the room: nobody's own task)
_WE = re.compile(rf"(?<![\w'])(?:we(?:'ll|'ve|'re|'d)?|kami)\s+{AUX}(?=[a-z])")
# a passive's doer: "... will be issued by Adaeze"
_BY = r"\b(?:is|are|was|were|be|been|being)\b[^;.!?]*?\b(by)\s+"
# what may come before a name said to someone ("Tobias, ...", "And Tobias, ...", ", Tobias?")
_VOCATIVE_BEFORE = r"(?:^|,\s*|^(?i:and|also|so|then|ok|okay|oh|right|now)\s+)"
# a short reply takes the task of the request it answers
SHORT_REPLY = 8
MIN_TASK = 2
_VOWELS = "aeiou"
_OBJECT_PRONOUN = re.compile(r"\b(?:it|them|itu|nya)\b")


@dataclass(frozen=True)
class Assignment:
    """A task done or taken in the source: by whom, its content words, and the quote."""

    owner: str  # the speaker's name as the transcript gives it
    task: frozenset[str]
    quote: str
    # what "it" / "them" in the task stands for: the content words before it in the turn
    # ("we don't need a police report; we file it ourselves"), matched as the task's
    # object words, never as its verb
    context: frozenset[str] = frozenset()


def id_base(w: str) -> str:
    """An Indonesian verb without its active or passive affixes, as one form for both.

    "membuka" and "buka", "mengirimkan", "dikirim" and "kirim" give one form each. The
    prefix meN- drops a base's first k, p, t or s ("kirim" -> "mengirim"), which cannot be
    told back from the word alone, so a base's first k/p/t/s before a vowel is dropped too:
    the form is only compared with others made the same way, never shown.
    """
    for suffix in ("kannya", "nya", "kan"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 4:
            w = w[: -len(suffix)]
            break
    if len(w) > 5:
        if w.startswith(("meny", "meng")) and w[4] in _VOWELS:
            return w[4:]
        if w.startswith(("mem", "men")) and w[3] in _VOWELS:
            return w[3:]
        elif w.startswith(("meng", "meny")):
            w = w[4:]
        elif w.startswith(("mem", "men")):  # "memperpanjang" is meN- on "perpanjang"
            w = w[3:]
        elif (w.startswith("me") and w[2] in "lrwy") or w.startswith("di"):
            w = w[2:]
    if len(w) > 3 and w[0] in "kpts" and w[1] in _VOWELS:
        return w[1:]
    return w


def _verb(w: str) -> str:
    """A word in its base form, one verb of those naming one act (`words/task_verbs.txt`)."""
    w = PAST.get(w, w)
    s = stem(w)
    return _SAME_ACT.get(s) or _SAME_ACT.get(s + "e") or w


def task_words(text: str, indonesian: bool) -> list[str]:
    """The content words of a task in order, verbs in their base form ("sent" as "send").

    Verbs naming one act are one word ("turned on" as "switched on", `words/task_verbs.txt`).
    """
    out = content_of([_verb(w) for w in words(text)])
    return [id_base(w) for w in out] if indonesian else out


def is_indonesian(units: list[Unit]) -> bool:
    """Whether a transcript is in Indonesian (its opening turns)."""
    return detect_language(" ".join(u.text for u in units[:20])) == "id"


def assignments(units: list[Unit]) -> list[Assignment]:
    """The tasks done or taken in a transcript's turns (see the module)."""
    out: list[Assignment] = []
    indonesian = is_indonesian(units)
    doers = Doers.of(units)
    agent = doers.roles.get("staff", "") if "customer" in doers.roles else ""
    customer = doers.roles.get("customer", "") if agent else ""
    speakers = list(dict.fromkeys(u.speaker for u in units if u.speaker))
    names = sorted(doers.names.items(), key=lambda kv: len(kv[0]), reverse=True)
    by_name = (
        re.compile(rf"{_BY}{TITLE}?({'|'.join(re.escape(n) for n, _ in names)})\b")
        if names
        else None
    )

    def task(text: str) -> frozenset[str]:
        return frozenset(task_words(text, indonesian))

    for i, u in enumerate(units):
        if not u.speaker:
            continue
        reply = units[i + 1] if i + 1 < len(units) else None
        prev = units[i - 1] if i > 0 else None
        said_before = ""
        for sent, _, _ in sentences(_body(u)):
            before, said_before = said_before, sent
            low = sent.lower().replace("’", "'")  # (punctuation kept: it ends clauses)
            quote = f"{u.speaker}: {sent}"
            firsts = list(_FIRST.finditer(low))
            if u.speaker == agent:
                firsts += _WE.finditer(low)
            # a customer asking "Do I need to report it?" takes no task: they ask
            asking = u.speaker == customer and sent.rstrip().endswith("?")
            for m in [] if asking else firsts:
                # "I didn't make them", "I think we need ...": no task taken
                if low[m.end() :].split(" ", 1)[0].strip(",") in _NO_TASK:
                    continue
                t = task(clause(low[m.end() :]))
                ctx = _antecedent(clause(low[m.end() :]), low[: m.start()], before, task)
                if len(t) >= MIN_TASK:
                    out.append(Assignment(u.speaker, t, quote))
                elif t and ctx:
                    out.append(Assignment(u.speaker, t, quote, ctx))
                elif len(low.split()) <= SHORT_REPLY and prev and _REQUEST.search(_low(prev)):
                    # "Sure, I'll have them by Wednesday": the task asked for just before
                    asked = _asked_of(prev, u.speaker, names)
                    if asked:
                        out.append(Assignment(u.speaker, task(asked), f"{prev.text} / {sent}"))
            r = _REQUEST.search(low)
            if r:
                owner = _addressee(sent, u.speaker, names, reply, speakers)
                t = task(clause(low[r.end() :]))
                ctx = _antecedent(clause(low[r.end() :]), low[: r.start()], before, task)
                if owner and (len(t) >= MIN_TASK or (t and ctx)):
                    out.append(Assignment(owner, t, quote, ctx))
            for name, full in names:
                if full == u.speaker or name not in sent:
                    continue
                pat = rf"\b{TITLE}?{re.escape(name)}(?:\s+[A-Z][\w'’-]*)?\s+{AUX}(?=[a-z])"
                # a chair reading out an action list: "Actions. Tessa: the reconciliation
                # plan; Omar: check the backups" (a label opening the sentence or an item)
                item = rf"(?:^|;\s*){TITLE}?{re.escape(name)}(?:\s+[A-Z][\w'’-]*)?\s*:\s+"
                for n in itertools.chain(re.finditer(pat, sent), re.finditer(item, sent)):
                    t = task(clause(sent[n.end() :]))
                    if len(t) >= MIN_TASK:
                        out.append(Assignment(full, t, quote))
            for b in by_name.finditer(sent) if by_name else ():
                t = task(clause(sent[: b.start(1)].rsplit(",", 1)[-1]))
                if len(t) >= MIN_TASK:
                    out.append(Assignment(doers.names[b.group(2)], t, quote))
    return out + _merged(out)


def _antecedent(
    clause_text: str, earlier: str, before: str, task: Callable[[str], frozenset[str]]
) -> frozenset[str]:
    """The words "it" or "them" in a task's clause stands for, or none.

    The content words said before it in the sentence ("we don't need a police report from
    you; we report it ourselves"), else in the turn's sentence before ("We're bringing in
    six agency pickers. Sally, can you brief them at one?").
    """
    if not _OBJECT_PRONOUN.search(" ".join(clause_text.split()[:4])):
        return frozenset()
    near = task(earlier)
    return near if len(near) >= MIN_TASK else task(before.lower())


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


def _asked_of(prev: Unit, speaker: str, names: list[tuple[str, str]]) -> str:
    """The request of a turn that a short reply by `speaker` takes on ("" if unclear).

    A chair's turn may hand out several tasks ("Tomasz, please send the forecast. Ewa,
    start the vendor review."): "I'll set that up" takes the one said to its speaker by
    name (a request or a bare imperative), else the turn's one request naming nobody else;
    never the whole turn, which would make the replier the doer of every task in it.
    """
    said = [s for s, _, _ in sentences(_body(prev))]
    own = [first for first, full in names if full == speaker]
    others = [first for first, full in names if full not in (speaker, prev.speaker)]

    def addressed(sent: str, people: list[str]) -> re.Match[str] | None:
        alts = "|".join(re.escape(n) for n in people)
        return re.search(rf"{_VOCATIVE_BEFORE}{TITLE}?(?:{alts})\s*[,?!.]", sent) if alts else None

    mine = [m for m in (addressed(s, own) for s in said) if m]
    if len(mine) == 1:
        return mine[0].string[mine[0].end() :]
    asked = [s for s in said if _REQUEST.search(_low_text(s)) and not addressed(s, others)]
    return asked[0] if len(asked) == 1 and not mine else ""


def _low_text(text: str) -> str:
    return " ".join(words(text))


def _body(u: Unit) -> str:
    return u.text.split(":", 1)[1].strip() if ":" in u.text else u.text


def _low(u: Unit) -> str:
    return _low_text(_body(u))


def clause(text: str) -> str:
    """The text up to the end of its clause (a task is one clause).

    A clause ends at a sentence mark (not a decimal point: "2.4 GHz"), at ", and" / ", but",
    and before another subject ("I'm seeing the dentist, you pick up the girls").
    """
    return re.split(
        r"[;!?]|\.(?!\d)|,\s+(?:and|but|so)\s+|\s+(?:but|because|while)\s+"
        r"|(?:\s+and|,)\s+(?=(?:i|i'll|i've|i'm|we|you|you'll|he|she|they|saya|aku)\b)",
        text,
        flags=re.IGNORECASE,
    )[0]


def _addressee(
    sent: str, speaker: str, names: list[tuple[str, str]], reply: Unit | None, speakers: list[str]
) -> str:
    """Who a request is made of: the person named in it, or the next speaker who agrees.

    A request ending a conversation of two is made of the other speaker.
    """
    named = list(
        dict.fromkeys(
            full
            for first, full in names
            if full != speaker
            and first in sent
            and re.search(rf"{_VOCATIVE_BEFORE}{TITLE}?{re.escape(first)}\s*[,?!.]", sent)
        )
    )
    if reply is None or reply.speaker == speaker or not reply.speaker:
        if not named and reply is None and len(speakers) == 2:  # the call's last word
            return next(s for s in speakers if s != speaker)
        return named[0] if len(named) == 1 else ""
    answer = words(_body(reply))
    refused = bool(answer) and answer[0] in _REFUSAL
    if len(named) == 1:
        return "" if refused and reply.speaker == named[0] else named[0]
    agreed = bool(_AFFIRM.match(" ".join(answer[:3])))
    return reply.speaker if agreed and not refused and not named else ""
