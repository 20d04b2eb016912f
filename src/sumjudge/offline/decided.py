"""How a call or meeting settled a thing, read where the clause alignment cannot.

`polarity` pairs a summary clause with the source clause it restates. A decision is often
not stated in one clause: it is a choice between two options, the reply to an offer, or a
refusal of what was asked. The readings here, each giving the source sentence the summary
sentence reports the other way round:

- a choice made the other way round ("frozen rather than cancelled" against "we'll cancel
  it rather than freeze it", `decisions.swapped`);
- an offer settled the other way (`offers`): "he turned down the 19:50 flight" where the
  reply to it was "Fine, let's do that one";
- an act the source refuses ("we can't refund you ourselves", `cannot`) stated as done;
- a decision given to the other of two people or things decided together
  (`decision_swaps`): "Ben is the backup; Ana is turned down" against "Ana is the
  backup; we are turning down Ben".
"""

from __future__ import annotations

from .cannot import refused_but_done
from .decision_swaps import given_to_the_other
from .decisions import CLAUSE, chosen_and_turned_down, swapped
from .offers import settled_otherwise as offer_settled_otherwise
from .records import SourceInfo
from .replies import body
from .text import sentences


def settled_otherwise(sentence: str, region: range, info: SourceInfo) -> str:
    """The source sentence a summary sentence reports the other way round, or "".

    The arguments and the sentence returned are those of `polarity.contradiction`: the
    summary sentence, the source units it is matched to, and the analysed source.
    """
    return (
        swapped_choice(sentence, region, info)
        or offer_settled_otherwise(sentence, info)
        or refused_but_done(sentence, info)
        or given_to_the_other(sentence, info)
    )


def swapped_choice(sentence: str, region: range, info: SourceInfo) -> str:
    """The source sentence making the summary's choice the other way round, or "".

    "The membership was frozen rather than cancelled" against "we'll cancel it rather than
    freeze it": the option chosen and the one turned down trade places (`decisions`).
    """
    said = [c for piece in CLAUSE.split(sentence) if (c := chosen_and_turned_down(piece))]
    if not said:
        return ""
    for i in region:
        u = info.units[i]
        for sent, _, _ in sentences(body(u, u.text)):
            for piece in CLAUSE.split(sent):
                made = chosen_and_turned_down(piece)
                if made and any(swapped(c, made) for c in said):
                    return f"{u.speaker}: {sent.strip()}" if u.speaker else sent.strip()
    return ""
