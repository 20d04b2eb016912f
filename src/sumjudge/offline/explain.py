"""Evidence items and explanation templates (English and Indonesian)."""

from __future__ import annotations

from .features import SWAP_EVIDENCE
from .grammar import garbled
from .records import Analysis, SentenceInfo
from .text import shorten

UNSUPPORTED = 0.45  # combined support below this: "no supporting source passage"

_T: dict[str, dict[str, str]] = {
    "en": {
        "number": 'the summary gives "{x}", which the source does not contain',
        "name": 'the summary names "{x}", who/which the source never mentions',
        "date": 'the summary says "{x}", a date the source does not give (it mentions other dates)',
        "swap": 'possible swap of people in "{s}": the source fits "{x}" better',
        "twice": 'lists "{x}" twice among the people in "{s}"',
        "neg": 'negation "{x}" in "{s}" has no negated counterpart in the matching source passage',
        "contra": '"{s}" says the opposite of the source: "{q}"',
        "vote": '"{s}" says no one was against, but the source records a vote against: "{q}"',
        "owner": '"{s}" gives the task to {x}, but in the source {y} takes it: "{q}"',
        "agree": 'grammar error ("{x}") in "{s}"',
        "rate": "{n} language errors in {m} sentences",
        "unsup": 'no source passage supports "{s}" (best match: "{q}")',
        "omit": 'leaves out an important source passage: "{q}"',
        "repeat": 'repeats itself: "{a}" / "{b}"',
        "trirep": "{x:.0%} of its word trigrams are repeats",
        "broken": 'broken sentence ({x}): "{s}"',
        "lower": '"{s}" starts in lower case',
        "order": "its sentences follow the source out of order",
        "score": "{metric} {score}/3.",
        "ok_cons": "Every summary sentence ({n}) has a supporting source passage; no new numbers, "
        "names or dates, and nothing the source contradicts.",
        "ok_cons_some": "No new numbers, names or dates, and nothing the source contradicts; {k} "
        "of its {n} sentences are close to a source passage, the others reworded.",
        "ok_rel": "It covers the main source passages (coverage {x:.0%} of key content).",
        "ok_coh": "No repeated or broken sentences (it has {n}).",
        "ok_flu": "Every sentence ({n}) is complete; no doubled words or grammar errors.",
        "short": "No single flaw stands out; its signals together fall short of good.",
        "cov": "it covers {x:.0%} of the key source content",
        "some_sup": "{k} of {n} summary sentences are supported by the source",
    },
    "id": {
        "number": 'ringkasan menyebut "{x}", yang tidak ada di sumber',
        "name": 'ringkasan menyebut nama "{x}", yang tidak pernah disebut di sumber',
        "date": 'ringkasan menyebut "{x}", tanggal/hari yang tidak ada di sumber (sumber menyebut '
        "yang lain)",
        "swap": 'kemungkinan orang tertukar dalam "{s}": sumber lebih cocok dengan "{x}"',
        "twice": 'menyebut "{x}" dua kali dalam daftar orang di "{s}"',
        "neg": 'negasi "{x}" dalam "{s}" tidak punya padanan di bagian sumber yang cocok',
        "contra": '"{s}" menyatakan kebalikan dari sumber: "{q}"',
        "vote": '"{s}" menyatakan tidak ada yang menolak, padahal sumber mencatat suara menolak: '
        '"{q}"',
        "owner": '"{s}" memberikan tugas kepada {x}, padahal di sumber {y} yang mengambilnya: '
        '"{q}"',
        "agree": 'kesalahan tata bahasa ("{x}") dalam "{s}"',
        "rate": "{n} kesalahan bahasa dalam {m} kalimat",
        "unsup": 'tidak ada bagian sumber yang mendukung "{s}" (paling mirip: "{q}")',
        "omit": 'melewatkan bagian penting dari sumber: "{q}"',
        "repeat": 'mengulang kalimat: "{a}" / "{b}"',
        "trirep": "{x:.0%} trigram kata di dalamnya berulang",
        "broken": 'kalimat rusak ({x}): "{s}"',
        "lower": '"{s}" diawali huruf kecil',
        "order": "urutan kalimatnya tidak mengikuti urutan sumber",
        "score": "{metric} {score}/3.",
        "ok_cons": "Setiap kalimat ringkasan ({n}) didukung bagian sumber; tidak ada angka, nama, "
        "atau tanggal baru, dan tidak ada yang bertentangan dengan sumber.",
        "ok_cons_some": "Tidak ada angka, nama, atau tanggal baru, dan tidak ada yang bertentangan "
        "dengan sumber; {k} dari {n} kalimatnya dekat dengan bagian sumber, sisanya "
        "dirumuskan ulang.",
        "ok_rel": "Ringkasan mencakup bagian utama sumber (cakupan {x:.0%} isi kunci).",
        "ok_coh": "Tidak ada kalimat yang berulang atau rusak (dari {n} kalimat).",
        "ok_flu": "Setiap kalimat ({n}) lengkap; tidak ada kata ganda atau kesalahan tata bahasa.",
        "short": "Tidak ada satu kelemahan yang menonjol; sinyal-sinyalnya bersama-sama belum "
        "mencapai tingkat baik.",
        "cov": "mencakup {x:.0%} isi kunci sumber",
        "some_sup": "{k} dari {n} kalimat ringkasan didukung sumber",
    },
}
_METRIC_ID = {
    "coherence": "Koherensi",
    "consistency": "Konsistensi",
    "relevance": "Relevansi",
    "fluency": "Kelancaran",
}


def sentence_problems(si: SentenceInfo, lang: str, swaps: bool = True) -> list[str]:
    """Consistency evidence for one summary sentence (`swaps`: with the swap check's)."""
    t = _T[lang]
    out = [t["number"].format(x=x) for x in si.new_numbers]
    out += [t["name"].format(x=x) for x in si.new_names]
    out += [t["date"].format(x=x) for x in si.new_dates]
    if si.unmatched_negation and not si.contradicts:  # (the contradiction says more)
        out.append(t["neg"].format(x=si.unmatched_negation, s=shorten(si.text, 60)))
    if si.listed_twice:
        out.append(t["twice"].format(x=si.listed_twice, s=shorten(si.text, 60)))
    if swaps and si.swap_margin is not None and si.swap_margin < SWAP_EVIDENCE:
        out.append(t["swap"].format(s=shorten(si.text, 60), x=shorten(si.swap_variant, 60)))
    if si.contradicts:
        out.append(t["contra"].format(s=shorten(si.text, 60), q=shorten(si.contradicts, 80)))
    if si.vote_reversed:
        out.append(t["vote"].format(s=shorten(si.text, 60), q=shorten(si.vote_reversed, 80)))
    if si.owner_swap is not None:
        o = si.owner_swap
        out.append(
            t["owner"].format(s=shorten(si.text, 60), x=o.said, y=o.owner, q=shorten(o.quote, 80))
        )
    return out


def evidence_for(metric: str, a: Analysis, lang: str, swaps: bool = True) -> list[str]:
    """Evidence items (in `lang`) of the flaws of `metric`'s kind found in an analysed pair.

    `swaps=False` leaves out the embedding swap check's items (a margin, not a reading).
    """
    t = _T[lang]
    ev: list[str] = []
    if metric == "consistency":
        for si in a.sentences:
            ev += sentence_problems(si, lang, swaps)
        for si in a.sentences:
            if si.support < UNSUPPORTED:
                u = a.source.units[a.source.windows[si.best_window][0]]
                ev.append(t["unsup"].format(s=shorten(si.text), q=shorten(u.text, 70)))
    elif metric == "relevance":
        ev += [t["omit"].format(q=shorten(q, 100)) for q in a.omitted]
        for si in a.sentences:
            if si.support < UNSUPPORTED:
                u = a.source.units[a.source.windows[si.best_window][0]]
                ev.append(t["unsup"].format(s=shorten(si.text), q=shorten(u.text, 70)))
    elif metric == "coherence":
        ev += [t["repeat"].format(a=shorten(x, 60), b=shorten(y, 60)) for x, y in a.repeated]
        if a.features["rep3"] >= 0.1:
            ev.append(t["trirep"].format(x=a.features["rep3"]))
        if a.features.get("order", 0.0) > 0.34 and len(a.sentences) >= 3:
            ev.append(t["order"])
        ev += [
            t["broken"].format(x=si.broken, s=shorten(si.text, 60))
            for si in a.sentences
            if si.broken
        ]
    elif metric == "fluency":
        n_errors = sum(bool(si.broken) + len(si.agreement) for si in a.sentences)
        if garbled(n_errors, len(a.sentences)):  # what makes fluency poor, counted
            ev.append(t["rate"].format(n=n_errors, m=len(a.sentences)))
        ev += [
            t["broken"].format(x=si.broken, s=shorten(si.text, 60))
            for si in a.sentences
            if si.broken
        ]
        ev += [
            t["agree"].format(x=x, s=shorten(si.text, 60))
            for si in a.sentences
            for x in si.agreement
        ]
        ev += [
            t["lower"].format(s=shorten(si.text, 50)) for si in a.sentences if si.text[:1].islower()
        ]
        ev += [t["repeat"].format(a=shorten(x, 60), b=shorten(y, 60)) for x, y in a.repeated]
    return ev


_SIGNALS: dict[str, dict[str, str]] = {
    "en": {
        "nov2": "{x:.0%} of its word pairs do not occur in the source",
        "nov3": "{x:.0%} of its word triples do not occur in the source",
        "local_nov": "{x:.0%} of its content words are absent from the matching passages",
        "lsup_mean": "on average only {x:.0%} of a sentence's content words are in the source",
        "esup_mean": "its sentences are only loosely similar to the source (support {x:.2f})",
        "esup_min": "its least supported sentence has support {x:.2f}",
        "cov": "it covers only {x:.0%} of the key source content",
        "lead_cov": "it covers {x:.0%} of the opening passages",
        "ecent": "its overall meaning is only loosely similar to the source ({x:.2f})",
        "n_sent": "it has {x:.0f} sentences",
        "avg_sent_len": "its sentences average {x:.0f} words",
        "rep3": "{x:.0%} of its word triples are repeats",
        "rep_sent": "two of its sentences overlap by {x:.0%}",
        "order": "{x:.0%} of sentence pairs follow the source out of order",
        "log_len": "its length",
        "compression": "its length relative to the source",
        "broken": "{x:.0%} of its sentences look broken",
        "frag_dens": "it copies only short fragments of the source",
        "swap_margin": "names are placed in roles the source does not support",
        "swap_min": "in one sentence the names fit the source better exchanged",
        "rep_excess": "two of its sentences overlap by {x:.0%}",
        "jump_back": "{x:.0%} of its steps from one sentence to the next go back in the source",
        "adjcos_mean": "consecutive sentences are only loosely related ({x:.2f})",
        "wcov": "it covers only {x:.0%} of the weighted source content",
        "ecov": "it is only loosely similar to the central source passages ({x:.2f})",
        "clause_min": "its least supported clause has only {x:.0%} of its content words in the "
        "source",
        "lsup_min": "its least supported sentence has only {x:.0%} of its content words in the "
        "source",
        "nov1": "{x:.0%} of its content words do not occur in the source",
        "kw_cov": "it uses only {x:.0%} of the terms the source repeats most",
        "splice": "it glues copied source fragments together mid-clause ({x:.2f} joints per "
        "sentence)",
    },
    "id": {
        "nov2": "{x:.0%} pasangan katanya tidak ada di sumber",
        "nov3": "{x:.0%} rangkaian tiga katanya tidak ada di sumber",
        "local_nov": "{x:.0%} kata pentingnya tidak ada di bagian sumber yang cocok",
        "lsup_mean": "rata-rata hanya {x:.0%} kata penting per kalimat ada di sumber",
        "esup_mean": "kalimatnya hanya sedikit mirip dengan sumber (dukungan {x:.2f})",
        "esup_min": "kalimat yang paling lemah dukungannya bernilai {x:.2f}",
        "cov": "hanya mencakup {x:.0%} isi kunci sumber",
        "lead_cov": "mencakup {x:.0%} bagian awal sumber",
        "ecent": "maknanya secara keseluruhan hanya sedikit mirip dengan sumber ({x:.2f})",
        "n_sent": "terdiri dari {x:.0f} kalimat",
        "avg_sent_len": "rata-rata {x:.0f} kata per kalimat",
        "rep3": "{x:.0%} rangkaian tiga katanya berulang",
        "rep_sent": "dua kalimatnya tumpang tindih {x:.0%}",
        "order": "{x:.0%} pasangan kalimat tidak mengikuti urutan sumber",
        "log_len": "panjangnya",
        "compression": "panjangnya dibanding sumber",
        "broken": "{x:.0%} kalimatnya tampak rusak",
        "frag_dens": "hanya menyalin potongan pendek dari sumber",
        "swap_margin": "nama orang ditempatkan pada peran yang tidak didukung sumber",
        "swap_min": "dalam satu kalimat, nama orang lebih cocok dengan sumber jika ditukar",
        "rep_excess": "dua kalimatnya tumpang tindih {x:.0%}",
        "jump_back": "{x:.0%} perpindahan antarkalimatnya mundur dalam urutan sumber",
        "adjcos_mean": "kalimat yang berurutan hanya sedikit berkaitan ({x:.2f})",
        "wcov": "hanya mencakup {x:.0%} isi sumber berbobot",
        "ecov": "hanya sedikit mirip dengan bagian inti sumber ({x:.2f})",
        "clause_min": "klausa yang paling lemah hanya {x:.0%} kata pentingnya ada di sumber",
        "lsup_min": "kalimat yang paling lemah hanya {x:.0%} kata pentingnya ada di sumber",
        "nov1": "{x:.0%} kata pentingnya tidak ada di sumber",
        "kw_cov": "hanya memakai {x:.0%} istilah yang paling sering diulang sumber",
        "splice": "menyambung potongan sumber di tengah klausa ({x:.2f} sambungan per kalimat)",
    },
}
# a signal whose explanation quotes another feature's value
_SHOWN = {"rep_excess": "rep_sent"}
_DRIVERS = {"en": "Main signals lowering the score: ", "id": "Sinyal utama yang menurunkan skor: "}


def drivers(contrib: dict[str, float], feats: dict[str, float], lang: str) -> str:
    """The two signals that pull the raw score down most, in words ("" if none)."""
    neg = sorted((v, k) for k, v in contrib.items() if v < -0.02 and k in _SIGNALS[lang])
    if not neg:
        return ""
    parts = [_SIGNALS[lang][k].format(x=feats.get(_SHOWN.get(k, k), 0.0)) for _, k in neg[:2]]
    return _DRIVERS[lang] + "; ".join(parts) + "."


def explanation(
    metric: str,
    score: int,
    a: Analysis,
    ev: list[str],
    lang: str,
    contrib: dict[str, float] | None = None,
) -> str:
    """The explanation of a verdict: its score, evidence, or else the signals behind it.

    Args:
        metric: The metric judged.
        score: The 1-3 score given.
        a: The analysed pair.
        ev: The evidence items (`evidence_for`).
        lang: "en" or "id".
        contrib: Each feature's contribution to the raw score, to name the signals that lower
            a score when there is no evidence.

    Returns:
        One paragraph, starting with "<Metric> <score>/3.".
    """
    t = _T[lang]
    name = _METRIC_ID[metric] if lang == "id" else metric.capitalize()
    head = t["score"].format(metric=name, score=score)
    n = len(a.sentences)
    k = sum(1 for si in a.sentences if si.support >= UNSUPPORTED)
    # The body never contradicts the score: below 3 it names what lowered it (evidence,
    # else the signals, else says that no single flaw stands out), never an all-clear.
    if ev:
        shown = ev[:5]
        more = f" (+{len(ev) - 5})" if len(ev) > 5 else ""
        body = "; ".join(shown) + more
        body = body[0].upper() + body[1:] + "."
    elif score < 3:
        body = (contrib and drivers(contrib, a.features, lang)) or t["short"]
    elif metric == "consistency":
        body = t["ok_cons"].format(n=n) if k == n else t["ok_cons_some"].format(k=k, n=n)
    elif metric == "relevance":
        body = t["ok_rel"].format(x=a.features["cov"])
    elif metric == "coherence":
        body = t["ok_coh"].format(n=n)
    else:
        body = t["ok_flu"].format(n=n)
    extra = ""
    if metric == "relevance" and ev:
        extra = " " + t["cov"].format(x=a.features["cov"]).capitalize() + "."
    if metric == "consistency" and ev and k < n:  # (all n supported: no news beside evidence)
        extra = " " + t["some_sup"].format(k=k, n=n).capitalize() + "."
    if ev and score < 3 and contrib:
        d = drivers(contrib, a.features, lang)
        extra += f" {d}" if d else ""
    return f"{head} {body}{extra}"
