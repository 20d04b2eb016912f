"""No false evidence from ordinary writing: one test per rule, and a corpus of faithful summaries.

The corpus (`faithful_corpus.py`) holds faithful summaries of varied meetings, calls and
documents in English and Indonesian; the offline judge must flag nothing on any of them.
"""

from __future__ import annotations

import pytest

from sumjudge.offline import OfflineScorer
from sumjudge.offline.entities import names, new_names
from sumjudge.offline.numbers import mentions, new_numbers
from sumjudge.offline.source import analyse_source
from sumjudge.offline.text import content, sentences, strip_markup
from sumjudge.text import split_sentences
from sumjudge.transcripts import normalize_source

from .faithful_corpus import CORPUS, MEETING_VTT_EN, Faithful

METRICS = ("coherence", "consistency", "relevance", "fluency")


def _new_numbers(source: str, sentence: str) -> list[str]:
    return new_numbers(sentence, analyse_source(source, None))


def _new_names(source: str, sentence: str) -> list[str]:
    return new_names(sentence, analyse_source(source, None))


@pytest.mark.parametrize(
    ("source", "summary"),
    [
        ("It took forty-one days.", "It took 41 days."),
        ("It took 41 days.", "It took forty-one days."),
        ("The refund arrives in fourteen days.", "The refund arrives in 14 days."),
        ("We sold two hundred and fifty units.", "We sold 250 units."),
        ("Order a dozen chairs.", "Order 12 chairs."),
        ("Half of the team agreed.", "50% of the team agreed."),
        ("A third of the routes switch.", "About 33% of the routes switch."),
        ("Two thirds voted yes.", "67% voted yes."),
        ("It is the twenty-first of May.", "It is 21 May."),
        ("She came third.", "She came 3rd."),
        ("Version two point four ships.", "Version 2.4 ships."),
        ("Rapatnya empat puluh satu menit.", "Rapatnya 41 menit."),
        ("Sisa cuti dua belas hari.", "Sisa cuti 12 hari."),
        ("Biayanya tiga ratus dua puluh lima ribu rupiah.", "Biayanya Rp325.000."),
        ("Anggarannya Rp1,2 miliar.", "Anggarannya 1,2 miliar rupiah."),
        ("Anggarannya dua koma lima juta.", "Anggarannya Rp2,5 juta."),
        ("Ini rapat ketiga.", "Ini rapat ke-3."),
        ("Separuh rak terpasang.", "Setengah rak terpasang."),
        ("The budget is $110K.", "The budget is $110,000."),
        ("Revenue was 2.1 million euros.", "Revenue was €2.1M."),
        ("The cost is 1.2bn.", "The cost is 1,200,000,000."),
    ],
)
def test_numbers_as_words_or_digits_match(source: str, summary: str) -> None:
    """Number words, compounds, ordinals, fractions, decimals and scales match their digits."""
    assert _new_numbers(source, summary) == []


def test_a_changed_number_is_still_found() -> None:
    """The generous reading does not hide a real change."""
    assert _new_numbers("It took forty-one days.", "It took 45 days.") == ["45"]
    assert _new_numbers("Biayanya dua belas ribu.", "Biayanya Rp15.000.") == ["15.000"]
    assert _new_numbers("The budget is $110K.", "The budget is $120,000.") == ["120,000"]


@pytest.mark.parametrize(
    ("source", "summary"),
    [
        ("My account is N L 5 5 0 2 9 8 1.", "The account is NL5502981."),
        ("My account is NL5502981.", "The account is N L 5 5 0 2 9 8 1."),
        ("The code is five five zero two.", "The code is 5502."),
        ("Nomornya 8 8 1 2 0 4 7.", "Nomornya 8812047."),
    ],
)
def test_spelled_out_codes_match(source: str, summary: str) -> None:
    """Digits and letters spelled one by one match the code written together."""
    assert _new_numbers(source, summary) == []


def test_units_are_not_names_and_match_their_spelled_form() -> None:
    """Mbps, GB, km, kg, Rp... are units, not names; "Mbps" is content-equal to "megabits"."""
    assert names("It runs at 100 Mbps and stores 5 Gb, costing Rp 20 ribu for 3 Kg.") == []
    assert set(content("100 Mbps")) == set(content("one hundred megabits"))
    assert set(content("320 km")) == set(content("320 kilometres"))


def test_names_with_apostrophes_and_hyphens() -> None:
    """O'Donnell, D'Souza, O'Brien and Mei-Ling are whole names found in their source."""
    source = "Aoife O'Donnell met Siobhan D'Souza, Liam O'Brien and Mei-Ling Chen."
    assert names("Then O'Donnell called D'Souza.", initial=False) == ["O'Donnell", "D'Souza"]
    for summary in (
        "O'Donnell called D'Souza.",
        "Liam O’Brien agreed with Mei-Ling.",
        "Ms O'Donnell's call was short.",
    ):
        assert _new_names(source, summary) == []
    assert _new_names(source, "O'Donnell called McKenzie.") == ["McKenzie"]


@pytest.mark.parametrize("title", ["Mr", "Ms", "Dr", "Bapak", "Ibu", "Pak", "Bu", "Mbak"])
def test_titles_are_not_names(title: str) -> None:
    """A title is not a name: "Bapak Andi" in a summary of "Pak Andi" names no one new."""
    assert _new_names("Pak Andi dan Sari bertemu.", f"Lalu {title} Andi bertemu Sari.") == []


def test_paraphrased_negation_is_matched() -> None:
    """ "no charge" is backed by "there won't be any charge", "no fee" by "the fee is waived"."""
    scorer = OfflineScorer(use_embeddings=False)
    source = (
        "Customer: Will I have to pay for the engineer visit?\n"
        "Agent: Don't worry, there won't be any charge for the visit.\n"
        "Customer: Good. When does the engineer arrive?\n"
        "Agent: Thursday morning, between eight and twelve.\n"
        "Customer: What about the router?\n"
        "Agent: The engineer brings a replacement router.\n"
        "Customer: Great.\n"
        "Agent: Anything else today?\n"
        "Customer: That's all, thanks.\n"
        "Agent: The setup fee is waived for you as well.\n"
    )
    a = scorer.analyse(source, "There is no charge for the engineer visit and no setup fee.")
    assert all(not si.unmatched_negation for si in a.sentences)
    a = scorer.analyse(source, "The engineer will not bring a replacement router.")
    # the negated sentence restates a plain source sentence: the unmatched "not" (a signal
    # of the models) is cited once, as the contradiction of that sentence
    si = a.sentences[0]
    assert si.unmatched_negation == "not"
    assert si.contradicts == "Agent: The engineer brings a replacement router."
    v = scorer.verdicts(a, ["consistency"], "en")["consistency"]
    assert len(v.evidence) == 1 and "says the opposite" in v.evidence[0] and v.score <= 2


def test_markdown_structure_is_not_evidence(lex: OfflineScorer) -> None:
    """Headings, bold labels, bullets and table rows are structure, not broken sentences."""
    plain = strip_markup(
        "## Tasks\n\n| Name | Task | Due |\n|:--|:--|:-:|\n| Budi | Fix the login page | Wed |\n"
        "**Decisions:**\n- Ship on Friday.\n"
    )
    assert "Name" not in plain and "Tasks" not in plain and "|" not in plain
    assert "Budi; Fix the login page; Wed." in plain
    v = lex.score(
        "Budi: I'll fix the login page by Wednesday.\nAndi: Good, we ship on Friday.\n"
        "Citra: Fine with me.\n",
        "## Tasks\n\n| Name | Task | Due |\n|---|---|---|\n| Budi | Fix the login page | Wed |\n\n"
        "**Decision:** ship on Friday.",
    )
    assert all(not v[m].evidence for m in METRICS), {m: v[m].evidence for m in METRICS}


def test_transcript_markup_is_read_through_the_transcript_reader(lex: OfflineScorer) -> None:
    """WebVTT cue numbers and timings are markup: never content, numbers or omissions."""
    a = lex.analyse(MEETING_VTT_EN.source, MEETING_VTT_EN.summary)
    assert a.source.dialogue
    assert not any("-->" in u.text or "WEBVTT" in u.text for u in a.source.units)
    assert "Priya Raman" in {u.speaker for u in a.source.units}
    assert all(not si.new_numbers for si in a.sentences)
    checks = lex.check_sentences(MEETING_VTT_EN.source, MEETING_VTT_EN.summary)
    assert all("-->" not in c.support_quote for c in checks)
    assert any("Testing is nearly done" in c.support_quote for c in checks)


def test_long_lines_split_like_the_shared_splitter() -> None:
    """The linear-time splitter gives the same sentences as `sumjudge.text.split_sentences`."""
    text = ("Mr. Smith met Dr. Jones in the U.S. yesterday. They talked about budgets. " * 80) + (
        "\nNext line here. And another one."
    )
    assert [s.text for s in sentences(text)] == [s.text for s in split_sentences(text)]
    for s in sentences(text):
        assert text[s.start : s.end] == s.text


def test_numbers_in_a_sentence_are_read_in_order() -> None:
    """A mention keeps what was written, so the evidence quotes the summary."""
    found = [m.written for m in mentions("About forty-one users paid $110K in 2 juta steps.")]
    assert found == ["forty-one", "110K", "2 juta"]


@pytest.mark.parametrize("item", CORPUS, ids=[f.id for f in CORPUS])
def test_faithful_corpus_has_no_evidence_lexical(lex: OfflineScorer, item: Faithful) -> None:
    """No evidence of any kind on a faithful summary (lexical mode)."""
    v = lex.score(item.source, item.summary)
    assert {m: v[m].evidence for m in METRICS} == {m: () for m in METRICS}


def test_identical_to_source_is_never_bad(lex: OfflineScorer) -> None:
    """A summary identical to its source, or made of its sentences, is good on consistency
    and fluency."""
    for item in CORPUS:
        text = normalize_source(item.source)
        for summary in (item.source, " ".join(s.text for s in sentences(text)[:3])):
            v = lex.score(item.source, summary)
            assert v["consistency"].score == 3, (item.id, v["consistency"].explanation)
            assert v["fluency"].score >= 2, (item.id, v["fluency"].explanation)
            assert not v["consistency"].evidence


def test_bold_run_in_labels_are_not_sentences(lex: OfflineScorer) -> None:
    """ "**Impact.** Checkout was down ..." is a labelled paragraph, not a broken "Impact."."""
    assert strip_markup("**Impact.** Checkout was down.\n- **What happened.** It failed.") == (
        "Impact: Checkout was down.\nWhat happened: It failed."
    )
    source = "The payments database failed at noon. Checkout was down for forty minutes."
    summary = (
        "**What happened.** The payments database failed at noon.\n"
        "**Impact.** Checkout was down for 40 minutes."
    )
    v = lex.score(source, summary)
    assert v["fluency"].score >= 2 and not v["fluency"].evidence
