"""A question one speaker asks and the yes or no the next speaker gives, read together.

In a call or meeting a decision is often spread over two turns: "Would you like to add
the mesh booster?" / "No, thanks." Neither turn states it (a question asserts nothing, a
bare "no" names nothing); together they say "the customer does not add the mesh booster".
`polarity` reads such a pair as one source clause, negated when the answer declines
(`words/refusals.txt`) and plain when it agrees (`words/affirmations.txt`). A question
that names its proposal only by a pronoun ("The dark mode request keeps coming up. Are we
taking it?") is read with the sentence before it in the same turn, which names it.
"""

from __future__ import annotations

from .lexicon import word_set
from .records import Unit
from .text import content_of, sentences, words

AGREE = word_set("affirmations")
DECLINE = word_set("refusals")
NEITHER = word_set("non_answers")
WRAPPERS = word_set("question_wrappers")
# a pronoun standing for the thing proposed ("are we taking it?", "mau diambil itu?")
_REFERRING = frozenset({"it", "them", "that", "this", "itu", "ini"})


def body(u: Unit, text: str) -> str:
    """A unit's text without its "Speaker:" head."""
    return text.split(":", 1)[1] if u.speaker and ":" in text else text


def answer(text: str) -> bool | None:
    """True when a reply agrees ("Yes, please"), False when it declines ("No, thanks")."""
    ws = words(text)[:2]
    if " ".join(ws) in NEITHER:
        return None
    heads = [" ".join(ws[:2]), ws[0]] if ws else []
    for head in heads:  # the two-word heads first: "no problem" agrees, "no thanks" not
        if head in AGREE:
            return True
        if head in DECLINE:
            return False
    return None


def answered(question: Unit, reply: Unit) -> tuple[str, bool, str] | None:
    """The question of one turn the next speaker's turn answers yes or no, or None.

    Returns:
        The question as resolved ("Would Customer like to add the booster?": the people
        named, not "you"), whether the answer agrees, and the two turns' quote.
    """
    if not question.speaker or not reply.speaker or question.speaker == reply.speaker:
        return None
    asked = [s for s, _, _ in sentences(body(question, question.resolved))]
    written = [s for s, _, _ in sentences(body(question, question.text))]
    said = [s for s, _, _ in sentences(body(reply, reply.text))]
    # the turn's last question (an offer is often followed by its price: "... ? It is 5
    # pounds a month.")
    last = [k for k, s in enumerate(asked) if s.rstrip().endswith("?")]
    if not last or not said:
        return None
    yes = answer(said[0])
    if yes is None:
        return None
    k = last[-1]
    shown = written[k] if len(written) == len(asked) else asked[k]
    quote = f"{question.speaker}: {shown.strip()} / {reply.speaker}: {said[0].strip()}"
    return _with_referent(asked, k), yes, quote


def _with_referent(asked: list[str], k: int) -> str:
    """Question `k` of a turn, with the words of the sentence before when it refers back.

    "Are we taking it?" after "The dark mode request keeps coming up." is read as "Are we
    taking it? dark mode request ...": the proposal's words are the earlier sentence's.
    A question with three content words of its own names what it means: read as it is.
    """
    ws = words(asked[k])
    # (a person, a capitalised name, is not what is proposed)
    lower = words(" ".join(w for w in asked[k].split() if w[:1].islower()))
    own = [w for w in content_of(lower) if w not in WRAPPERS]
    if k == 0 or _REFERRING.isdisjoint(ws) or len(own) >= 3:
        return asked[k]
    before = " ".join(w for w in words(asked[k - 1]) if content_of([w]))
    return f"{asked[k]} {before}"
