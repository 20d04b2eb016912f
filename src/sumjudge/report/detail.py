"""The expandable part of an item: metrics, claims, rubric tables, summary and source."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ._markdown import render_markdown
from .highlight import QUOTED, Span, esc, find, fragments, render_spans
from .views import Claim, ItemView, MetricView, SectionView, TurnView

__all__ = ["render_detail", "score_cell"]


_NO_REASON = "no reason given in the results"
_NA_PREFIX = re.compile(r"^\s*N/A\b[\s:.-]*", re.IGNORECASE)


def score_cell(view: MetricView | None) -> str:
    """A metric's score as a coloured cell value (failed, N/A, 1-3 with weighted, or %).

    A failed or N/A metric shows why, as text under its badge (cut to two lines by the
    stylesheet) and whole in the tooltip.
    """
    if view is None:
        return ""
    if view.error:
        return (
            f'<span class="badge failed" title="{esc(view.error)}">failed</span>'
            f'<span class="why" title="{esc(view.error)}">{esc(view.error)}</span>'
        )
    if view.value is None:
        why = _strip_na(view.reason or "") or _NO_REASON
        return (
            f'<span class="badge na" title="{esc(why)}">N/A</span>'
            f'<span class="why" title="{esc(why)}">{esc(why)}</span>'
        )
    if view.unit == "1-3":
        cls = f"s{max(1, min(3, round(view.value)))}"
        text = f'<span class="score {cls}">{view.value:g}</span>'
        if view.weighted is not None:
            text += f' <span class="w" title="logprob-weighted">{view.weighted:.2f}</span>'
        if view.spread:
            text += (
                f' <span class="w" title="spread of repeated judgments">±{view.spread:.2f}</span>'
            )
        members = [s for _, s in view.panel if s is not None]
        if members and min(members) != max(members):
            text += (
                f' <span class="w" title="panel members\' scores">'
                f"[{min(members):g}-{max(members):g}]</span>"
            )
        return text
    cls = "s3" if view.value >= 80 else "s2" if view.value >= 50 else "s1"
    return f'<span class="score {cls}">{view.value:.0f}%</span>'


def render_detail(item: ItemView) -> str:
    """Everything shown when an item's row is expanded."""
    out: list[str] = []
    texts = _texts(item)
    if item.id:
        out.append(f'<p class="note">id <code class="id-full">{esc(item.id)}</code></p>')
    if item.error:
        out.append(f'<p class="err">This row could not be judged: {esc(item.error)}</p>')
    if item.global_explanation:
        out.append(f"<p>{esc(item.global_explanation)}</p>")
    if item.uncertain and item.rating_confidence is not None:
        out.append(
            f'<p class="note">Uncertain: the rule book gives this rating with probability '
            f"{item.rating_confidence:.2f} when the scores are drawn from the judge's "
            "score-token probabilities (docs/noise.md).</p>"
        )
    if item.possible_issues:
        lis = "".join(f"<li>{esc(x)}</li>" for x in item.possible_issues)
        out.append(f'<ul class="evidence">{lis}</ul>')
    metrics = "".join(_metric_block(item, v) for v in item.metrics.values())
    if metrics:
        out.append(f"<h3>Metrics</h3>{metrics}")
    if item.claims:
        out.append(_claims(item))
    for metric, sections in item.rubric_sections.items():
        out.append(_rubric_tables(metric, sections))
    return f'<div class="grid2"><div>{"".join(out)}</div><div>{texts}</div></div>'


def _metric_block(item: ItemView, view: MetricView) -> str:
    if view.error:
        cls, head = "mf", f'<span class="badge failed">failed</span> {esc(view.error)}'
    elif view.value is None:
        why = _strip_na(view.reason or "") or _NO_REASON
        cls, head = "mf", f'<span class="badge na">N/A</span> {esc(why)}'
    else:
        level = round(view.value) if view.unit == "1-3" else (
            3 if view.value >= 80 else 2 if view.value >= 50 else 1)  # fmt: skip
        cls, head = f"m{max(1, min(3, level))}", score_cell(view)
    mode = f' <span class="note">{esc(view.mode)}</span>' if view.mode else ""
    body = [f"<p><strong>{esc(view.name)}</strong> {head}{mode}</p>"]
    if view.explanation:
        body.append(f'<p class="explanation">{esc(view.explanation)}</p>')
    if view.panel:
        members = ", ".join(
            f"{esc(judge)}: {'failed' if score is None else f'{score:g}'}"
            for judge, score in view.panel
        )
        body.append(f'<p class="note">panel: {members}</p>')
    if view.unscored_sections:
        lis = "".join(
            f"<li><strong>{esc(name)}</strong> {_unscored(reason, error)}</li>"
            for name, reason, error in view.unscored_sections
        )
        body.append(f'<ul class="evidence unscored">{lis}</ul>')
    if view.evidence:
        lis = "".join(f"<li>{esc(e)}</li>" for e in view.evidence)
        body.append(
            f"<details><summary>evidence ({len(view.evidence)})</summary>"
            f'<ul class="evidence">{lis}</ul></details>'
        )
    return f'<div class="metric {cls}" data-metric="{esc(view.name)}">{"".join(body)}</div>'


def _claims(item: ItemView) -> str:
    lis = []
    for k, claim in enumerate(item.claims, start=1):
        verdict = (
            '<span class="badge yes">supported</span>'
            if claim.is_accurate
            else '<span class="badge no">contradicted / unsupported</span>'
            if claim.is_accurate is False
            else '<span class="badge na">unjudged</span>'
        )
        parts = [f"{verdict} {esc(claim.point)}"]
        if claim.section:
            parts.append(f' <span class="muted">[{esc(claim.section)}]</span>')
        if claim.accuracy:
            parts.append(f'<br><span class="muted">{esc(claim.accuracy)}</span>')
        if claim.quote:
            check = (
                ""
                if claim.quote_verified is None
                else " ✓ found in transcript"
                if claim.quote_verified
                else " ⚠ not found in transcript"
            )
            parts.append(
                f'<br><a href="#q-{item.index}-{k}" class="quote">“{esc(claim.quote)}”</a>'
                f'<span class="flag">{check}</span>'
            )
        if claim.turns:
            links = ", ".join(f'<a href="#t-{item.index}-{n}">{n}</a>' for n in claim.turns)
            parts.append(f' <span class="muted">turns {links}</span>')
        for flag in claim.flags:
            parts.append(f'<br><span class="flag">⚠ {esc(flag)}</span>')
        lis.append(f'<li id="c-{item.index}-{k}">{"".join(parts)}</li>')
    good = sum(1 for c in item.claims if c.is_accurate)
    return (
        f"<h3>Claims ({good} of {len(item.claims)} supported)</h3>"
        f'<ol class="claims">{"".join(lis)}</ol>'
    )


def _rubric_tables(metric: str, sections: Sequence[SectionView]) -> str:
    if not sections:
        return ""
    out = [f"<h3>{esc(metric)} by section</h3>"]
    for sec in sections:
        score = (
            f"{sec.score:.0f}%"
            if sec.score is not None
            else f"failed: {sec.error}"
            if sec.error
            else f"N/A ({_strip_na(sec.reason or '') or _NO_REASON})"
        )
        rows = []
        for r in sec.rubrics:
            badge = _yes_no(r.passed, "addressed" if metric == "adherence" else "covered")
            if r.content:
                k, n = sum(1 for c in r.content if c.covered), len(r.content)
                cls = "yes" if k == n else "no" if k == 0 else "partial"
                badge = f'<span class="badge {cls}">{k}/{n} covered</span>'
            elif metric == "completeness":
                badge = '<span class="badge na">nothing to cover</span>'
            extra = ""
            if r.content:
                lis = "".join(
                    f"<li>{_yes_no(c.covered, 'covered')} {esc(c.transcript_content)}"
                    + (
                        f'<br><span class="muted">summary: “{esc(c.summary_content)}”</span>'
                        if c.summary_content
                        else ""
                    )
                    + "</li>"
                    for c in r.content
                )
                extra = f'<ul class="evidence">{lis}</ul>'
            elif metric == "completeness":
                extra = '<span class="note">no related content in the transcript</span>'
            rows.append(
                f"<tr><td>{esc(r.question)}</td><td>{badge}</td>"
                f"<td>{esc(r.reasoning)}{extra}</td></tr>"
            )
        table = (
            '<table class="rubric"><thead><tr><th>question</th><th>result</th>'
            f"<th>{'reasoning' if metric == 'adherence' else 'content'}</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>"
            if rows
            else ""
        )
        out.append(
            f'<div class="panel rubric-section" data-metric="{esc(metric)}" '
            f'style="margin:6px 0;padding:6px 10px"><strong>{esc(sec.name)}</strong> '
            f'<span class="muted">{esc(score)} {esc(sec.counts)}</span>'
            + (f'<div class="note">{esc(sec.note)}</div>' if sec.note else "")
            + (f'<div class="note">categorical check: {esc(sec.check)}</div>' if sec.check else "")
            + f"{table}</div>"
        )
    return "".join(out)


def _strip_na(reason: str) -> str:
    # "N/A: needs an LLM judge" and "N/A offline: ..." read after an N/A badge.
    return _NA_PREFIX.sub("", reason, count=1).strip()


def _unscored(reason: str | None, error: str | None) -> str:
    if error:
        return f'<span class="badge failed">failed</span> {esc(error)}'
    return f'<span class="badge na">N/A</span> {esc(_strip_na(reason or "") or _NO_REASON)}'


def _yes_no(value: bool | None, word: str) -> str:
    if value is None:
        return '<span class="badge na">?</span>'
    return (
        f'<span class="badge yes">{esc(word)}</span>'
        if value
        else f'<span class="badge no">not {esc(word)}</span>'
    )


def _texts(item: ItemView) -> str:
    summary_html = ""
    if isinstance(item.summary, str):
        summary_html = _summary_text(item.summary, _evidence_spans(item.summary, item))
    elif isinstance(item.summary, dict):
        summary_html = "".join(
            f'<p style="margin:6px 0 2px"><strong>{esc(name)}</strong></p>'
            + _summary_text(text, [])
            for name, text in item.summary.items()
        )
    if item.turns:
        source_html = _transcript(item)
        label = f"Transcript ({len(item.turns)} turns)"
    elif item.source:
        source_html = (
            f'<div class="text source-text">{_highlight_evidence(item.source, item)}</div>'
        )
        label = "Source"
    else:
        source_html, label = "", ""
    if not (summary_html or source_html):
        return (
            '<p class="note">Source and summary texts are not in the results; pass the input '
            "file (<code>--inputs</code>) to show them.</p>"
        )
    out = f"<h3>Summary</h3>{summary_html}" if summary_html else ""
    if source_html:
        out += (
            f'<details class="source" open><summary>{esc(label)}</summary>{source_html}</details>'
        )
    return out


def _transcript(item: ItemView) -> str:
    marks = _claim_marks(item.index, item.turns, item.claims)
    lines = []
    for turn in item.turns:
        text = render_spans(turn.text, marks.get(turn.number, []))
        lines.append(
            f'<div class="turn" id="t-{item.index}-{turn.number}"><span class="tn">'
            f'{turn.number}</span><span class="sp" title="{esc(turn.speaker)}">'
            f"{esc(turn.speaker)}"
            + (
                f'<small title="{esc(turn.detail)}">{esc(turn.detail)}</small>'
                if turn.detail
                else ""
            )
            + f"</span><span>{text}</span></div>"
        )
    legend = (
        '<p class="note"><mark class="sup">supports a claim</mark> '
        '<mark class="con">contradicts a claim</mark></p>'
        if any(marks.values())
        else ""
    )
    return f'{legend}<div class="text transcript" style="white-space:normal">{"".join(lines)}</div>'


def _claim_marks(
    index: int, turns: Sequence[TurnView], claims: Sequence[Claim]
) -> dict[int, list[Span]]:
    marks: dict[int, list[Span]] = {}
    by_number = {t.number: t for t in turns}
    for k, claim in enumerate(claims, start=1):
        if not claim.quote.strip():
            continue
        cls = "sup" if claim.is_accurate else "con" if claim.is_accurate is False else "unk"
        title = f"claim {k}: {claim.point}"
        # Look in the cited turns first, then anywhere (a real quote may cite a wrong turn).
        order = [by_number[n] for n in claim.turns if n in by_number] + list(turns)
        first = True
        for fragment in fragments(claim.quote):
            for turn in order:
                found = find(turn.text, fragment)
                if found is not None:
                    anchor = f"q-{index}-{k}" if first else ""
                    marks.setdefault(turn.number, []).append((*found, cls, title, anchor))
                    first = False
                    break
    return marks


def _summary_text(text: str, spans: Sequence[Span]) -> str:
    """A summary: its Markdown rendered when it uses any, else as plain pre-wrapped text."""
    rendered = render_markdown(text, spans)
    if rendered is None:
        return f'<div class="text summary-text">{render_spans(text, spans)}</div>'
    return f'<div class="text summary-text md">{rendered}</div>'


def _highlight_evidence(text: str, item: ItemView) -> str:
    """Escape `text`, marking the passages the offline judge's evidence quotes."""
    return render_spans(text, _evidence_spans(text, item))


def _evidence_spans(text: str, item: ItemView) -> list[Span]:
    """The passages of `text` that the offline judge's evidence quotes."""
    spans: list[Span] = []
    for view in item.metrics.values():
        for line in view.evidence:
            for quoted in QUOTED.findall(line):
                for fragment in fragments(quoted):
                    found = find(text, fragment)
                    if found is not None:
                        spans.append((*found, "ev", f"{view.name}: {line}", ""))
    return spans
