"""The review page's script (inline in the page; no library, nothing fetched but our API).

Every untrusted text (sources, summaries, explanations, evidence, notes) is put into the
page with `textContent`, `setAttribute` or a form field's `value`, never `innerHTML`.
Each change (a score, agree / disagree, the rating) posts the item's whole label at once;
the note posts when it loses focus or the item is left. Posts go one after another, so
the log's last line for an item is the reviewer's last change.
"""

from __future__ import annotations

__all__ = ["SCRIPT"]

SCRIPT = r"""
"use strict";
const TOKEN = document.querySelector('meta[name="review-token"]').content;
const $ = (id) => document.getElementById(id);
const state = {items: [], pos: 0, item: null, draft: null, focus: 0, total: 0, sent: ""};
let queue = Promise.resolve(true);

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

async function api(path, body) {
  const init = {headers: {"X-Review-Token": TOKEN}, cache: "no-store"};
  if (body !== undefined) {
    init.method = "POST";
    init.headers["Content-Type"] = "application/json";
    init.body = body;  // already a string: the label as it was when the change was made
  }
  const res = await fetch(path, init);
  const data = await res.json().catch(() => ({error: "HTTP " + res.status}));
  if (!res.ok) throw new Error(data.error || ("HTTP " + res.status));
  return data;
}

function status(text, isError) {
  const s = $("status");
  s.textContent = text;
  s.className = isError ? "err" : "";
}

function progress(labelled, total) {
  state.total = total;
  $("progress").max = Math.max(total, 1);
  $("progress").value = labelled;
  $("progress-text").textContent = labelled + " / " + total + " labelled";
}

function pieces(parent, list) {
  for (const [text, kind, title] of list) {
    if (!kind) { parent.appendChild(document.createTextNode(text)); continue; }
    const mark = el("mark", kind === "ev" ? "" : kind, text);
    if (title) mark.setAttribute("title", title);
    parent.appendChild(mark);
  }
}

function scoreBadge(m) {
  if (m.error) return el("span", "badge bna", "failed");
  if (m.score === null) return el("span", "badge bna", "N/A");
  if (m.unit === "%") {
    const level = m.score >= 80 ? "b3" : m.score >= 50 ? "b2" : "b1";
    return el("span", "badge " + level, Math.round(m.score) + "%");
  }
  const b = el("span", "badge b" + Math.max(1, Math.min(3, Math.round(m.score))), m.score);
  b.setAttribute("title", "the judge's score");
  return b;
}

function renderSource(src) {
  const box = $("source");
  box.replaceChildren();
  if (src.kind === "turns") {
    $("source-title").textContent = "Transcript (" + src.turns.length + " turns)";
    for (const t of src.turns) {
      const row = el("div", "turn");
      row.appendChild(el("span", "tn", t.n));
      const sp = el("span", "sp", t.speaker);
      if (t.detail) sp.appendChild(el("small", "", t.detail));
      row.appendChild(sp);
      const body = el("span", "text");
      pieces(body, t.text);
      row.appendChild(body);
      box.appendChild(row);
    }
  } else if (src.kind === "text") {
    $("source-title").textContent = "Source";
    const body = el("div", "text");
    pieces(body, src.text);
    box.appendChild(body);
  } else {
    $("source-title").textContent = "Source";
    const text = "The source is not in the results: start sumjudge review with --inputs.";
    box.appendChild(el("p", "meta", text));
  }
}

function renderSummary(summary) {
  const box = $("summary");
  box.replaceChildren();
  if (Array.isArray(summary)) {
    for (const [name, text] of summary) {
      box.appendChild(el("strong", "", name));
      box.appendChild(el("div", "text", text));
    }
  } else {
    box.textContent = summary === null ? "(no summary text: pass --inputs)" : summary;
  }
}

function button(text, pressed, onClick, key) {
  const b = el("button", "", text);
  b.type = "button";
  b.setAttribute("aria-pressed", pressed ? "true" : "false");
  if (key) b.dataset.key = key;
  b.addEventListener("click", (ev) => { ev.stopPropagation(); onClick(); });
  return b;
}

function renderMetrics() {
  const box = $("metrics");
  box.replaceChildren();
  state.item.metrics.forEach((m, k) => {
    const card = el("div", "metric" + (k === state.focus ? " focused" : ""));
    card.tabIndex = 0;
    card.dataset.metric = m.name;
    card.addEventListener("focus", () => setFocus(k, false));
    const head = el("div", "head");
    head.appendChild(el("span", "name", m.name));
    head.appendChild(scoreBadge(m));
    if (m.confidence !== null) {
      head.appendChild(el("span", "meta", "confidence " + m.confidence.toFixed(2)));
    }
    if (m.spread) head.appendChild(el("span", "meta", "spread ±" + m.spread.toFixed(2)));
    card.appendChild(head);
    const why = m.error || m.reason || m.explanation;
    if (why) card.appendChild(el("p", "", why));
    if (m.evidence.length) {
      const ul = el("ul");
      for (const e of m.evidence) ul.appendChild(el("li", "", e));
      card.appendChild(ul);
    }
    const d = state.draft;
    const controls = el("div", "controls");
    if (m.unit === "1-3") {
      for (const s of [1, 2, 3]) {
        const pressed = d.scores[m.name] === s;
        controls.appendChild(button(String(s), pressed, () => setScore(k, s), String(s)));
      }
      controls.appendChild(el("span", "sep"));
    }
    if (m.score !== null) {
      const agreed = d.agree[m.name];
      controls.appendChild(button("agree", agreed === true, () => setAgree(k, true), "a"));
      controls.appendChild(button("disagree", agreed === false, () => setAgree(k, false), "d"));
    }
    card.appendChild(controls);
    box.appendChild(card);
  });
}

function renderRating() {
  for (const b of document.querySelectorAll("#rating button")) {
    b.setAttribute("aria-pressed", state.draft.rating === b.dataset.rating ? "true" : "false");
  }
}

function render() {
  const it = state.item;
  $("position").textContent = (state.pos + 1) + " of " + state.items.length;
  const meta = $("item-meta");
  meta.textContent = "id " + it.id + (it.source_id ? " · source " + it.source_id : "")
    + (it.judge ? " · judge " + it.judge : "");
  const line = $("judge-line");
  line.replaceChildren();
  line.appendChild(document.createTextNode("The judge rated it "));
  line.appendChild(el("strong", it.rating ? "rating-" + it.rating : "", it.rating || "not rated"));
  if (it.rating_confidence !== null) {
    const conf = " (confidence " + it.rating_confidence.toFixed(2) + ")";
    line.appendChild(el("span", "meta", conf));
  }
  if (state.items[state.pos].labelled) {
    line.appendChild(el("span", "done", "✓ labelled by you"));
  }
  const why = [it.explanation || "", ...it.issues].filter(Boolean);
  $("judge-explanation").textContent = why.join(" · ");
  renderSummary(it.summary);
  renderSource(it.source);
  renderMetrics();
  renderRating();
  $("note").value = state.draft.note;
}

function setFocus(k, move) {
  const n = state.item.metrics.length;
  if (!n) return;
  state.focus = (k + n) % n;
  const cards = document.querySelectorAll(".metric");
  cards.forEach((c, i) => c.classList.toggle("focused", i === state.focus));
  if (move) cards[state.focus].focus();
}

function judgeScore(k) { return state.item.metrics[k].score; }

function setScore(k, s) {
  const m = state.item.metrics[k];
  if (m.unit !== "1-3") return;
  const d = state.draft;
  if (d.scores[m.name] === s) { delete d.scores[m.name]; delete d.agree[m.name]; }
  else {
    d.scores[m.name] = s;
    if (judgeScore(k) !== null) d.agree[m.name] = (s === judgeScore(k));
  }
  changed(k);
}

function setAgree(k, yes) {
  const m = state.item.metrics[k];
  if (m.score === null) return;
  const d = state.draft;
  if (d.agree[m.name] === yes) { delete d.agree[m.name]; delete d.scores[m.name]; }
  else {
    d.agree[m.name] = yes;
    if (yes || d.scores[m.name] === judgeScore(k)) delete d.scores[m.name];
  }
  changed(k);
}

function setRating(r) {
  state.draft.rating = state.draft.rating === r ? null : r;
  renderRating();
  save();
}

function changed(k) {
  renderMetrics();
  setFocus(k, document.activeElement !== $("note"));
  save();
}

function labelBody() {
  const d = state.draft;
  return {id: state.item.id, scores: d.scores, agree: d.agree, rating: d.rating, note: d.note};
}

// Posts run one after another; each sends the item's whole label as it is now.
function save() {
  const text = JSON.stringify(labelBody());
  if (text === state.sent) return queue;
  state.sent = text;
  status("saving…");
  // Resolves to whether this label is on disk: the page stays on an item it could not save.
  queue = queue.then(() => api("/api/label", text)).then((res) => {
    const entry = state.items.find((x) => x.id === res.id);
    if (entry) entry.labelled = res.done;
    progress(res.labelled, res.total);
    status("saved " + new Date().toLocaleTimeString());
    return true;
  }).catch((err) => {
    state.sent = "";
    status("NOT saved: " + err.message + " (is sumjudge review still running?)", true);
    return false;
  });
  return queue;
}

async function show(pos) {
  state.pos = pos;
  const id = state.items[pos].id;
  const it = await api("/api/item?id=" + encodeURIComponent(id));
  const l = it.label || {scores: {}, agree: {}, rating: null, note: ""};
  state.item = it;
  state.draft = {scores: {...l.scores}, agree: {...l.agree}, rating: l.rating, note: l.note || ""};
  state.sent = JSON.stringify(labelBody());  // what the server has: nothing new to send
  state.focus = 0;
  render();
  status(it.label ? "your label from " + it.label.at : "");
  window.scrollTo(0, 0);
  setFocus(0, true);
}

async function go(delta) {
  state.draft.note = $("note").value;
  if (!(await save())) return;
  let next = state.pos + delta;
  if (delta > 0 && next >= state.items.length) {
    next = state.items.findIndex((x) => !x.labelled);
    if (next < 0) {
      status("All " + state.items.length + " items are labelled. Thank you!");
      return;
    }
  }
  if (next < 0) return;
  await show(next);
}

function toggleHelp(open) {
  const isOpen = $("help").classList.contains("open");
  $("help").classList.toggle("open", open === undefined ? !isOpen : open);
}

document.addEventListener("keydown", (ev) => {
  if (ev.ctrlKey || ev.metaKey || ev.altKey || !state.item) return;
  const inNote = ev.target === $("note");
  if (inNote) {
    if (ev.key === "Enter" && !ev.shiftKey) { ev.preventDefault(); go(1); }
    else if (ev.key === "Escape") {
      ev.preventDefault();
      $("note").blur();
      setFocus(state.focus, true);
    }
    return;
  }
  if ($("help").classList.contains("open")) {
    if (ev.key === "?" || ev.key === "Escape") { ev.preventDefault(); toggleHelp(false); }
    return;
  }
  if (ev.target instanceof HTMLButtonElement && ev.key === "Enter") return;  // a click
  const key = ev.key;
  const act = {
    "1": () => setScore(state.focus, 1),
    "2": () => setScore(state.focus, 2),
    "3": () => setScore(state.focus, 3),
    "ArrowDown": () => setFocus(state.focus + 1, true),
    "ArrowUp": () => setFocus(state.focus - 1, true),
    "a": () => setAgree(state.focus, true), "d": () => setAgree(state.focus, false),
    "g": () => setRating("good"), "i": () => setRating("incomplete"), "b": () => setRating("bad"),
    "n": () => $("note").focus(), "Enter": () => go(1), "j": () => go(1), "k": () => go(-1),
    "?": () => toggleHelp(),
  }[key];
  if (act) { ev.preventDefault(); act(); }
});

$("note").addEventListener("input", () => { state.draft.note = $("note").value; });
$("note").addEventListener("change", () => { state.draft.note = $("note").value; save(); });
for (const b of document.querySelectorAll("#rating button")) {
  b.addEventListener("click", () => setRating(b.dataset.rating));
}
$("next").addEventListener("click", () => go(1));
$("prev").addEventListener("click", () => go(-1));
$("help-button").addEventListener("click", () => toggleHelp(true));
$("help-close").addEventListener("click", () => toggleHelp(false));

(async () => {
  try {
    const list = await api("/api/items");
    state.items = list.items;
    $("reviewer").textContent = list.reviewer;
    progress(list.labelled, list.total);
    if (list.note) { $("order-note").textContent = list.note; $("order-note").hidden = false; }
    document.title = "sumjudge review: " + list.reviewer;
    await show(list.start);
    if (list.labelled === list.total) {
      status("All " + list.total + " items are labelled; change any, or stop with Ctrl-C.");
    }
  } catch (err) {
    status("Cannot load the items: " + err.message, true);
  }
})();
"""
