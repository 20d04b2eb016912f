"""The report's inline stylesheet and script (ours, small, no third-party code)."""

from __future__ import annotations

__all__ = ["CSP", "CSS", "JS"]

# Nothing may be fetched when the report is opened: every resource is inline.
CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
    "img-src data:; base-uri 'none'; form-action 'none'"
)

CSS = """
:root { --ink:#22272b; --muted:#5f6b76; --line:#dfe3e8; --bg:#f6f7f9; --card:#fff;
  --good:#2f8a4f; --good-bg:#e4f4e9; --mid:#a86b00; --mid-bg:#fdf1d8; --bad:#b8283b;
  --bad-bg:#fbe4e7; --na:#6b7580; --na-bg:#eceff2; --accent:#3d5f8f; }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",
  Arial,sans-serif; color:var(--ink); background:var(--bg); }
main { max-width:1320px; margin:0 auto; padding:24px 28px 64px; }
header.top { display:flex; justify-content:space-between; align-items:baseline; flex-wrap:wrap;
  gap:8px; border-bottom:1px solid var(--line); padding-bottom:12px; margin-bottom:20px; }
h1 { font-size:22px; margin:0; } h1 span { color:var(--muted); font-weight:400; }
h2 { font-size:17px; margin:32px 0 12px; }
h3 { font-size:14px; margin:16px 0 6px; }
.muted { color:var(--muted); }
.tiles { display:grid; grid-template-columns:repeat(auto-fit,minmax(130px,1fr)); gap:12px; }
.tile { background:var(--card); border:1px solid var(--line); border-radius:10px;
  padding:12px 14px; }
.tile .n { font-size:26px; font-weight:650; line-height:1.2; }
.tile .l { color:var(--muted); font-size:12px; text-transform:uppercase; letter-spacing:.04em; }
.tile.good .n { color:var(--good); } .tile.incomplete .n { color:var(--mid); }
.tile.bad .n, .tile.failed .n { color:var(--bad); }
.charts { display:grid; grid-template-columns:repeat(auto-fill,minmax(270px,1fr)); gap:12px; }
.chart-card { background:var(--card); border:1px solid var(--line); border-radius:10px;
  padding:10px 12px; }
.chart-card p { margin:2px 0 0; font-size:12px; color:var(--muted); }
svg.chart { max-width:100%; height:auto; display:block; }
.panel { background:var(--card); border:1px solid var(--line); border-radius:10px;
  padding:4px 0; overflow-x:auto; }
table { border-collapse:collapse; width:100%; }
th, td { text-align:left; padding:7px 9px; border-bottom:1px solid var(--line);
  vertical-align:top; }
th { font-size:12px; font-weight:600; color:var(--muted); white-space:nowrap;
  background:#fafbfc; }
td.num, th.num { text-align:right; font-variant-numeric:tabular-nums; }
table.items > thead th[data-key] { cursor:pointer; user-select:none; }
table.items > thead th[data-key]:hover { color:var(--ink); }
th[aria-sort="ascending"]::after { content:" \\25B2"; font-size:9px; }
th[aria-sort="descending"]::after { content:" \\25BC"; font-size:9px; }
tbody.item > tr.row:hover { background:#f8fafc; }
tbody.item > tr.row td { border-bottom:none; }
tbody.item { border-bottom:1px solid var(--line); }
tr.detail > td { padding:4px 18px 18px; background:#fcfcfd; }
button.toggle { border:1px solid var(--line); background:var(--card); border-radius:6px;
  cursor:pointer; font:inherit; font-size:12px; padding:1px 8px; color:var(--accent); }
th .sub { font-size:10px; color:#8a949e; letter-spacing:.06em; text-transform:uppercase;
  font-weight:500; }
th.num { vertical-align:bottom; }
.id { font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; font-size:12px;
  max-width:260px; overflow-wrap:anywhere; }
.badge { display:inline-block; border-radius:999px; padding:0 9px; font-size:12px;
  font-weight:600; white-space:nowrap; }
.badge.good, .badge.yes { background:var(--good-bg); color:var(--good); }
.badge.incomplete, .badge.partial { background:var(--mid-bg); color:var(--mid); }
.badge.bad, .badge.no, .badge.failed { background:var(--bad-bg); color:var(--bad); }
.badge.na { background:var(--na-bg); color:var(--na); }
.why { display:block; max-width:220px; margin-left:auto; font-size:11px; line-height:1.3;
  color:var(--muted); white-space:normal; text-align:right; overflow:hidden;
  display:-webkit-box; -webkit-line-clamp:2; -webkit-box-orient:vertical; }
.score { font-weight:600; } .score.s1 { color:var(--bad); } .score.s2 { color:var(--mid); }
.score.s3 { color:var(--good); } .w { color:var(--muted); font-size:12px; }
.err { color:var(--bad); }
.grid2 { display:grid; grid-template-columns:minmax(0,1fr) minmax(0,1fr); gap:22px; }
tr.detail h3:first-child { margin-top:10px; }
@media (max-width: 900px) { .grid2 { grid-template-columns:1fr; } }
details { margin:6px 0; } summary { cursor:pointer; color:var(--accent); }
details > summary { font-weight:600; }
.metric { border-left:3px solid var(--line); padding:2px 0 2px 10px; margin:8px 0; }
.metric.m1 { border-color:var(--bad); } .metric.m2 { border-color:var(--mid); }
.metric.m3 { border-color:var(--good); } .metric.mf { border-color:var(--na); }
.metric p { margin:2px 0; }
ul.evidence { margin:4px 0; padding-left:18px; color:var(--muted); }
.text { white-space:pre-wrap; background:var(--card); border:1px solid var(--line);
  border-radius:8px; padding:10px 12px; max-height:420px; overflow:auto; font-size:13px; }
.text.md { white-space:normal; }
.md > :first-child { margin-top:0; } .md > :last-child { margin-bottom:0; }
.md p { margin:6px 0; } h4.md, h5.md, h6.md { margin:10px 0 4px; font-size:14px; }
h5.md, h6.md { font-size:13px; } ul.md, ol.md { margin:4px 0; padding-left:22px; }
table.md { width:auto; margin:6px 0; } table.md th, table.md td { padding:3px 8px;
  border:1px solid var(--line); font-size:13px; white-space:normal; color:var(--ink); }
.md code { font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; font-size:12px;
  background:#f1f3f5; border-radius:3px; padding:0 3px; }
.turn { display:grid; grid-template-columns:28px 118px minmax(0,1fr); gap:6px; padding:2px 0;
  border-bottom:1px dashed #eef0f3; }
.turn .tn { color:var(--muted); font-variant-numeric:tabular-nums; text-align:right; }
.turn .sp { color:var(--accent); font-weight:600; overflow:hidden; text-overflow:ellipsis; }
.turn .sp small { display:block; font-weight:400; color:var(--muted); font-size:11px;
  white-space:nowrap; overflow:hidden; text-overflow:ellipsis; }
.turn:target { background:#fff8db; }
mark { border-radius:3px; padding:0 2px; }
mark.sup { background:#cdeed8; } mark.con { background:#f8cfd5; } mark.unk { background:#e5e8ec; }
mark.ev { background:#fde9b0; }
ol.claims { padding-left:20px; margin:6px 0; } ol.claims li { margin:6px 0; }
.quote { font-style:italic; } .flag { color:var(--mid); font-size:12px; }
table.rubric td, table.rubric th { font-size:13px; padding:5px 8px; }
table.card td { font-size:13px; white-space:nowrap; }
table.card tr.first td { border-top:2px solid var(--line); }
dl.kv { display:grid; grid-template-columns:max-content 1fr; gap:3px 16px; margin:0;
  padding:10px 14px; }
dl.kv dt { color:var(--muted); } dl.kv dd { margin:0; overflow-wrap:anywhere; }
code.id-full { overflow-wrap:anywhere; }
.note { font-size:12px; color:var(--muted); margin:6px 2px; }
"""

# Sorting: each item is one <tbody class="item"> (its row and its detail row), so sorting
# moves whole tbodies and detail rows stay with their row. Values come from data-* attributes
# written by the renderer; missing values always sort last.
JS = """
(function () {
  "use strict";
  var table = document.querySelector("table.items");
  if (!table) { return; }
  var heads = table.querySelectorAll("thead th[data-key]");
  function value(body, key) {
    var raw = body.getAttribute("data-" + key);
    if (raw === null || raw === "") { return null; }
    var num = Number(raw);
    return isNaN(num) ? raw.toLowerCase() : num;
  }
  function sortBy(th) {
    var key = th.getAttribute("data-key");
    var asc = th.getAttribute("aria-sort") !== "ascending";
    heads.forEach(function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", asc ? "ascending" : "descending");
    var bodies = Array.prototype.slice.call(table.querySelectorAll("tbody.item"));
    bodies.sort(function (a, b) {
      var x = value(a, key), y = value(b, key);
      if (x === null && y === null) { return 0; }
      if (x === null) { return 1; }
      if (y === null) { return -1; }
      if (x < y) { return asc ? -1 : 1; }
      if (x > y) { return asc ? 1 : -1; }
      return 0;
    });
    bodies.forEach(function (b) { table.appendChild(b); });
  }
  heads.forEach(function (th) {
    th.setAttribute("tabindex", "0");
    th.addEventListener("click", function () { sortBy(th); });
    th.addEventListener("keydown", function (e) {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sortBy(th); }
    });
  });
  table.addEventListener("click", function (e) {
    var button = e.target.closest ? e.target.closest("button.toggle") : null;
    if (!button) { return; }
    var detail = document.getElementById(button.getAttribute("aria-controls"));
    if (!detail) { return; }
    var open = detail.hasAttribute("hidden");
    if (open) { detail.removeAttribute("hidden"); } else { detail.setAttribute("hidden", ""); }
    button.setAttribute("aria-expanded", open ? "true" : "false");
    button.textContent = open ? "hide" : "details";
  });
  var all = document.getElementById("expand-all");
  if (all) {
    all.addEventListener("click", function () {
      var rows = table.querySelectorAll("tr.detail");
      var open = all.getAttribute("aria-pressed") !== "true";
      rows.forEach(function (r) { if (open) { r.removeAttribute("hidden"); }
        else { r.setAttribute("hidden", ""); } });
      table.querySelectorAll("button.toggle").forEach(function (b) {
        b.setAttribute("aria-expanded", open ? "true" : "false");
        b.textContent = open ? "hide" : "details";
      });
      all.setAttribute("aria-pressed", open ? "true" : "false");
      all.textContent = open ? "collapse all" : "expand all";
    });
  }
  // Opening a link to a transcript turn inside a closed detail row opens the row first.
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id ? document.getElementById(id) : null;
    var row = el && el.closest ? el.closest("tr.detail") : null;
    if (row && row.hasAttribute("hidden")) { row.removeAttribute("hidden"); }
    var det = el && el.closest ? el.closest("details") : null;
    if (det) { det.open = true; }
    if (el) { el.scrollIntoView({block: "center"}); }
  }
  window.addEventListener("hashchange", reveal);
})();
"""
