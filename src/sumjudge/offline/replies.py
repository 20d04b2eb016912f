"""A question one speaker asks and the yes or no the next speaker gives, read together.

In a call or meeting a decision is often spread over two turns: "Would you like to add
the mesh booster?" / "No, thanks." Neither turn states it (a question asserts nothing, a
bare "no" names nothing); together they say "the customer does not add the mesh booster".
`polarity` reads such a pair as one source clause, negated when the answer declines
(`words/refusals.txt`) and plain when it agrees (`words/affirmations.txt`).
"""

from __future__ import annotations

from .lexicon import word_set
from .records import Unit
from .text import sentences, words

AGREE = word_set("affirmations")
DECLINE = word_set("refusals")
NEITHER = word_set("non_answers")
WRAPPERS = word_set("question_wrappers")


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
    return asked[k], yes, quote
