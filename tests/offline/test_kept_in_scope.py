"""A thing kept "in" a plan against one "deferred" (`offline/decisions.kept_in`).

The sources and summaries are written for these tests.
"""

from __future__ import annotations

import pytest

from sumjudge.offline import OfflineScorer
from sumjudge.offline.decisions import kept_in

from .conftest import contradicted

_SOURCE = (
    "Maya: We can fund two of the three Q3 items: the billing export, the audit log and"
    " the dark theme.\n"
    "Omar: The audit log is what the bank asked for.\n"
    "Maya: Then I propose the billing export and the audit log for Q3, and the dark theme"
    " is postponed to Q4.\n"
    "Omar: Agreed."
)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("- **Dark theme** (in, as planned)", "(in scope, as planned)"),
        ("The audit log is in.", "is in scope."),
        ("The audit log stays in", "stays in scope"),
        ("He was in a meeting.", "He was in a meeting."),
        ("Is it in?", "Is it in?"),
    ],
)
def test_a_things_in_is_read_as_in_scope(text: str, read: str) -> None:
    assert read in kept_in(text)


@pytest.mark.parametrize(
    "summary",
    [
        "- **Dark theme** (in, replacing the audit log): asked for by many users.",
        "The dark theme is in.",
    ],
)
def test_a_deferred_thing_called_in_is_cited(lex: OfflineScorer, summary: str) -> None:
    got = contradicted(lex, _SOURCE, summary)
    assert len(got) == 1
    assert "postponed" in got[0]


@pytest.mark.parametrize(
    "summary",
    [
        "- **Billing export** (in): funded for Q3.",
        "- **Audit log** (in): the bank asked for it.",
        "- **Dark theme** (postponed to Q4).",
    ],
)
def test_faithful_twins_are_not_cited(lex: OfflineScorer, summary: str) -> None:
    assert not contradicted(lex, _SOURCE, summary)


_PUSHED = (
    "Lead: For Q3 we keep the search revamp. The export feature is pushed to next quarter.\n"
    "Dev: Fine by me.\n"
)


@pytest.mark.parametrize(
    "summary",
    [
        "The export feature is in for Q3.",
        "The export feature stays in scope.",
        "The search revamp is pushed to next quarter.",
    ],
)
def test_kept_and_pushed_to_next_quarter_are_opposed(lex: OfflineScorer, summary: str) -> None:
    assert contradicted(lex, _PUSHED, summary)


@pytest.mark.parametrize(
    "summary",
    [
        "The search revamp is kept for Q3; the export feature is pushed to next quarter.",
        "The search revamp is in for Q3.",
    ],
)
def test_kept_and_pushed_faithful_twins(lex: OfflineScorer, summary: str) -> None:
    assert not contradicted(lex, _PUSHED, summary)
