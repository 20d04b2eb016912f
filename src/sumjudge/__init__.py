"""sumjudge: judge AI-written summaries against their source, and say why.

Example:
    >>> from sumjudge import SummarizationEvaluator, load_simple_summarization_dataset
    >>> evaluator = SummarizationEvaluator(model="local")
    >>> data = load_simple_summarization_dataset().load()[0]
    >>> result = await evaluator.evaluate(data)   # {"summary": {...}}
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._version import __version__
from .assertions import assert_summary
from .autoeval import AutoEvaluator, ConversationItem, SectionDefinition, Turn
from .cache import ResponseCache
from .cost import ModelTable, Price
from .datasets import load_simple_summarization_dataset, read_summary_rows
from .datasets.conversations import load_contact_center_dataset
from .errors import (
    AuthError,
    ConfigError,
    ConnectionFailedError,
    DataError,
    MissingCredentialsError,
    MissingDependencyError,
    ParseError,
    ProviderError,
    RateLimitError,
    RequestError,
    SumjudgeError,
    TransientProviderError,
    TruncatedResponseError,
)
from .evaluators import BatchRecord, Record, SummarizationEvaluator, SummaryResult
from .evaluators.pairwise import PairwiseEvaluator, summarize_pairs
from .judges import (
    Judge,
    JudgeRequest,
    JudgeResponse,
    Message,
    ScriptedJudge,
    TokenLogprob,
    Usage,
    get_judge,
    register_provider,
)
from .protocol import LLM_CAPABILITIES, Capabilities
from .ratelimit import RateLimiter
from .rules import DEFAULT_RULE_BOOK, Rating, RuleBook, Threshold
from .runner import RetryPolicy, RunSummary
from .types import MetricResult, SummaryData
from .types.pairwise import PairData, PairMetricResult, PairResult
from .types.profile import CalibrationProfile, load_profile

if TYPE_CHECKING:
    from .align import Label, LabelLog, read_labels
    from .align.calibrate import calibrate
    from .compare import Comparison, compare_results
    from .meta import JudgeCard, format_table
    from .meta.run import meta_eval
    from .ray import autoeval_ray, evaluate_ray
    from .report import write_report
    from .spark import autoeval_spark, evaluate_spark


__all__ = [
    "DEFAULT_RULE_BOOK",
    "LLM_CAPABILITIES",
    "AuthError",
    "AutoEvaluator",
    "BatchRecord",
    "CalibrationProfile",
    "Capabilities",
    "Comparison",
    "ConfigError",
    "ConnectionFailedError",
    "ConversationItem",
    "DataError",
    "Judge",
    "JudgeCard",
    "JudgeRequest",
    "JudgeResponse",
    "Label",
    "LabelLog",
    "Message",
    "MetricResult",
    "MissingCredentialsError",
    "MissingDependencyError",
    "ModelTable",
    "PairData",
    "PairMetricResult",
    "PairResult",
    "PairwiseEvaluator",
    "ParseError",
    "Price",
    "ProviderError",
    "RateLimitError",
    "RateLimiter",
    "Rating",
    "Record",
    "RequestError",
    "ResponseCache",
    "RetryPolicy",
    "RuleBook",
    "RunSummary",
    "ScriptedJudge",
    "SectionDefinition",
    "SumjudgeError",
    "SummarizationEvaluator",
    "SummaryData",
    "SummaryResult",
    "Threshold",
    "TokenLogprob",
    "TransientProviderError",
    "TruncatedResponseError",
    "Turn",
    "Usage",
    "__version__",
    "assert_summary",
    "autoeval_ray",
    "autoeval_spark",
    "calibrate",
    "compare_results",
    "evaluate_ray",
    "evaluate_spark",
    "format_table",
    "get_judge",
    "load_contact_center_dataset",
    "load_profile",
    "load_simple_summarization_dataset",
    "meta_eval",
    "read_labels",
    "read_summary_rows",
    "register_provider",
    "summarize_pairs",
    "write_report",
]

# Meta-evaluation, the comparison and the report need numpy (the report also matplotlib):
# they are imported when one of their names is first used, so `import sumjudge` stays
# light (PEP 562).
_LAZY: dict[str, str] = {
    "Label": "sumjudge.align",
    "LabelLog": "sumjudge.align",
    "read_labels": "sumjudge.align",
    "calibrate": "sumjudge.align.calibrate",
    "Comparison": "sumjudge.compare",
    "compare_results": "sumjudge.compare",
    "JudgeCard": "sumjudge.meta",
    "format_table": "sumjudge.meta",
    "meta_eval": "sumjudge.meta.run",
    "write_report": "sumjudge.report",
    # Light modules (they import their engine when called), loaded on use all the same.
    "evaluate_spark": "sumjudge.spark",
    "autoeval_spark": "sumjudge.spark",
    "evaluate_ray": "sumjudge.ray",
    "autoeval_ray": "sumjudge.ray",
}


def __getattr__(name: str) -> Any:
    """Import a meta-evaluation or report name on first use (PEP 562)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups no longer reach __getattr__
    return value


def __dir__() -> list[str]:
    """The module's names, including the lazily imported ones not loaded yet."""
    return sorted({*globals(), *__all__})
