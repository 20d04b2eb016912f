"""Choices written "chose X over Y" and "X daripada Y" (`offline/decisions.choice`).

The sources and summaries are written for these tests.
"""

from __future__ import annotations

import pytest

from sumjudge.offline import OfflineScorer
from sumjudge.offline.decisions import choice

from .conftest import contradicted

_SOURCE = (
    "Ruth: Two sites are left for the new depot, Leeds and Bristol.\n"
    "Sam: Leeds is cheaper to lease, Bristol is closer to the port.\n"
    "Ruth: Then we go with Bristol over Leeds for the new depot.\n"
    "Sam: Agreed."
)
_ID = (
    "Agen: Bapak bisa pindah ke paket dasar atau berhenti langganan.\n"
    "Pelanggan: Saya pilih paket dasar daripada berhenti langganan.\n"
)


@pytest.mark.parametrize(
    ("text", "split"),
    [
        ("They chose the evening flight over the morning one", ("evening flight", "morning")),
        ("Pelanggan memilih paket dasar daripada berhenti", ("paket dasar", "berhenti")),
        ("He explained it over the phone", ("explained it over the phone", "")),
        ("Prices rose over the year", ("rose over the year", "")),
    ],
)
def test_a_choice_over_another(text: str, split: tuple[str, str]) -> None:
    head, tail = choice(text)
    assert split[0] in head
    assert (split[1] in tail) if split[1] else not tail


@pytest.mark.parametrize(
    ("source", "summary"),
    [
        (_SOURCE, "The team went with Leeds over Bristol for the new depot."),
        (_ID, "Pelanggan memilih berhenti langganan daripada paket dasar."),
    ],
)
def test_a_choice_made_the_other_way_is_cited(
    lex: OfflineScorer, source: str, summary: str
) -> None:
    assert contradicted(lex, source, summary)


@pytest.mark.parametrize(
    ("source", "summary"),
    [
        (_SOURCE, "The team went with Bristol over Leeds for the new depot."),
        (_SOURCE, "Bristol was chosen for the new depot; Leeds was cheaper to lease."),
        (_ID, "Pelanggan memilih paket dasar daripada berhenti langganan."),
    ],
)
def test_faithful_twins_are_not_cited(lex: OfflineScorer, source: str, summary: str) -> None:
    assert not contradicted(lex, source, summary)
