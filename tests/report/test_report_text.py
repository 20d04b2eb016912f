"""Escaping and highlighting helpers of the report: whole-word matching, control characters."""

from __future__ import annotations

from sumjudge.report import build_items
from sumjudge.report.detail import render_detail
from sumjudge.report.highlight import clean, esc, find, render_spans, short_labels


def test_a_word_is_not_found_inside_a_longer_word() -> None:
    text = "Selamat pagi. Selama tiga hari mesin rusak."
    assert find(text, "Selama") == (14, 20)
    assert find("Selamat pagi semua.", "selama") is None
    assert find("selamanya", "Selama") is None


def test_matching_ignores_case_and_works_on_unicode_words() -> None:
    assert find("Über Straßen", "über") == (0, 4)
    assert find("Großstadt", "stadt") is None
    assert find("Café au lait", "café") == (0, 4)
    assert find("Cafés au lait", "café") is None


def test_a_phrase_matches_at_word_boundaries_on_both_ends() -> None:
    text = "Mesin sortir kedua rusak sejak 8 Mei.\nDua kurir tetap."
    assert find(text, "sortir  kedua rusak") == (6, 24)
    assert find(text, "ortir kedua rusak") is None  # starts inside "sortir"
    assert find(text, "sortir kedua rusa") is None  # ends inside "rusak"
    assert find("It costs $30, paid.", "$30") == (9, 12)  # punctuation ends need no boundary
    assert find("the customer's bill", "customer’s bill") == (4, 19)


def test_the_indonesian_example_no_longer_marks_selama_inside_selamat() -> None:
    record = {
        "index": 0,
        "summary": {
            "relevancy_rating": "bad",
            "fluency": {
                "score": 1,
                "explanation": "broken",
                "evidence": ['kalimat rusak (ends with "selama"): "Selamat pagi ..."'],
            },
        },
        "source": "Selamat pagi, semua. Mesin rusak selama dua hari.",
    }
    (item,) = build_items([record], [{"summary": "Selamat pagi. Rusak selama."}])
    html = render_detail(item)
    assert "Selama</mark>t" not in html and "selama</mark>t" not in html
    assert '<mark class="ev"' in html  # "Selamat pagi" itself is still found


def test_control_characters_and_terminal_escapes_are_removed() -> None:
    raw = "a\x00b\x07c \x1b[31mred\x1b[0m \x1b]0;title\x07done\ttab\nline\x7f\x9b2J"
    assert clean(raw) == "abc red done\ttab\nline"
    assert esc("<\x1b[1mb\x1b[0m>") == "&lt;b&gt;"
    assert clean("broken \ud800 surrogate") == "broken \ufffd surrogate"
    assert clean("plain text") == "plain text"
    # Highlight offsets still line up when the marked text holds a control character.
    html = render_spans("x\x00 word y", [(3, 7, "ev", "t\x07", "")])
    assert html == 'x <mark class="ev" title="t">word</mark> y'


def test_a_report_holds_no_control_characters_from_the_records() -> None:
    from sumjudge.report import render_report

    bad = "\x1b[31mred\x1b[0m\x00\x07"
    record = {
        "index": 0,
        "id": f"id{bad}",
        "summary": {
            "relevancy_rating": "good",
            "coherence": {"score": 3, "explanation": f"fine{bad}", "evidence": [f'"x{bad}yz"']},
        },
    }
    html = render_report(
        [record], inputs=[{"id": f"id{bad}", "source": f"src{bad}", "summary": f"sum{bad}"}]
    )
    assert not any(ch in html for ch in "\x00\x07\x1b")
    assert "[31m" not in html
    assert "finered" in html and "srcred" in html and "sumred" in html


def test_short_labels_keep_distinct_ids_distinct() -> None:
    ids = [
        "summeval-cnn-test-404f859482d47c127868964a9a39d1a7645dd2e9-M0",
        "summeval-cnn-test-404f859482d47c127868964a9a39d1a7645dd2e9-M1",
        "summeval-cnn-test-404f859482d47c127868964a9a39d1a7645dd2e9-M10",
        "short-id",
        "x" * 40 + "-same-ending-for-a-long-while",
        "y" * 40 + "-same-ending-for-a-long-while",
        "x" * 10 + "z" * 30 + "-same-ending-for-a-long-while",
    ]
    labels = short_labels(ids)
    assert set(labels) == set(ids)
    assert len(set(labels.values())) == len(ids)
    assert labels["short-id"] == "short-id"
    assert labels[ids[0]].endswith("-M0") and labels[ids[1]].endswith("-M1")
    for value, label in labels.items():
        assert label == value or (
            "…" in label and value.startswith(label.split("…")[0])
            and value.endswith(label.split("…")[1])
        )  # fmt: skip
    assert short_labels([ids[0], ids[0]]) == {ids[0]: labels[ids[0]]}
