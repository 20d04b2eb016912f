"""sumjudge: judge AI-written summaries against their source, and say why.

Example:
    >>> from sumjudge import SummarizationEvaluator, load_simple_summarization_dataset
    >>> evaluator = SummarizationEvaluator(model="local")
    >>> data = load_simple_summarization_dataset().load()[0]
    >>> result = await evaluator.evaluate(data)   # {"summary": {...}}
"""

from __future__ import annotations

from .datasets import load_simple_summarization_dataset, read_summary_rows
from .errors import (
    AuthError,
    ConfigError,
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
from .evaluators import BatchRecord, SummarizationEvaluator, SummaryResult
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
from .rules import DEFAULT_RULE_BOOK, Rating, RuleBook, Threshold
from .runner import RetryPolicy
from .types import MetricResult, SummaryData

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_RULE_BOOK",
    "AuthError",
    "BatchRecord",
    "ConfigError",
    "DataError",
    "Judge",
    "JudgeRequest",
    "JudgeResponse",
    "Message",
    "MetricResult",
    "MissingCredentialsError",
    "MissingDependencyError",
    "ParseError",
    "ProviderError",
    "RateLimitError",
    "Rating",
    "RequestError",
    "RetryPolicy",
    "RuleBook",
    "ScriptedJudge",
    "SumjudgeError",
    "SummarizationEvaluator",
    "SummaryData",
    "SummaryResult",
    "Threshold",
    "TokenLogprob",
    "TransientProviderError",
    "TruncatedResponseError",
    "Usage",
    "__version__",
    "get_judge",
    "load_simple_summarization_dataset",
    "read_summary_rows",
    "register_provider",
]
