"""Markdown in summaries: rendered for the common constructs, inert for everything else."""

from __future__ import annotations

import re

from sumjudge.report import build_items, render_report
from sumjudge.report._markdown import render_markdown
from sumjudge.report.detail import render_detail

MD = """# Call summary

The customer **Rina** called about *her* bill; ref `CW-88213`.

## Actions
- Restarted the router
- Applied a credit
  - $10, the standard amount
3. Third step
4. Fourth step

| field | value |
|:------|------:|
| plan | Velocity 500 |
| speed \\| unit | 480 Mbps |
"""


def test_plain_prose_is_left_to_the_plain_renderer() -> None:
    assert render_markdown("Rina called. She was upset.\nThe agent apologised.") is None
    assert render_markdown("2 * 3 * 4 = 24, and snake_case_name stays.") is None
    (item,) = build_items([{"index": 0, "summary": "Line one.\n\n  Indented <b>x</b>."}])
    detail = render_detail(item)
    assert (
        '<div class="text summary-text">Line one.\n\n  Indented &lt;b&gt;x&lt;/b&gt;.</div>'
        in detail
    )


def test_headings_lists_tables_and_inline_markup() -> None:
    html = render_markdown(MD)
    assert html is not None
    assert '<h4 class="md">Call summary</h4>' in html and '<h5 class="md">Actions</h5>' in html
    assert "<strong>Rina</strong>" in html and "<em>her</em>" in html
    assert "<code>CW-88213</code>" in html
    assert '<ul class="md"><li>Restarted the router</li><li>Applied a credit<ul class="md">' in html
    assert '<ol class="md" start="3"><li>Third step</li><li>Fourth step</li></ol>' in html
    assert '<th style="text-align:left">field</th><th style="text-align:right">value</th>' in html
    assert '<td style="text-align:left">speed | unit</td>' in html
    assert html.count("<tr>") == 3


def test_nothing_in_the_text_becomes_markup_beyond_the_supported_constructs() -> None:
    evil = (
        "# <script>alert(1)</script>\n\n"
        "- <img src=x onerror=alert(1)>\n"
        '- [click](javascript:alert(1)) and <a href="javascript:alert(2)">x</a>\n\n'
        "| a | b |\n|---|---|\n| <iframe src=//evil> | **<b onclick=alert(3)>** |\n\n"
        "`</code><script>alert(4)</script>` and *<svg onload=alert(5)>*"
    )
    html = render_markdown(evil)
    assert html is not None
    tags = set(re.findall(r"</?([a-zA-Z0-9]+)", html))
    assert tags <= {"h4", "ul", "li", "table", "thead", "tbody", "tr", "th", "td", "p", "strong",
                    "em", "code"}  # fmt: skip
    assert "&lt;script&gt;" in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "href" not in html.replace("&lt;a href=&quot;", "")
    assert "javascript:alert(1)" in html  # shown as text, not a link
    assert " on" not in re.sub(r"&lt;.*?&gt;", "", html)  # no attribute outside escaped text


def test_a_whole_report_with_a_markdown_summary_has_no_live_script() -> None:
    summary = "## Notes\n- **<script>alert(1)</script>**\n- <img src=x onerror=alert(1)>"
    html = render_report([{"index": 0, "summary": {"relevancy_rating": "good"}}],
                         inputs=[{"summary": summary, "source": "s"}])  # fmt: skip
    assert '<h5 class="md">Notes</h5>' in html
    assert html.count("<script>") == 1  # the report's own script only
    assert "<img" not in html


def test_highlights_survive_markdown_formatting() -> None:
    text = "- The **router was restarted** remotely"
    start = text.index("router")
    span = (start, text.index("remotely") + len("remotely"), "ev", "t", "")
    html = render_markdown(text, [span])
    assert html == (
        '<ul class="md"><li>The <strong><mark class="ev" title="t">router was restarted'
        '</mark></strong><mark class="ev" title="t"> remotely</mark></li></ul>'
    )


def test_unclosed_markers_and_escapes_stay_as_text() -> None:
    html = render_markdown("- a **b and *c\n- \\*not italic\\* and `tick")
    assert html == '<ul class="md"><li>a **b and *c</li><li>*not italic* and `tick</li></ul>'
