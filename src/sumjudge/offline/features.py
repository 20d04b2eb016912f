"""Numeric features of a summary against its analysed source, and per-sentence evidence."""

from __future__ import annotations

import itertools
import math

import numpy as np

from .closeness import closeness_features
from .coverage import weighted_coverage
from .dialogue import people, swap_check
from .embed import Embedder, FloatArray
from .entities import names, new_dates, new_names
from .focus import IntArray, Progress, SummaryVectors, summary_vectors
from .grammar import grammar_errors, persons_of, proper_names
from .mentions import listed_twice
from .numbers import new_numbers
from .owners import owner_readings
from .pairs import inversions, repetition
from .polarity import contradiction, reversed_vote
from .problems import broken_reason, clause_min, unmatched_negation
from .records import Analysis, SentenceInfo, SourceInfo
from .shape import shape_features
from .source import analyse_source, content_turn, norm_tokens
from .splice import PairStarts, copied_fragments, splice_rate
from .text import content, detect_language, fold, ngrams, sentences, strip_markup, words

__all__ = [
    "EMBED_FEATURES",
    "LEXICAL_FEATURES",
    "SWAP_EVIDENCE",
    "Analysis",
    "SentenceInfo",
    "SourceInfo",
    "analyse",
    "analyse_source",
]

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
    "article_err",
    "rep_in_sent",
    "run_on",
    "conn_start",
    "listed_twice",
    "splice",
)
EMBED_FEATURES: tuple[str, ...] = (
    "esup_mean",
    "esup_min",
    "ecov",
    "ecent",
    "swap_margin",
    "swap_min",
    "adjcos_min",
    "adjcos_mean",
    "wcov",
    "ecos_mean",
)
# a swapped-names variant fitting the source better by this much is reported as evidence
SWAP_EVIDENCE = -0.01


# With more speakers than this, who said something is a poor proxy for who does it
# (assignments, "Wulan, please ...", and read-backs of action items by a chair), so the swap
# check is skipped and the feature left out (calibrated models then treat it as average).
SWAP_MAX_SPEAKERS = 3
REP_BASELINE = 0.3
# Signals left out for transcript sources (a model counts a missing signal as average).
# They come from news summaries of news articles, where following the article's order in
# long sentences is what a good summary does; a summary of a meeting is written by topic
# (decisions, then action items, going back in the transcript) and in short bullet
# points, and reads well.
PROSE_ONLY = ("avg_sent_len", "order", "jump_back")
_PRONOUNS = frozenset(["he", "she", "it", "they", "his", "her", "this", "their"])


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def _fragments(summ: list[str], info: SourceInfo, pos: PairStarts) -> list[int]:
    """Greedy extractive fragments (Grusky et al. 2018): lengths of the longest shared spans.

    The copied runs of `splice.copied_fragments` (`pos`: where the summary's word pairs
    start in the source's tokens), and a lone word the source has counts as a run of one.
    """
    return [
        n
        for i, n, j in copied_fragments(summ, info.tokens, pos)
        if j >= 0 or summ[i] in info.token_set
    ]


def _sentence(
    s: str,
    c: set[str],
    info: SourceInfo,
    sims: FloatArray | None,
    part: float | None,
    cols: IntArray | None = None,
) -> SentenceInfo:
    """Support and evidence of one summary sentence.

    `c` holds the sentence's content words, `sims` its cosines to the source windows `cols`
    (every window when None; `sims` None without embeddings) and `part` its best cosine to a
    single sentence of a long turn (None when there is none).
    """
    lex = info.support.counts(c) / max(1, len(c))
    # prefer small windows on ties
    lex_adj = lex - 0.01 * info.support.sizes
    esup: float | None = None
    if sims is not None:
        cos = sims.astype(np.float64)
        e = np.clip((cos - COS_LO) / (COS_HI - COS_LO), 0.0, 1.0)
        if cols is None:
            best = int(np.argmax(0.5 * lex_adj + 0.5 * e))
        else:  # a long source: the windows compared (`focus.py`)
            best = int(cols[np.argmax(0.5 * lex_adj[cols] + 0.5 * e)])
        esup = float(e.max())
        if part is not None:
            esup = max(esup, float(np.clip((part - COS_LO) / (COS_HI - COS_LO), 0.0, 1.0)))
    else:
        best = int(np.argmax(lex_adj))
    lsup = float(lex.max()) if c else 1.0
    si = SentenceInfo(s, lsup, esup, best)
    si.new_numbers = new_numbers(s, info)
    si.new_names = new_names(s, info)
    si.new_dates = new_dates(s, info)
    si.listed_twice = listed_twice(s)
    si.unmatched_negation = unmatched_negation(s, bool(c), lex, best, info)
    si.broken = broken_reason(s)
    a, b = info.windows[best]
    near = set().union(*info.unit_content[max(0, a - 1) : b + 1])
    if fold(s) not in info.folded:  # (a sentence of the source cannot contradict it)
        # the passages it restates: its best window and the units next to it (a vote's
        # tally may come a few turns after the call for it)
        n = len(info.units)
        si.contradicts = contradiction(s, range(max(0, a - 2), min(n, b + 2)), info)
        si.vote_reversed = reversed_vote(s, range(max(0, a - 4), min(n, b + 4)), info)
    si.local_novel = len(c - near) / max(1, len(c))
    si.clause_min = clause_min(s, info.support)
    return si


def analyse(
    info: SourceInfo,
    summary: str,
    embedder: Embedder | None,
    use_embeddings: bool,
    progress: Progress | None = None,
) -> Analysis:
    """Analyse a summary against its analysed source.

    Args:
        info: The source, from `analyse_source`.
        summary: The summary (markdown allowed).
        embedder: The embedder `info` was analysed with, if any.
        use_embeddings: Whether to compute the embedding features.
        progress: Called with (passages embedded, passages) while the passages of a long
            source this summary needs are embedded.

    Returns:
        Per-sentence support and evidence, and the features the calibrated models score.
    """
    if summary == info.raw:  # the source itself (a subtitle file too): read like the source
        summary = info.text
    summary = strip_markup(summary)
    sents = [s for s, _, _ in sentences(summary)] or [summary.strip() or "."]
    sent_content = [set(content(s)) for s in sents]
    vecs = None
    if use_embeddings and embedder is not None:
        vecs = summary_vectors(info, sents, sent_content, embedder, progress)
    # a very long summary has some of its sentences embedded (`focus.MAX_SENTENCES`)
    row = {k: r for r, k in enumerate(vecs.rows)} if vecs is not None else {}
    infos = [
        _sentence(s, c, info, None, None)
        if vecs is None or k not in row
        else _sentence(s, c, info, vecs.sims[row[k]], vecs.parts[row[k]], vecs.cols)
        for k, (s, c) in enumerate(zip(sents, sent_content, strict=True))
    ]
    readings = owner_readings(sents, people(info.units), info.units, info.assignments)
    for si, reading in zip(infos, readings, strict=True):
        si.owner_swap = reading.swap if fold(si.text) not in info.folded else None
    vocabulary = info.token_set | set(words(summary))
    persons = persons_of(info.text, frozenset(info.speakers))
    named = proper_names(info.text, frozenset(info.name_set), {n.lower() for n in names(summary)})
    errors = grammar_errors(sents, vocabulary, detect_language(summary), persons, named)
    for si, errs in zip(infos, errors, strict=True):
        si.agreement = errs
    extractive = all(fold(s) in info.folded for s in sents)
    if extractive:  # the source's own sentences are not broken, whatever they look like
        for si in infos:
            si.broken = ""
            si.agreement = []
    feats, repeated, doubled, top, covs = _lexical_features(
        info, summary, sents, sent_content, infos
    )
    feats.update(shape_features(sents))
    embedded = [infos[k] for k in vecs.rows] if vecs is not None else []
    if vecs is not None:
        feats.update(_embedding_features(info, vecs, embedded, top))
        feats.update(closeness_features(vecs.sims, vecs.parts))
    chat = len(info.speakers) <= SWAP_MAX_SPEAKERS
    if vecs is not None and info.dialogue and chat:
        swap_check(embedded, vecs.sims, info, embedder, vecs.windows)
        for si, reading in zip(infos, readings, strict=True):  # a doer the tasks confirm
            si.swap_margin = None if reading.confirmed else si.swap_margin
        margins = [si.swap_margin for si in infos if si.swap_margin is not None]
        feats["swap_margin"] = float(np.mean(margins)) if margins else 0.0
        # the worst sentence: one swapped pair of people is the error, however many
        # sentences around it are right
        feats["swap_min"] = min(margins) if margins else 0.0
    elif vecs is not None and not info.dialogue:
        feats["swap_margin"] = 0.0
        feats["swap_min"] = 0.0
    omitted: list[str] = []
    summary_content = set().union(*sent_content)
    for i, cv in zip(top[:3], covs[:3], strict=True):
        if cv >= 0.25 or not _omission_worthy(info, i, summary_content):
            continue
        # lexically absent but paraphrased: not an omission
        paraphrased = vecs is not None and any(
            float((vecs.emb @ vecs.units[r]).max()) > COS_HI - 0.02 for r in vecs.unit_rows([i])
        )
        if paraphrased:
            continue
        omitted.append(info.units[i].text)
    return Analysis(info, infos, feats, repeated, omitted[:2], doubled, extractive)


def _omission_worthy(info: SourceInfo, i: int, summary_content: set[str]) -> bool:
    """Whether leaving out source unit `i` is worth citing as an omission.

    Not a short turn ("That's great, thank you.": fewer than four content words), and in a
    dialogue not a question whose answer, the next turn, the summary covers.
    """
    if not content_turn(info, i):
        return False
    if info.dialogue and i + 1 < len(info.units):
        answer = info.unit_content[i + 1]
        if answer and len(answer & summary_content) / len(answer) >= 0.25:
            return False
    return True


def _lexical_features(
    info: SourceInfo,
    summary: str,
    sents: list[str],
    sent_content: list[set[str]],
    infos: list[SentenceInfo],
) -> tuple[dict[str, float], list[tuple[str, str]], list[str], list[int], list[float]]:
    """Summary-level lexical features.

    Returns:
        The features, the repeated sentence pairs, the doubled words, the most important
        source units and their lexical coverage (the evidence reuses them).
    """
    stoks = norm_tokens(summary)
    scont = [t for c in sent_content for t in c]
    bg, tg = ngrams(stoks, 2), ngrams(stoks, 3)
    nov1 = sum(1 for t in scont if t not in info.vocab) / max(1, len(scont))
    nov2 = sum(1 for g in bg if g not in info.bigrams) / max(1, len(bg))
    nov3 = sum(1 for g in tg if g not in info.trigrams) / max(1, len(tg))
    rep3 = 1.0 - len(set(tg)) / max(1, len(tg))
    rep_sent, rep_pairs = repetition(sent_content)  # (bounded on a very long summary)
    repeated = [(sents[i], sents[j]) for i, j in rep_pairs]
    lsups = [si.lex_support for si in infos]
    summary_words = set(stoks)
    summary_content = {w for c in sent_content for w in c}
    # coverage of important source units
    order_imp = sorted(range(len(info.units)), key=lambda i: -info.importance[i])
    if info.dialogue:  # greetings and thanks share words with every turn: not central content
        order_imp = [i for i in order_imp if content_turn(info, i)] or order_imp
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
    pairs = len(positions) * (len(positions) - 1) / 2
    steps = list(itertools.pairwise(positions))
    adj = [_jaccard(sent_content[i], sent_content[i + 1]) for i in range(len(sents) - 1)]
    doubled = [f"{a} {b}" for a, b in itertools.pairwise(ws) if a == b and a.isalpha()]
    # one pass over the source finds the summary's word pairs for both fragment searches
    pos = info.pair_starts(set(itertools.pairwise(ws)))
    frags = _fragments(ws, info, pos)
    feats: dict[str, float] = {
        "frag_cov": sum(frags) / max(1, len(ws)),
        "frag_dens": sum(f * f for f in frags) / max(1, len(ws)),
        "splice": splice_rate(sents, info.tokens, lambda: info.joints, pos),
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
        "listed_twice": float(sum(1 for si in infos if si.listed_twice)),
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
        "pron_start": 1.0 if ws[:1] and ws[0] in _PRONOUNS else 0.0,
        "adj_overlap": float(np.mean(adj)) if adj else 0.0,
        "order": inversions(positions) / pairs if pairs else 0.0,
        "jump_back": sum(1 for p, q in steps if q < p) / len(steps) if steps else 0.0,
        "avg_sent_len": len(ws) / len(sents),
    }
    if info.dialogue:
        for name in PROSE_ONLY:
            del feats[name]
    return feats, repeated, doubled, top, covs


def _embedding_features(
    info: SourceInfo, vecs: SummaryVectors, infos: list[SentenceInfo], top: list[int]
) -> dict[str, float]:
    """Summary-level features from the embeddings of the sentences and the source units.

    `infos` are the sentences embedded; on a long source the units are its sample.
    """
    emb_s, emb_units = vecs.emb, vecs.units
    feats: dict[str, float] = {}
    esups = [si.emb_support or 0.0 for si in infos]
    feats["esup_mean"] = float(np.mean(esups))
    feats["esup_min"] = float(np.min(esups))
    cover = emb_s @ emb_units[vecs.unit_rows(top)].T
    feats["ecov"] = float(np.mean(cover.max(axis=0)))
    cen_s = emb_s.mean(axis=0)
    cen_d = emb_units.mean(axis=0)
    feats["ecent"] = float(cen_s @ cen_d / (np.linalg.norm(cen_s) * np.linalg.norm(cen_d) + 1e-9))
    # topical continuity between consecutive sentences
    adj_cos = [float(emb_s[i] @ emb_s[i + 1]) for i in range(len(infos) - 1)]
    feats["adjcos_min"] = min(adj_cos) if adj_cos else 1.0
    feats["adjcos_mean"] = float(np.mean(adj_cos)) if adj_cos else 1.0
    # importance-weighted semantic coverage of the whole source
    if info.emb_weights is not None:
        feats["wcov"] = weighted_coverage(
            info, emb_s @ emb_units.T, info.emb_weights, info.emb_unit_ids
        )
    return feats
