"""Evidence detection and numeric features for the offline judge."""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from ..text import split_sentences
from .embed import Embedder, FloatArray
from .lexicon import (
    AMBIGUOUS_DATE_ABBREVIATIONS,
    BROKEN_END,
    DAYS,
    MONTHS,
    MULTIPLIERS,
    NEGATIONS,
    NUMBER_WORDS,
)
from .text import (
    Unit,
    content,
    date_word,
    names,
    ngrams,
    numbers,
    numbers_verbatim,
    source_units,
    stem,
    strip_markup,
    words,
)

MAX_WINDOW = 3
# e5 cosines between related sentences sit around 0.80-0.95: map onto 0..1 support.
COS_LO, COS_HI = 0.78, 0.93

LEXICAL_FEATURES: tuple[str, ...] = (
    "nov1",
    "nov2",
    "nov3",
    "rep3",
    "rep_sent",
    "lsup_mean",
    "lsup_min",
    "bad_facts",
    "bad_neg",
    "cov",
    "lead_cov",
    "log_len",
    "n_sent",
    "compression",
    "broken",
    "lower_start",
    "dup_word",
    "pron_start",
    "adj_overlap",
    "order",
    "avg_sent_len",
    "frag_cov",
    "frag_dens",
    "local_nov",
    "trunc_end",
    "first_lead",
    "clause_min",
    "jump_back",
    "rep_excess",
    "kw_cov",
)
EMBED_FEATURES: tuple[str, ...] = (
    "esup_mean",
    "esup_min",
    "ecov",
    "ecent",
    "swap_margin",
    "adjcos_min",
    "adjcos_mean",
    "wcov",
)
# a swapped-names variant fitting the source better by this much is reported as evidence
SWAP_EVIDENCE = -0.01


# With more speakers than this, who said something is a poor proxy for who does it
# (assignments, "Wulan, please ...", and read-backs of action items by a chair), so the swap
# check is skipped and the feature left out (calibrated models then treat it as average).
SWAP_MAX_SPEAKERS = 3
REP_BASELINE = 0.3


@dataclass
class SourceInfo:
    """Per-source analysis, computed once and shared by all summaries of that source."""

    text: str
    units: list[Unit]
    dialogue: bool
    windows: list[tuple[int, int]]
    window_content: list[set[str]]
    unit_content: list[set[str]]
    vocab: set[str]
    bigrams: set[tuple[str, ...]]
    trigrams: set[tuple[str, ...]]
    nums: set[str]
    name_set: set[str]
    neg_units: list[bool]
    importance: list[float]
    n_words: int
    speakers: set[str]
    tokens: list[str]
    dates: set[str] = field(default_factory=set)  # full month/day names the source uses
    keywords: list[tuple[str, int]] = field(default_factory=list)  # most repeated terms
    emb_windows: FloatArray | None = None
    emb_units: FloatArray | None = None
    emb_weights: FloatArray | None = None  # importance of each unit for wcov, sums to 1


@dataclass
class SentenceInfo:
    text: str
    lex_support: float
    emb_support: float | None
    best_window: int
    new_numbers: list[str] = field(default_factory=list)
    new_names: list[str] = field(default_factory=list)
    new_dates: list[str] = field(default_factory=list)
    unmatched_negation: str = ""
    broken: str = ""
    local_novel: float = 0.0
    clause_min: float = 1.0
    swap_margin: float | None = None
    swap_variant: str = ""

    @property
    def support(self) -> float:
        if self.emb_support is None:
            return self.lex_support
        return 0.5 * self.lex_support + 0.5 * self.emb_support

    @property
    def fact_errors(self) -> int:
        return len(self.new_numbers) + len(self.new_names) + len(self.new_dates)


@dataclass
class Analysis:
    source: SourceInfo
    sentences: list[SentenceInfo]
    features: dict[str, float]
    repeated: list[tuple[str, str]]
    omitted: list[str]
    doubled_words: list[str]


def _norm_tokens(text: str) -> list[str]:
    return [stem(w) for w in words(text)]


def analyse_source(text: str, embedder: Embedder | None) -> SourceInfo:
    units, dialogue = source_units(text)
    if not units:
        units = [Unit(text, 0, len(text), "", text)]
    unit_content = [set(content(u.resolved)) for u in units]
    windows: list[tuple[int, int]] = []
    for size in range(1, MAX_WINDOW + 1 if dialogue else 3):
        for i in range(len(units) - size + 1):
            windows.append((i, i + size))
    window_content = [set().union(*unit_content[a:b]) for a, b in windows]
    toks = _norm_tokens(text) + [t for u in units for t in _norm_tokens(u.resolved)]
    # importance: centrality (shared content words) plus a lead prior for prose
    freq: dict[str, int] = {}
    for c in unit_content:
        for w in c:
            freq[w] = freq.get(w, 0) + 1
    imp: list[float] = []
    for i, c in enumerate(unit_content):
        cent = sum(math.log1p(freq[w] - 1) for w in c) / (1.0 + math.sqrt(len(c)))
        lead = 1.0 / (1.0 + i / 3.0) if not dialogue else 0.0
        imp.append(cent + 2.0 * lead)
    info = SourceInfo(
        text=text,
        units=units,
        dialogue=dialogue,
        windows=windows,
        window_content=window_content,
        unit_content=unit_content,
        vocab=set(toks) | {w for w in words(text)},
        bigrams=set(ngrams(toks, 2)),
        trigrams=set(ngrams(toks, 3)),
        nums=numbers(text),
        name_set={w.lower() for w in words(text)},
        neg_units=[any(w in NEGATIONS for w in words(u.text)) for u in units],
        importance=imp,
        n_words=len(words(text)),
        speakers={u.speaker.lower() for u in units if u.speaker},
        tokens=words(text),
        # lenient on the source side: "Sat", "Mon", "Mar" count as the day or month here
        dates={d for d in map(date_word, words(text)) if d},
        keywords=_keywords(units, dialogue),
    )
    if embedder is not None:
        emb = embedder.embed([u.resolved for u in units])
        info.emb_units = emb
        win = np.stack([emb[a:b].mean(axis=0) for a, b in windows])
        win /= np.linalg.norm(win, axis=1, keepdims=True) + 1e-9
        info.emb_windows = win.astype(np.float32)
        info.emb_weights = _embedding_importance(emb, dialogue)
    return info


KEYWORDS = 20


def _keywords(units: list[Unit], dialogue: bool) -> list[tuple[str, int]]:
    """The source's most repeated content words (stemmed) with their counts. Turn prefixes
    ("Rina (PM):") are left out, since every turn would repeat its speaker's name, and so
    are bare digit groups ("000" of "110,000")."""
    bodies = [u.text[u.text.index(":") + 1 :] if dialogue else u.text for u in units]
    counts = Counter(w for b in bodies for w in content(b) if not w.isdigit())
    return counts.most_common(KEYWORDS)


def _embedding_importance(emb: FloatArray, dialogue: bool) -> FloatArray:
    """Weights of source units for coverage: semantic centrality (mean cosine to the other
    units, standardised) plus, for prose, a lead prior; softmax-normalised."""
    n = len(emb)
    sims = emb @ emb.T
    cent = (sims.sum(axis=1) - 1.0) / max(1, n - 1)
    score = (cent - cent.mean()) / (cent.std() + 1e-9)
    if not dialogue:
        score = score + 1.0 / (1.0 + np.arange(n) / 3.0)
    w = np.exp(1.5 * (score - score.max()))
    weights: FloatArray = (w / w.sum()).astype(np.float32)
    return weights


def _broken_reason(sent: str) -> str:
    ws = words(sent)
    stripped = sent.strip()
    if len(ws) < 3:
        return "too short"
    if stripped[-1] not in ".!?\"'”’)":
        return "no closing punctuation"
    if ws[-1] in BROKEN_END:
        return f'ends with "{ws[-1]}"'
    if stripped.count("(") != stripped.count(")"):
        return "unbalanced parentheses"
    for a, b in itertools.pairwise(ws):
        if a == b and a.isalpha():
            return f'doubled word "{a} {b}"'
    for k in (2, 3, 4):
        for i in range(len(ws) - 2 * k + 1):
            if ws[i : i + k] == ws[i + k : i + 2 * k]:
                return f'repeated phrase "{" ".join(ws[i : i + k])}"'
    return ""


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


_CLAUSE = re.compile(
    r",\s+|;\s+|\s+(?:and|but|because|so|while|which|who|after|before|although|dan|tetapi|"
    r"karena|sehingga|yang)\s+"
)


def _weak_number(v: str, info: SourceInfo) -> bool:
    """Number words that are poor evidence: "one", bare multipliers ("million" when the source
    writes "2M"), and in dialogues head-counts like "Two friends" (<= number of speakers)."""
    low = v.lower()
    if low == "one" or low in MULTIPLIERS:
        return True
    if low.isalpha() and info.dialogue:
        value = NUMBER_WORDS.get(low, "")
        return value.isdigit() and int(value) <= max(2, len(info.speakers))
    return False


def _values(forms: set[str]) -> set[float]:
    out: set[float] = set()
    for f in forms:
        try:
            out.add(float(f))
        except ValueError:
            continue
    return out


def _derived(forms: set[str], sentence_numbers: list[str], info: SourceInfo) -> bool:
    """A number that is the sum or difference of two numbers of the same sentence that the
    source does state ("$86K of it: $64K freight and $22K repairs") is arithmetic on the
    source, not a new fact."""
    targets = _values(forms)
    known = [_values(numbers(w)) for w in sentence_numbers if numbers(w) and numbers(w) & info.nums]
    operands = sorted({x for vals in known for x in vals})
    for i, a in enumerate(operands):
        for b in operands[i + 1 :]:
            for t in targets:
                tol = 0.005 * max(abs(t), 1.0)
                if abs(a + b - t) <= tol or abs(b - a - t) <= tol:
                    return True
    return False


def _swap_variants(sent: str, speakers: list[str]) -> list[str]:
    """The sentence with its two first speaker names exchanged, or with its only speaker name
    replaced by each other speaker."""
    present = [n for n in speakers if re.search(rf"\b{re.escape(n)}\b", sent)]
    if len(present) >= 2:
        a, b = present[:2]
        pat = re.compile(rf"\b({re.escape(a)}|{re.escape(b)})\b")
        return [pat.sub(lambda m: b if m.group(0) == a else a, sent)]
    if len(present) == 1:
        pat = re.compile(rf"\b{re.escape(present[0])}\b")
        return [pat.sub(o, sent) for o in speakers if o != present[0]][:4]
    return []


def _swap_check(
    infos: list[SentenceInfo], sims: FloatArray, info: SourceInfo, embedder: Embedder | None
) -> None:
    """Role contrast for dialogues: does the source (pronouns resolved to speaker names) fit the
    sentence better with the people exchanged? e5 barely moves when names swap, but the sign of
    the small difference is informative."""
    if embedder is None or info.emb_windows is None:
        return
    speakers = list(dict.fromkeys(u.speaker.split()[0] for u in info.units if u.speaker))
    variants = [_swap_variants(si.text, speakers) for si in infos]
    flat = [v for vs in variants for v in vs]
    if not flat:
        return
    alt = embedder.embed(flat) @ info.emb_windows.T
    k = 0
    for i, (si, vs) in enumerate(zip(infos, variants, strict=True)):
        if not vs:
            continue
        best_alt = alt[k : k + len(vs)].max(axis=1)
        j = int(np.argmax(best_alt))
        si.swap_margin = float(sims[i].max() - best_alt[j])
        si.swap_variant = vs[j]
        k += len(vs)


def _fragments(summ: list[str], src: list[str]) -> list[int]:
    """Greedy extractive fragments (Grusky et al. 2018): lengths of the longest shared spans."""
    pos: dict[tuple[str, str], list[int]] = {}
    for j in range(len(src) - 1):
        pos.setdefault((src[j], src[j + 1]), []).append(j)
    vocab = set(src)
    frags: list[int] = []
    i = 0
    while i < len(summ):
        best = 1 if summ[i] in vocab else 0
        if i + 1 < len(summ):
            for j in pos.get((summ[i], summ[i + 1]), []):
                k = 2
                while i + k < len(summ) and j + k < len(src) and summ[i + k] == src[j + k]:
                    k += 1
                best = max(best, k)
        if best:
            frags.append(best)
            i += best
        else:
            i += 1
    return frags


def analyse(
    info: SourceInfo, summary: str, embedder: Embedder | None, use_embeddings: bool
) -> Analysis:
    summary = strip_markup(summary)
    sents = [s for s, _, _ in split_sentences(summary)] or [summary.strip() or "."]
    sent_content = [set(content(s)) for s in sents]
    emb_s: FloatArray | None = None
    sims: FloatArray | None = None
    if use_embeddings and embedder is not None and info.emb_windows is not None:
        emb_s = embedder.embed(sents)
        sims = emb_s @ info.emb_windows.T
    infos: list[SentenceInfo] = []
    for k, (s, c) in enumerate(zip(sents, sent_content, strict=True)):
        lex = np.array(
            [len(c & wc) / max(1, len(c)) for wc in info.window_content], dtype=np.float64
        )
        # prefer small windows on ties
        sizes = np.array([b - a for a, b in info.windows], dtype=np.float64)
        lex_adj = lex - 0.01 * sizes
        esup: float | None = None
        if sims is not None:
            cos = sims[k].astype(np.float64)
            e = np.clip((cos - COS_LO) / (COS_HI - COS_LO), 0.0, 1.0)
            best = int(np.argmax(0.5 * lex_adj + 0.5 * e))
            esup = float(e.max())
        else:
            best = int(np.argmax(lex_adj))
        lsup = float(lex.max()) if c else 1.0
        si = SentenceInfo(s, lsup, esup, best)
        verbatim = numbers_verbatim(s)
        for v in verbatim:
            nv = numbers(v)
            if not nv or nv & info.nums or v in si.new_numbers or _weak_number(v, info):
                continue
            if _derived(nv, verbatim, info):
                continue
            si.new_numbers.append(v)
        for nm in names(s, initial=info.dialogue):
            low = nm.lower()
            if date_word(low):
                continue
            novel = low not in info.name_set and stem(low) not in info.vocab
            if novel and nm not in si.new_names:
                si.new_names.append(nm)
        for w in words(s):
            full = date_word(w)
            if not full or w in AMBIGUOUS_DATE_ABBREVIATIONS or full in info.dates:
                continue
            # A day or month is evidence only against a source that names other days (or
            # months): otherwise it is usually a relative date resolved ("tomorrow" said on
            # a Friday), and such flags were no better than chance on the dialogue sets.
            kind = DAYS if full in DAYS else MONTHS
            if info.dates & kind and w.capitalize() not in si.new_dates:
                si.new_dates.append(w.capitalize())
        a, b = info.windows[best]
        neg = [w for w in words(s) if w in NEGATIONS]
        if neg:
            # a negation is matched by any passage that supports the sentence nearly as well as
            # the best one: the best window alone is often a neighbouring turn
            close = np.flatnonzero(lex >= 0.8 * lex.max()) if c else [best]
            spans = [info.windows[int(k)] for k in close] + [(a, b)]
            if not any(any(info.neg_units[lo:hi]) for lo, hi in spans):
                si.unmatched_negation = neg[0]
        si.broken = _broken_reason(s)
        near = set().union(*info.unit_content[max(0, a - 1) : b + 1])
        si.local_novel = len(c - near) / max(1, len(c))
        for clause in _CLAUSE.split(s):
            cc = set(content(clause))
            if len(cc) >= 2:
                sup = max(len(cc & wc) / len(cc) for wc in info.window_content)
                si.clause_min = min(si.clause_min, sup)
        infos.append(si)

    # summary-level lexical features
    stoks = _norm_tokens(summary)
    scont = [t for c in sent_content for t in c]
    bg, tg = ngrams(stoks, 2), ngrams(stoks, 3)
    nov1 = sum(1 for t in scont if t not in info.vocab) / max(1, len(scont))
    nov2 = sum(1 for g in bg if g not in info.bigrams) / max(1, len(bg))
    nov3 = sum(1 for g in tg if g not in info.trigrams) / max(1, len(tg))
    rep3 = 1.0 - len(set(tg)) / max(1, len(tg))
    repeated: list[tuple[str, str]] = []
    rep_sent = 0.0
    for i in range(len(sents)):
        for j in range(i + 1, len(sents)):
            jac = _jaccard(sent_content[i], sent_content[j])
            rep_sent = max(rep_sent, jac)
            if jac >= 0.6:
                repeated.append((sents[i], sents[j]))
    lsups = [si.lex_support for si in infos]
    summary_words = set(stoks)
    summary_content = {w for c in sent_content for w in c}
    # coverage of important source units
    order_imp = sorted(range(len(info.units)), key=lambda i: -info.importance[i])
    top = order_imp[: max(3, len(order_imp) // 5)]
    covs = [
        len(info.unit_content[i] & summary_words) / max(1, len(info.unit_content[i])) for i in top
    ]
    # the lead of a dialogue is greetings, not a summary of it: use the central turns instead
    lead = list(range(min(3, len(info.units)))) if not info.dialogue else top
    lead_cov = sum(
        len(info.unit_content[i] & summary_words) / max(1, len(info.unit_content[i])) for i in lead
    ) / max(1, len(lead))
    ws = words(summary)
    positions = [info.windows[si.best_window][0] for si in infos]
    inversions = sum(
        1
        for i in range(len(positions))
        for j in range(i + 1, len(positions))
        if positions[j] < positions[i]
    )
    pairs = len(positions) * (len(positions) - 1) / 2
    steps = list(itertools.pairwise(positions))
    adj = [_jaccard(sent_content[i], sent_content[i + 1]) for i in range(len(sents) - 1)]
    doubled = [f"{a} {b}" for a, b in itertools.pairwise(ws) if a == b and a.isalpha()]
    frags = _fragments(ws, info.tokens)
    feats: dict[str, float] = {
        "frag_cov": sum(frags) / max(1, len(ws)),
        "frag_dens": sum(f * f for f in frags) / max(1, len(ws)),
        "local_nov": float(np.mean([si.local_novel for si in infos])),
        "trunc_end": 1.0 if infos[-1].broken else 0.0,
        "clause_min": min(si.clause_min for si in infos),
        "first_lead": 1.0 if positions and positions[0] == 0 else 0.0,
        "nov1": nov1,
        "nov2": nov2,
        "nov3": nov3,
        "rep3": rep3,
        "rep_sent": rep_sent,
        # sentence overlap beyond what sentences on one topic share anyway: the maximum over
        # pairs grows with the number of sentences, and a 15-sentence meeting summary has
        # pairs sharing a third of their words without repeating itself
        "rep_excess": max(0.0, rep_sent - REP_BASELINE),
        "lsup_mean": float(np.mean(lsups)),
        "lsup_min": float(np.min(lsups)),
        "bad_facts": math.log1p(sum(si.fact_errors for si in infos)),
        "bad_neg": float(sum(1 for si in infos if si.unmatched_negation)),
        "cov": float(np.mean(covs)) if covs else 0.0,
        # frequency-weighted share of the source's most repeated terms that the summary uses
        "kw_cov": sum(n for w, n in info.keywords if w in summary_content)
        / max(1, sum(n for _, n in info.keywords)),
        "lead_cov": lead_cov,
        "log_len": math.log1p(len(ws)),
        "n_sent": float(len(sents)),
        "compression": len(ws) / max(1, info.n_words),
        "broken": sum(1 for si in infos if si.broken) / len(infos),
        "lower_start": sum(1 for s in sents if s[:1].islower()) / len(sents),
        "dup_word": float(len(doubled)),
        "pron_start": 1.0
        if ws[:1] and ws[0] in {"he", "she", "it", "they", "his", "her", "this", "their"}
        else 0.0,
        "adj_overlap": float(np.mean(adj)) if adj else 0.0,
        "order": inversions / pairs if pairs else 0.0,
        "jump_back": sum(1 for p, q in steps if q < p) / len(steps) if steps else 0.0,
        "avg_sent_len": len(ws) / len(sents),
    }
    if emb_s is not None and info.emb_units is not None and sims is not None:
        esups = [si.emb_support or 0.0 for si in infos]
        feats["esup_mean"] = float(np.mean(esups))
        feats["esup_min"] = float(np.min(esups))
        cover = emb_s @ info.emb_units[top].T
        feats["ecov"] = float(np.mean(cover.max(axis=0)))
        cen_s = emb_s.mean(axis=0)
        cen_d = info.emb_units.mean(axis=0)
        feats["ecent"] = float(
            cen_s @ cen_d / (np.linalg.norm(cen_s) * np.linalg.norm(cen_d) + 1e-9)
        )
        # topical continuity between consecutive sentences
        adj_cos = [float(emb_s[i] @ emb_s[i + 1]) for i in range(len(sents) - 1)]
        feats["adjcos_min"] = min(adj_cos) if adj_cos else 1.0
        feats["adjcos_mean"] = float(np.mean(adj_cos)) if adj_cos else 1.0
        # importance-weighted semantic coverage of the whole source
        if info.emb_weights is not None:
            covered = np.clip(
                ((emb_s @ info.emb_units.T).max(axis=0) - COS_LO) / (COS_HI - COS_LO), 0.0, 1.0
            )
            feats["wcov"] = float(info.emb_weights @ covered)
    chat = len(info.speakers) <= SWAP_MAX_SPEAKERS
    if sims is not None and info.dialogue and info.emb_windows is not None and chat:
        _swap_check(infos, sims, info, embedder)
        margins = [si.swap_margin for si in infos if si.swap_margin is not None]
        feats["swap_margin"] = float(np.mean(margins)) if margins else 0.0
    elif sims is not None and not info.dialogue:
        feats["swap_margin"] = 0.0
    omitted: list[str] = []
    for i, cv in zip(top[:3], covs[:3], strict=True):
        if cv >= 0.25:
            continue
        # lexically absent but paraphrased: not an omission
        paraphrased = (
            emb_s is not None
            and info.emb_units is not None
            and (float((emb_s @ info.emb_units[i]).max()) > COS_HI - 0.02)
        )
        if paraphrased:
            continue
        omitted.append(info.units[i].text)
    return Analysis(info, infos, feats, repeated, omitted[:2], doubled)


def shorten(text: str, limit: int = 90) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0]
    return cut + " ..."
