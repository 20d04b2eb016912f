"""Which languages the offline judge reads and writes, and a clear refusal of the others.

It writes explanations in English and Indonesian. It reads text as words between spaces:
its support, coverage and evidence count shared words, so a language written without
spaces between words (Japanese, Chinese, Thai, Lao, Khmer, Burmese, Tibetan) would be read
as a few very long "words" and a faithful summary judged as sharing none of them. Such a
source or summary is refused with `UnsupportedText` rather than given a wrong verdict.
Its word lists (negations, number words, contrary words, agreement rules, stop words) are
English and Indonesian; other languages written with spaces get the lexical and embedding
signals without those checks (docs/offline.md, "Languages").
"""

from __future__ import annotations

import re

from ..errors import ConfigError
from .text import detect_language

EXPLANATION_LANGUAGES = {"en": "English", "id": "Indonesian"}
_NAMES = {
    "english": "en",
    "indonesian": "id",
    "bahasa indonesia": "id",
    "indonesian (bahasa indonesia)": "id",
}
# Scripts written without spaces between words, by Unicode block.
_UNSPACED = (
    ("Japanese", "\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f"),  # kana (kanji counted below)
    ("Chinese", "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"),
    ("Thai", "\u0e00-\u0e7f"),
    ("Lao", "\u0e80-\u0eff"),
    ("Khmer", "\u1780-\u17ff"),
    ("Burmese", "\u1000-\u109f"),
    ("Tibetan", "\u0f00-\u0fff"),
)
_LETTER = re.compile(r"[^\W\d_]")
# a text is refused when this share of its letters is in such a script (a name or a
# quoted phrase in an English text is not)
UNSPACED_SHARE = 0.2
_SAMPLE = 20_000


class UnsupportedText(ValueError):
    """A source or summary in a script the offline judge cannot read (see the module)."""


def unspaced_script(text: str) -> str:
    """The script without spaces between words that a text is mostly written in, or ""."""
    sample = text[:_SAMPLE]
    letters = len(_LETTER.findall(sample))
    if not letters:
        return ""
    counts = {name: len(re.findall(f"[{chars}]", sample)) for name, chars in _UNSPACED}
    if counts["Japanese"]:  # kanji are Chinese characters: kana make it Japanese
        counts["Japanese"] += counts.pop("Chinese")
    name, n = max(counts.items(), key=lambda kv: kv[1])
    return name if n / letters >= UNSPACED_SHARE else ""


def check_readable(source: str, summary: str) -> None:
    """Refuse a source or summary the offline judge cannot read.

    Raises:
        UnsupportedText: one of them is written in a script without spaces between words.
    """
    for what, text in (("source", source), ("summary", summary)):
        script = unspaced_script(text)
        if script:
            raise UnsupportedText(
                f"the offline judge cannot judge this {what}: it is written in {script}, "
                "without spaces between words, and the offline judge reads text as words "
                "between spaces (it would find no shared words and give a wrong verdict); "
                "use an LLM judge (--model), which reads any language"
            )


def explanation_language(language: str | None, source: str) -> str:
    """The language ("en" or "id") of the explanations: the one asked for, else the source's.

    Args:
        language: A code ("en", "id-ID") or a name ("Indonesian"), or None.
        source: The source, whose language is used when `language` is None.

    Raises:
        ConfigError: `language` is neither English nor Indonesian.
    """
    if language is None:
        return detect_language(source)
    key = language.strip().lower()
    code = _NAMES.get(key) or re.split(r"[-_]", key)[0]
    if code not in EXPLANATION_LANGUAGES:
        raise ConfigError(
            f"the offline judge writes explanations in English (en) or Indonesian (id) "
            f"only, not {language!r}: leave out the language (explanations then follow the "
            "source: Indonesian for an Indonesian source, else English) or use an LLM judge"
        )
    return code
