"""An act the source says cannot be done, summarised as done (`offline/cannot.py`).

The sources and summaries are written for these tests.
"""

from __future__ import annotations

import pytest

from sumjudge.offline import OfflineScorer
from sumjudge.offline.cannot import refusals
from sumjudge.offline.source import analyse_source

from .conftest import contradicted

_ROAMING = (
    "Agent: Thanks for holding, Mr Okafor. The outage credit of 12 pounds is on your account.\n"
    "Customer: What about the roaming charges? I paid 25 pounds for a travel data pass.\n"
    "Agent: I'm sorry, I can't refund charges from another network. The credit is what I can do.\n"
    "Customer: Alright."
)
_INSURER = (
    "Ines: The boiler claim is approved. The engineer visit is covered.\n"
    "Tom: And the hotel nights?\n"
    "Ines: We won't be able to pay the hotel ourselves, because the policy has no cover for"
    " alternative accommodation, but we'll send a letter confirming the claim.\n"
    "Tom: Understood."
)
_ID = (
    "Agen: Klaim garansi layar disetujui.\n"
    "Pelanggan: Ongkos kirim ke servis diganti juga?\n"
    "Agen: Maaf, kami tidak bisa mengganti ongkos kirim dari kurir lain.\n"
)


def test_the_act_refused_is_read_with_the_request() -> None:
    found = refusals(analyse_source(_ROAMING, None).units).found
    assert [r.act for r in found] == ["refund"]
    assert {"roam", "data", "travel"} <= found[0].about  # (the request names the charges)


@pytest.mark.parametrize(
    ("source", "summary", "cited"),
    [
        (_ROAMING, "The 25 pounds he paid for the roaming data pass will be refunded.", "can't"),
        (
            _INSURER,
            "The insurer will pay the hotel directly, although the policy has no such cover.",
            "won't be able to",
        ),
        (_ID, "Ongkos kirim dari kurir lain akan diganti oleh agen.", "tidak bisa"),
    ],
)
def test_a_refused_act_stated_as_done_is_cited(
    lex: OfflineScorer, source: str, summary: str, cited: str
) -> None:
    got = contradicted(lex, source, summary)
    assert len(got) == 1
    assert cited in got[0]


@pytest.mark.parametrize(
    ("source", "summary"),
    [
        (_ROAMING, "The 25 pounds for the roaming data pass cannot be refunded."),
        (_ROAMING, "He asked whether the roaming data pass could be refunded; it could not."),
        (_INSURER, "The insurer will not pay the hotel; a letter confirms the claim."),
        (_ID, "Ongkos kirim dari kurir lain tidak bisa diganti."),
    ],
)
def test_faithful_twins_are_not_cited(lex: OfflineScorer, source: str, summary: str) -> None:
    assert not contradicted(lex, source, summary)


def test_a_refusal_overturned_later_is_not_cited(lex: OfflineScorer) -> None:
    source = (
        "Customer: Can you refund the delivery fee for the late sofa?\n"
        "Agent: I can't refund the delivery fee from here, sorry.\n"
        "Customer: It was three weeks late.\n"
        "Agent: Let me ask my manager. Okay, she agreed: I'll refund the delivery fee today."
    )
    summary = "The agent refunded the delivery fee for the late sofa."
    assert not contradicted(lex, source, summary)


_HEDGED = (
    "Mira: You asked about the audit lead role for next year.\n"
    "Tariq: Yes, I'd like to take it on.\n"
    "Mira: I'll put you forward for the audit lead at the board meeting on Friday. I can't"
    " promise it, because the board chooses, but I'll support you.\n"
    "Tariq: Thanks."
)


def test_a_hedged_statement_reported_as_settled_is_cited(lex: OfflineScorer) -> None:
    summary = "Mira has appointed Tariq audit lead; the board meeting on Friday will announce it."
    got = contradicted(lex, _HEDGED, summary)
    assert len(got) == 1
    assert "can't promise" in got[0]


@pytest.mark.parametrize(
    "summary",
    [
        "Mira will put Tariq forward as audit lead at the board meeting on Friday, but the"
        " board decides.",
        "Tariq wants the audit lead role; Mira supports him but cannot promise it.",
    ],
)
def test_hedged_faithful_twins_are_not_cited(lex: OfflineScorer, summary: str) -> None:
    assert not contradicted(lex, _HEDGED, summary)


def test_a_hedge_settled_later_is_not_cited(lex: OfflineScorer) -> None:
    source = _HEDGED + "\nMira: Update: the board approved it today, you are appointed audit lead."
    summary = "Tariq was appointed audit lead after the board meeting on Friday."
    assert not contradicted(lex, source, summary)
