"""Languages: explanations in English or Indonesian, and a clear refusal of the others.

A Japanese source was rated "incomplete" with "100% of its content words do not occur" and
English explanations, and `--language ja` was silently ignored: now a script written
without spaces between words is refused with its reason, and an explanation language the
offline judge does not write is a configuration error.
"""

from __future__ import annotations

import argparse
import asyncio

import pytest

from sumjudge import SummarizationEvaluator
from sumjudge.cli._flags import check_flags
from sumjudge.errors import ConfigError
from sumjudge.offline import OfflineScorer
from sumjudge.offline.languages import UnsupportedText, explanation_language, unspaced_script

JA_SOURCE = (
    "田中: 来週の会議は火曜日に変更します。\n佐藤: 了解しました。資料は月曜日までに送ります。"
)
JA_SUMMARY = "会議は火曜日に変更され、佐藤さんが月曜日までに資料を送る。"
EN_SOURCE = "Ana: I'll send the deck on Friday.\nBen: Great, thanks.\nAna: And I'll book the room."
EN_SUMMARY = "Ana will send the deck on Friday and book the room."


@pytest.mark.parametrize(
    ("text", "script"),
    [
        (JA_SOURCE, "Japanese"),
        ("会议改到星期二，资料星期一前发送。", "Chinese"),
        ("ประชุมเลื่อนเป็นวันอังคาร", "Thai"),
        ("The Tokyo office (東京) confirmed the order on Friday.", ""),
        ("Rapat dipindah ke hari Selasa.", ""),
        ("회의는 화요일로 변경되었습니다.", ""),  # Korean is written with spaces
    ],
)
def test_unspaced_scripts(text: str, script: str) -> None:
    """Scripts without spaces between words are named; a name in another script is not."""
    assert unspaced_script(text) == script


def test_japanese_source_is_refused_not_misjudged() -> None:
    """The scorer refuses the pair with the reason instead of calling it incomplete."""
    scorer = OfflineScorer(use_embeddings=False)
    with pytest.raises(UnsupportedText, match="written in Japanese"):
        scorer.score(JA_SOURCE, JA_SUMMARY)
    with pytest.raises(UnsupportedText, match="this summary"):
        scorer.score(EN_SOURCE, JA_SUMMARY)


@pytest.mark.parametrize(
    ("language", "code"), [("en", "en"), ("en-GB", "en"), ("id-ID", "id"), ("Indonesian", "id")]
)
def test_explanation_languages(language: str, code: str) -> None:
    """Codes, tags and names of the two languages are accepted."""
    assert explanation_language(language, "") == code


@pytest.mark.parametrize("language", ["ja", "Japanese", "fr", "zh-CN"])
def test_other_explanation_languages_are_a_configuration_error(language: str) -> None:
    """Never silently English: the scorer, the evaluator and the CLI say why."""
    with pytest.raises(ConfigError, match="English \\(en\\) or Indonesian \\(id\\) only"):
        OfflineScorer(use_embeddings=False).score(EN_SOURCE, EN_SUMMARY, language=language)
    args = argparse.Namespace(model=["local-lexical"], language=language, base_url=None)
    with pytest.raises(ConfigError, match=r"--language .* with --model local"):
        check_flags(args)


def test_evaluator_reports_the_refusal_per_item() -> None:
    """Through the evaluator: each metric of a Japanese item fails with the reason (no score,
    the run goes on); an unsupported explanation language is raised as the caller's error."""
    ev = SummarizationEvaluator(model="local-lexical")
    result = asyncio.run(ev.evaluate({"input": JA_SOURCE, "summary": JA_SUMMARY}))["summary"]
    assert result.get("relevancy_rating") is None
    assert "written in Japanese" in result["global_explanation"]
    english = asyncio.run(ev.evaluate({"input": EN_SOURCE, "summary": EN_SUMMARY}))["summary"]
    assert english["consistency"]["score"] == 3
    ev = SummarizationEvaluator(model="local-lexical", explanation_language="ja")
    with pytest.raises(ConfigError, match=r"English \(en\) or Indonesian \(id\) only"):
        asyncio.run(ev.evaluate({"input": EN_SOURCE, "summary": EN_SUMMARY}))
