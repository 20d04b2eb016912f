"""The review page: one HTML document with our own CSS and script inline.

Nothing on it comes from the results: the page fetches items as JSON and builds them with
`textContent` (see `script.py`). The only values put into the markup here are the run's
token and the CSP nonce, both URL-safe base64 made by `secrets`.
"""

from __future__ import annotations

from .script import SCRIPT

__all__ = ["SHORTCUTS", "render_page"]

#: (keys, what they do): shown on the page's help and in docs/review.md.
SHORTCUTS: tuple[tuple[str, str], ...] = (
    ("1 / 2 / 3", "your score for the focused metric"),
    ("↑ / ↓ (or Tab)", "move between metrics"),
    ("a / d", "agree / disagree with the judge's score of the focused metric"),
    ("g / i / b", "rating: good / incomplete / bad"),
    ("n", "write a note (Enter saves it and goes on, Shift+Enter a new line, Esc leaves)"),
    ("Enter or j", "save and go to the next item"),
    ("k", "previous item"),
    ("?", "show or hide this help"),
)

_CSS = """
:root{--fg:#1d232b;--muted:#5b6675;--line:#d9dee5;--bg:#f6f7f9;--card:#fff;--accent:#2357c6;
--s1:#c0392b;--s2:#b9770e;--s3:#1e8449;--ev:#fff2a8;--sup:#c9f2d3;--con:#f8c9c4}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);
background:var(--bg)}
header{position:sticky;top:0;z-index:2;display:flex;gap:16px;align-items:center;flex-wrap:wrap;
padding:8px 16px;background:#1d232b;color:#fff}
header h1{font-size:16px;margin:0}
header .who{color:#c8d1dc}
#progress-wrap{display:flex;align-items:center;gap:8px;flex:1;min-width:220px}
#progress{flex:1;height:10px;accent-color:#5fbf7f}
#progress-text{white-space:nowrap;font-variant-numeric:tabular-nums}
header button{background:#2f3945;color:#fff;border:1px solid #4a5563;border-radius:4px;
padding:3px 10px;cursor:pointer}
#order-note{margin:0;padding:6px 16px;background:#fff6d6;border-bottom:1px solid #eadca0}
main{display:grid;grid-template-columns:minmax(0,1.15fr) minmax(340px,0.85fr);gap:16px;
padding:16px}
section.card{background:var(--card);border:1px solid var(--line);border-radius:8px;
padding:12px 16px;margin-bottom:16px}
h2{font-size:15px;margin:0 0 8px}
.meta{color:var(--muted);font-size:13px}
.text{white-space:pre-wrap;overflow-wrap:anywhere}
.turn{display:grid;grid-template-columns:2.2em 11em 1fr;gap:8px;padding:3px 0;
border-bottom:1px solid #eef1f4}
.turn .tn{color:var(--muted);text-align:right;font-variant-numeric:tabular-nums}
.turn .sp{font-weight:600;overflow-wrap:anywhere}
.turn .sp small{display:block;font-weight:400;color:var(--muted)}
#source{max-height:70vh;overflow:auto}
mark{background:var(--ev);border-radius:2px}
mark.sup{background:var(--sup)}
mark.con{background:var(--con)}
.badge{display:inline-block;min-width:1.8em;text-align:center;border-radius:4px;padding:0 6px;
color:#fff;font-weight:600}
.b1{background:var(--s1)}.b2{background:var(--s2)}.b3{background:var(--s3)}
.bna{background:#8795a6}
.rating-good{color:var(--s3)}.rating-incomplete{color:var(--s2)}.rating-bad{color:var(--s1)}
.metric{border:2px solid var(--line);border-radius:8px;padding:8px 10px;margin-bottom:10px;
outline:none}
.metric.focused{border-color:var(--accent);box-shadow:0 0 0 3px #2357c633}
.metric .head{display:flex;gap:8px;align-items:center;flex-wrap:wrap}
.metric .name{font-weight:700;text-transform:capitalize}
.metric p{margin:6px 0}
.metric ul{margin:4px 0;padding-left:18px;font-size:13px;color:var(--muted)}
.controls{display:flex;gap:6px;flex-wrap:wrap;margin-top:6px}
.controls button,.rating button,.nav button{border:1px solid #aab4c0;background:#fff;
border-radius:5px;padding:4px 10px;cursor:pointer;font:inherit}
.controls button[aria-pressed=true],.rating button[aria-pressed=true]{background:var(--accent);
color:#fff;border-color:var(--accent)}
.controls .sep{width:10px}
button[aria-pressed=true] kbd,.nav .primary kbd{background:transparent;color:inherit;
border-color:#fff8}
.rating{display:flex;gap:6px;align-items:center;flex-wrap:wrap}
textarea{width:100%;min-height:70px;font:inherit;padding:6px;border:1px solid #aab4c0;
border-radius:5px}
.nav{display:flex;gap:8px;align-items:center;margin-top:10px}
.nav .primary{background:var(--accent);color:#fff;border-color:var(--accent)}
#status{font-size:13px;color:var(--muted)}
#status.err{color:var(--s1);font-weight:600}
.keys{font-size:12px;color:var(--muted);margin-top:10px}
kbd{border:1px solid #aab4c0;border-bottom-width:2px;border-radius:3px;padding:0 4px;
background:#fff;font:12px ui-monospace,monospace}
#help{position:fixed;inset:0;background:#0008;display:none;align-items:center;
justify-content:center;z-index:5}
#help.open{display:flex}
#help>div{background:#fff;border-radius:8px;padding:16px 22px;max-width:560px}
#help table td{padding:3px 10px 3px 0;vertical-align:top}
.mt{margin-top:12px}
.done{margin-left:8px;padding:1px 8px;border-radius:10px;background:#e3f4e8;color:#1e6b3a;
font-size:13px}
@media (max-width:900px){main{grid-template-columns:1fr}}
"""


def _help_rows() -> str:
    return "".join(
        f"<tr><td><kbd>{keys}</kbd></td><td>{what}</td></tr>" for keys, what in SHORTCUTS
    )


def render_page(token: str, nonce: str) -> str:
    """The page, with this run's token (for the API) and the CSP nonce of its style/script."""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="review-token" content="{token}">
<title>sumjudge review</title>
<style nonce="{nonce}">{_CSS}</style></head>
<body>
<header>
  <h1>sumjudge review</h1>
  <span class="who">reviewer <strong id="reviewer"></strong></span>
  <div id="progress-wrap"><progress id="progress" max="1" value="0"></progress>
    <span id="progress-text" aria-live="polite"></span></div>
  <button type="button" id="help-button" title="keyboard shortcuts (?)">? keys</button>
</header>
<p id="order-note" hidden></p>
<main>
  <div>
    <section class="card"><h2>Item <span id="position"></span></h2>
      <div class="meta" id="item-meta"></div><p id="judge-line"></p>
      <p class="meta" id="judge-explanation"></p></section>
    <section class="card"><h2>Summary</h2><div id="summary" class="text"></div></section>
    <section class="card"><h2 id="source-title">Source</h2>
      <p class="meta">Highlighted: passages the judge's evidence quotes (hover for which).</p>
      <div id="source"></div></section>
  </div>
  <div>
    <section class="card"><h2>Metrics: the judge's score and yours</h2>
      <div id="metrics"></div></section>
    <section class="card"><h2>Your rating</h2>
      <div class="rating" id="rating">
        <button type="button" data-rating="good">good <kbd>g</kbd></button>
        <button type="button" data-rating="incomplete">incomplete <kbd>i</kbd></button>
        <button type="button" data-rating="bad">bad <kbd>b</kbd></button>
      </div>
      <h2 class="mt"><label for="note">Note <kbd>n</kbd></label></h2>
      <textarea id="note" placeholder="why (optional)"></textarea>
      <div class="nav">
        <button type="button" id="prev">← previous <kbd>k</kbd></button>
        <button type="button" id="next" class="primary">save &amp; next <kbd>Enter</kbd></button>
        <span id="status" aria-live="polite"></span>
      </div>
      <div class="keys">Keys: <kbd>1</kbd><kbd>2</kbd><kbd>3</kbd> score ·
        <kbd>↑</kbd><kbd>↓</kbd> metric · <kbd>a</kbd>/<kbd>d</kbd> agree/disagree ·
        <kbd>g</kbd><kbd>i</kbd><kbd>b</kbd> rating · <kbd>n</kbd> note ·
        <kbd>Enter</kbd>/<kbd>j</kbd> next · <kbd>k</kbd> previous · <kbd>?</kbd> help</div>
    </section>
  </div>
</main>
<div id="help" role="dialog" aria-modal="true" aria-label="keyboard shortcuts"><div>
  <h2>Keyboard shortcuts</h2><table>{_help_rows()}</table>
  <p class="meta">Every change is appended to the label file at once.</p>
  <button type="button" id="help-close">close</button></div></div>
<script nonce="{nonce}">{SCRIPT}</script>
</body></html>
"""
