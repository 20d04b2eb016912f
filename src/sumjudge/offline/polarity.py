"""Summary sentences that say the opposite of the source passage they restate.

Each summary clause is paired with the source clauses that share its content words, in
the passages the sentence is matched to (its best window and the units next to it), most
shared words first. Readings of such a pair:

- negation: one clause negates what the other states plainly ("Extended support is not
  offered" / "Ana offered extended support"; "we agreed not to move" / "agreed to move"),
  the negation bearing on a word the two share;
- contrary words and relations (`decisions`): the clauses use the two sides of a contrary
  pair (`words/contraries.txt`: approved / rejected, keep / cancel, waive / charge, on
  time / late), each only its own side, or of a relation about the same thing
  (`words/relations.txt`: "before release" / "after release");
- choices and conditions: "X rather than Y" asserts X and reads Y as negated; two choices
  naming the same options the other way round are opposed; "X only if Y" is X marked
  conditional (against "automatically"), asserting nothing of Y;
- a yes or no read with the question it answers (`replies`): "Would you like the
  booster?" / "No, thanks" is the negated clause "the booster".

Votes called unanimous against a recorded vote are read in `votes`.

What faithful writing does and is not flagged: a clause with a word that limits or turns
what it asserts ("on hold", "until", "only", "free", "without": `words/negative_sense.txt`)
is never read as the plain opposite of a negated clause; the pair must share two content
words, half of the shorter clause's; a source sentence using both sides of a contrary pair
is a contrast, not the opposite; and a source clause anywhere that holds the words the
pair shares without opposing the summary clause clears it (the source may give a proposal
and then the decision).
"""

from __future__ import annotations

from dataclasses import replace

from .clauses import Clause, clauses, passage_clauses
from .decided import settled_otherwise
from .decisions import (
    CONTRARY_WORDS,
    contrary_sides,
    opposite_relation,
    relation_sides,
    same_word,
    shared_words,
)
from .denials import denied_outright
from .motions import reversed_outcome
from .qualified import qualified_both_ways
from .records import SourceInfo
from .replies import WRAPPERS, answered
from .text import content_of, stem, words
from .votes import reversed_vote as reversed_vote  # (its old home: `features` imports it)

# the clauses must share this many content words (beyond contrary words), and this share
# of the shorter clause's content words: a restatement, not two sentences on one topic
MIN_SHARED = 2
MIN_COVER = 0.5


def opposed(s: Clause, t: Clause, names: frozenset[str] = frozenset()) -> bool:
    """Whether summary clause `s` says the opposite of source clause `t` (see the module).

    `names` are the words of the speakers' names: two clauses about the same people share
    them whatever they say ("Amelia has a surprise for Emily" / "Amelia can't tell Emily").
    """
    if s.numbers and t.numbers and s.numbers.isdisjoint(t.numbers):
        return False  # about other figures ("429 errors" against "5xx errors")
    if t.answerer and s.content & names and not s.content & t.answerer:
        return False  # a yes or no is the answerer's: a statement about others is not it
    shared = _key_words(s, t, names)
    smaller = min(len(s.content - names), len(t.content - names))
    if len(shared) < MIN_SHARED or len(shared) < MIN_COVER * smaller:
        return False
    if s.negated != t.negated:
        neg, plain = (t, s) if t.negated else (s, t)
        # a limiting or negative word in one clause only ("on hold until March" against
        # "not before March", "don't forget to" against "reminds to") may be how the
        # negation was paraphrased; one both clauses use is not
        if _own_sense(plain, neg) or _own_sense(neg, plain):
            return False
        if not any(same_word(x, y) for x in neg.scope for y in plain.content):
            return False  # the negation is about something the other clause does not say
        # "not approved" against "rejected": the plain clause's contrary word agrees (one
        # both clauses use is not how the negation was paraphrased: "no payment was taken
        # for the failed orders" / "payment was taken for the failed orders")
        return not any(side == 1 and (k, side) not in neg.sides for k, side in plain.sides)
    return opposite_relation(s.relations, t.relations) or any(
        (k, 1 - side) in t.sides and (k, side) not in t.sides and (k, 1 - side) not in s.sides
        for k, side in s.sides
    )


def answer_clauses(info: SourceInfo, region: range) -> list[tuple[Clause, str]]:
    """The questions of the turns in `region` the next speaker answers, read as clauses.

    "Would you like to add the booster?" / "No, thanks." is the negated clause "add the
    booster" (its negation bears on all of it); with "Yes, please" it is the plain clause
    (`replies`). A negative question ("Don't you want it?" / "No.") is left out: which way
    its answer goes is not in the words.
    """
    names = speaker_words(info)
    out: list[tuple[Clause, str]] = []
    for i in region:
        got = answered(info.units[i], info.units[i + 1]) if i + 1 < len(info.units) else None
        if got is None:
            continue
        question, yes, quote = got
        c = Clause.of(question)
        # the "no" bears on what is proposed: the first content word that is neither a
        # person (a speaker, a capitalised name) nor a wrapper ("would you like to add the
        # booster": "add")
        lower = [w for w in question.split() if w[:1].islower()]
        proposal = [w for w in content_of(words(" ".join(lower))) if w not in names | WRAPPERS]
        if not c.negated and proposal:
            c = replace(c, answerer=_name_words(info.units[i + 1].speaker))
            no = replace(c, negated=True, scope=frozenset(proposal[:1]))
            out.append((c if yes else no, quote))
    return out


def _name_words(speaker: str) -> frozenset[str]:
    return frozenset(content_of(words(speaker)))


def _key_words(s: Clause, t: Clause, names: frozenset[str]) -> set[str]:
    """The content words two clauses share (in any inflection), but the speakers' names."""
    return shared_words(s.content - names, t.content)


def _contrast_in(quote: str, s: Clause, t: Clause) -> bool:
    """Whether the source sentence holding `t` also uses the contrary word `s` uses.

    "The picker sits above the fold on desktop but below it on phones" contrasts two
    cases; a summary saying "below the fold on phones" restates its second clause.
    """
    if s.negated != t.negated:
        return False
    ws = words(quote)
    whole = contrary_sides(ws)
    sides = [(k, side) for k, side in s.sides if (k, 1 - side) in t.sides]
    by_relation = opposite_relation(s.relations, t.relations)
    both = {k for k, _, _ in relation_sides(ws)} & {k for k, _, _ in s.relations}  # "below it"
    return all(x in whole for x in sides) and (
        not by_relation
        or any({(k, 0), (k, 1)} <= {(k2, x) for k2, x, _ in relation_sides(ws)} for k in both)
    )


def _own_sense(a: Clause, b: Clause) -> bool:
    """Whether clause `a` has a limiting word ("until", "waived") that `b` has in no form."""
    return any(not any(same_word(stem(x), stem(y)) for y in b.words) for x in a.sense - b.words)


def contradiction(sentence: str, region: range, info: SourceInfo) -> str:
    """The source sentence a summary sentence contradicts, or "" (see the module).

    Args:
        sentence: The summary sentence.
        region: The source units it is matched to (its best window and their neighbours).
        info: The analysed source.

    Returns:
        The source sentence as written ("Speaker: ..." in a transcript), or "".
    """
    if sentence.rstrip().endswith("?"):
        return ""  # a question asserts nothing
    names = speaker_words(info)
    near = [pc for i in region for pc in passage_clauses(info.units[i])]
    near += answer_clauses(info, region)
    if not near:
        return ""
    for s in clauses(sentence):
        if len(s.content) < MIN_SHARED:
            continue
        # the source clauses it restates, most shared words first: the first one it says
        # the opposite of, unless a source clause that holds the words they share says
        # what the summary says (the source may state both: a proposal, then the decision)
        overlap = [len(shared_words(s.content, t.content)) for t, _ in near]
        for k in sorted(range(len(near)), key=lambda k: -overlap[k]):
            t, quote = near[k]
            if overlap[k] < MIN_SHARED:
                break
            if (
                opposed(s, t, names)
                and not _contrast_in(quote, s, t)
                and not _restated_elsewhere(s, _key_words(s, t, names), info, names)
            ):
                return quote
    return (
        _contrary_sentence(sentence, region, info, names)
        or settled_otherwise(sentence, region, info)  # choices, offers, refusals (`decided`)
        or reversed_outcome(sentence, info)  # a vote's outcome, read by its noun
        or qualified_both_ways(sentence, list(dict.fromkeys(q for _, q in near)), names)
        or denied_outright(clauses(sentence), near, names)
    )


def _contrary_sentence(
    sentence: str, region: range, info: SourceInfo, names: frozenset[str]
) -> str:
    """A source sentence using the other side of a contrary pair about the same thing.

    A decision is often recorded in a short clause of its own ("The motion is carried, 18
    to 4"), too short to share two words with the summary's clause, and away from where it
    was discussed: the contrary words are read in whole sentences of the matched passages
    and of any unit sharing two content words with the clause; the sentence must share two
    content words (half of the summary clause's) and have no word of the summary's side.
    """
    # its clauses, and the sentence whole: a decision's word stands apart ("... : carried")
    for s in [*clauses(sentence), Clause.of(sentence)]:
        # (without its contrary words: the source sentence has the other side's)
        own = s.content - names - {stem(w) for w in s.words & CONTRARY_WORDS}
        if not s.sides or len(own) < MIN_SHARED:
            continue
        # the matched passages, and any unit about the same thing (a vote's result is often
        # recorded far from where the motion is discussed)
        units = set(region) | {
            i for i, c in enumerate(info.unit_content) if len(own & c) >= MIN_SHARED
        }
        whole = [
            (Clause.of(q), q)
            for i in sorted(units)
            for q in dict.fromkeys(quote for _, quote in passage_clauses(info.units[i]))
        ]
        for k, side in s.sides:
            if (k, 1 - side) in s.sides:
                continue  # (it names both sides: "before tax instead of after")
            for t, quote in whole:
                shared = shared_words(own, t.content)
                if (
                    (k, 1 - side) in t.sides
                    and (k, side) not in t.sides
                    and len(shared) >= max(MIN_SHARED, MIN_COVER * len(own))
                    and s.negated == t.negated
                    and not (s.numbers and t.numbers and s.numbers.isdisjoint(t.numbers))
                    and _said_of(own, s.numbers, (k, 1 - side), quote)
                ):
                    return quote
    return ""


def _said_of(
    own: frozenset[str], numbers: frozenset[str], side: tuple[int, int], quote: str
) -> bool:
    """Whether a source sentence says `side` (contrary pair, side) of the thing `own`.

    Not when the clause saying it is about a thing of its own: "I propose A, and B is
    deferred" does not defer A (nor does "B is deferred to Q4" defer "A in Q3").
    """
    for c in clauses(quote):
        if numbers and c.numbers and numbers.isdisjoint(c.numbers):
            continue
        if side in c.sides:
            its_own = c.content - {stem(w) for w in c.words & CONTRARY_WORDS}
            if shared_words(own, c.content) or len(its_own) < MIN_SHARED:
                return True
    return False


def _restated_elsewhere(s: Clause, key: set[str], info: SourceInfo, names: frozenset[str]) -> bool:
    """Whether a source clause anywhere holds the words `key` and does not oppose `s`."""
    for i, unit_words in enumerate(info.unit_content):
        if len(shared_words(frozenset(key), frozenset(unit_words))) < len(key):
            continue
        for t, _ in passage_clauses(info.units[i]):
            if len(shared_words(frozenset(key), t.content)) == len(key) and not opposed(
                s, t, names
            ):
                return True
    return False


def speaker_words(info: SourceInfo) -> frozenset[str]:
    """The content words of the speakers' names."""
    return frozenset(w for name in info.speakers for w in content_of(name.split()))
