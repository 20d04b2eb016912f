"""What a negation bears on (`decisions.negation_scope`): "any" marks the negated object.

The sentences are written for these tests.
"""

from __future__ import annotations

import pytest

from sumjudge.offline import OfflineScorer
from sumjudge.offline.decisions import negation_scope
from sumjudge.offline.text import words

from .conftest import contradicted


def _scope(text: str) -> set[str]:
    ws = words(text)
    return negation_scope(ws, [i for i, w in enumerate(ws) if w in {"not", "no", "never"}])


def test_any_carries_the_negation_to_its_object() -> None:
    assert _scope("we are not asking for any extension") == {"ask", "extension"}
    assert _scope("they did not order any new chairs") == {"order", "chair"}
    assert _scope("we are not asking for an extension") == {"ask"}


_SOURCE = (
    "Elif: The deadline for the grant report is Friday.\n"
    "Jonas: We are not asking for any extension to the grant report deadline.\n"
    "Elif: Good, then Jonas sends the draft on Wednesday."
)


def test_a_denied_object_stated_as_done_is_cited(lex: OfflineScorer) -> None:
    a = lex.analyse(_SOURCE, "An extension to the grant report deadline will be requested.")
    assert [si.contradicts for si in a.sentences if si.contradicts] == [
        "Jonas: We are not asking for any extension to the grant report deadline."
    ]


@pytest.mark.parametrize(
    "summary",
    [
        "No extension to the grant report deadline will be requested.",
        "The team will not ask for an extension to the grant report deadline.",
        "Jonas sends the draft of the grant report on Wednesday.",
    ],
)
def test_faithful_twins_are_not_cited(lex: OfflineScorer, summary: str) -> None:
    assert not contradicted(lex, _SOURCE, summary)
