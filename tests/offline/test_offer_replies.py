"""An offer settled by the reply after it (`offline/offers.py`), read against a summary.

"There's the 9:40 train." / "Fine, let's do that one." is taken up; a summary saying the
caller turned the 9:40 down says the opposite, and the converse. The sources and summaries
are written for these tests.
"""

from __future__ import annotations

import pytest

from sumjudge.offline import OfflineScorer
from sumjudge.offline.offers import settled, stance
from sumjudge.offline.source import analyse_source

from .conftest import contradicted

_TAKEN = (
    "Agent: Thanks for calling Railway Direct. Which journey is it?\n"
    "Customer: York to Leeds on Saturday. My train was cancelled.\n"
    "Agent: There's the 9:40 on Saturday instead. It gets in at 10:25, no extra fare.\n"
    "Customer: Early, but fine. Let's do that one.\n"
    "Agent: Done, your ticket for the 9:40 is on its way by email."
)
_HESITATED = (
    "Agent: For the outage I can lend you a portable heater while the boiler part is on order.\n"
    "Customer: The part may come on Monday anyway...\n"
    "Agent: True, but it could slip. I'd still suggest it.\n"
    "Customer: Okay, send it.\n"
    "Agent: It goes out today by van."
)
_TURNED_DOWN = (
    "Agent: While you're on the line, would you like the travel insurance add-on for the "
    "Saturday trip? It's six pounds.\n"
    "Customer: I'd rather not, thanks.\n"
    "Agent: No problem. Your booking is confirmed."
)


@pytest.mark.parametrize(
    ("reply", "taken"),
    [
        ("Late, but fine. Let's do the evening one.", True),
        ("Okay, send it.", True),
        ("Go ahead.", True),
        ("I'd rather not, thanks.", False),
        ("No, that's fine.", False),
        ("Not sure yet.", None),
        ("The part may come on Monday anyway...", None),
    ],
)
def test_a_replys_stance(reply: str, taken: bool | None) -> None:
    assert stance(reply) is taken


def test_an_offer_named_by_a_pronoun_is_read_with_the_turn_naming_it() -> None:
    offers = settled(analyse_source(_HESITATED, None).units)
    assert [o.taken for o in offers] == [True]
    assert {"heater", "portable"} <= offers[0].offer


@pytest.mark.parametrize(
    ("source", "summary", "cited"),
    [
        (_TAKEN, "The customer turned down the 9:40 train on Saturday.", "Let's do that one"),
        (_HESITATED, "He declined the portable heater, since the part may come Monday.", "send it"),
        (_TURNED_DOWN, "The customer accepted the travel insurance add-on.", "I'd rather not"),
    ],
)
def test_an_offer_reported_the_other_way_is_cited(
    lex: OfflineScorer, source: str, summary: str, cited: str
) -> None:
    got = contradicted(lex, source, summary)
    assert len(got) == 1
    assert cited in got[0]


@pytest.mark.parametrize(
    ("source", "summary"),
    [
        (_TAKEN, "The customer took the 9:40 on Saturday, arriving at 10:25."),
        (_TAKEN, "He accepted the 9:40 train on Saturday."),
        (_HESITATED, "After some hesitation he accepted the portable heater, sent today."),
        (_TURNED_DOWN, "The customer declined the travel insurance add-on for six pounds."),
    ],
)
def test_faithful_twins_are_not_cited(lex: OfflineScorer, source: str, summary: str) -> None:
    assert not contradicted(lex, source, summary)


def test_an_offer_between_alternatives_needs_the_reply_to_name_the_option(
    lex: OfflineScorer,
) -> None:
    source = (
        "Agent: I can offer the 9:40 on Saturday or the 14:10 on Sunday.\n"
        "Customer: Fine, the Sunday one.\n"
        "Agent: Booked."
    )
    summary = "The customer turned down the 9:40 on Saturday and took the Sunday train."
    assert not contradicted(lex, source, summary)


_ID = (
    "Agen: Selamat siang, dengan Rina. Ada yang bisa dibantu?\n"
    "Pelanggan: Internet saya lambat terus sejak minggu lalu.\n"
    "Agen: Kami bisa pindahkan Bapak ke paket 50 Mbps, harganya Rp250 ribu per bulan.\n"
    "Pelanggan: Agak mahal, tapi boleh. Ambil saja yang itu.\n"
    "Agen: Baik, paket 50 Mbps aktif besok pagi.\n"
)


def test_an_indonesian_offer_taken_up_reported_as_declined_is_cited(lex: OfflineScorer) -> None:
    summary = "Pelanggan menolak paket 50 Mbps karena terlalu mahal."
    got = contradicted(lex, _ID, summary)
    assert len(got) == 1
    assert "boleh" in got[0]


@pytest.mark.parametrize(
    "summary",
    [
        "Pelanggan memilih paket 50 Mbps seharga Rp250 ribu per bulan.",
        "Pelanggan setuju pindah ke paket 50 Mbps, aktif besok pagi.",
    ],
)
def test_indonesian_faithful_twins_are_not_cited(lex: OfflineScorer, summary: str) -> None:
    assert not contradicted(lex, _ID, summary)
