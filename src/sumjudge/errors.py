"""The whole sumjudge exception tree.

Exceptions are for problems the caller must fix (configuration, credentials, bad input)
or for provider faults that the runner decides how to handle. Per-item failures inside a
batch are never raised to the caller: they become results that carry an error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .protocol import JudgeResponse, Usage

__all__ = [
    "AuthError",
    "ConfigError",
    "ConnectionFailedError",
    "DataError",
    "MissingCredentialsError",
    "MissingDependencyError",
    "ParseError",
    "ProviderError",
    "RateLimitError",
    "RequestError",
    "ScriptExhaustedError",
    "SumjudgeError",
    "TransientProviderError",
    "TruncatedResponseError",
]


class SumjudgeError(Exception):
    """Root of every error sumjudge raises on purpose."""


class ConfigError(SumjudgeError):
    """The evaluator, judge or command was configured wrongly."""


class MissingCredentialsError(ConfigError):
    """No API key was given and the provider's environment variable is not set."""

    def __init__(self, provider: str, env_var: str) -> None:
        self.provider = provider
        self.env_var = env_var
        super().__init__(
            f"No API key for the {provider} judge: set the environment variable {env_var} "
            f"or pass model_credentials=... (CLI: export {env_var}=...). "
            "To judge without a key, use model='local'."
        )


class MissingDependencyError(ConfigError):
    """An optional dependency needed for this feature is not installed.

    Args:
        package: The missing distribution, as pip names it ("google-genai").
        extra: The sumjudge extra that installs it ("google").
        feature: What needs it, to open the message ("judging with openai/gpt-4o");
            without it the message opens with "This".
    """

    def __init__(self, package: str, extra: str, *, feature: str | None = None) -> None:
        super().__init__(
            f"{feature or 'This'} needs the optional package {package!r}: "
            f"pip install 'sumjudge[{extra}]'"
        )
        self.package, self.extra, self.feature = package, extra, feature


class ProviderError(SumjudgeError):
    """The judge's provider failed to give a usable reply.

    Attributes:
        retryable: whether trying the same request again may succeed.
        retry_after: seconds the provider asked us to wait, if it said so.
        status: the HTTP status code, when there was one.
        attempts: how many tries the runner made before giving up (0: not sent by it).
    """

    retryable: bool = False
    attempts: int = 0

    def __init__(
        self,
        message: str,
        *,
        retry_after: float | None = None,
        status: int | None = None,
        retryable: bool | None = None,
    ) -> None:
        super().__init__(message)
        self.retry_after = retry_after
        self.status = status
        if retryable is not None:
            self.retryable = retryable


class AuthError(ProviderError):
    """The provider refused our credentials (401/403)."""


class RequestError(ProviderError):
    """The provider rejected the request as malformed or unsupported (4xx other than 429)."""


class RateLimitError(ProviderError):
    """The provider asked us to slow down (429)."""

    retryable = True


class TransientProviderError(ProviderError):
    """A server error, timeout or dropped connection that may pass (5xx, network)."""

    retryable = True


class ConnectionFailedError(TransientProviderError):
    """No answer from the server at all: the connection was refused, unreachable or dropped.

    Retried like any transient fault; but a run whose calls all fail this way (the
    server is not there) is stopped early (`runner.UNREACHABLE_AFTER`).
    """


class TruncatedResponseError(ProviderError):
    """The reply stopped at the token limit; its JSON cannot be trusted.

    Not retried as is (at temperature 0 the same request stops at the same place): the
    runner re-asks once with more room and a request to be brief (`reask.roomier`).

    Attributes:
        usage: the tokens the cut reply spent, which are billed all the same.
    """

    def __init__(self, message: str, *, usage: Usage | None = None) -> None:
        super().__init__(message)
        self.usage = usage


class ParseError(SumjudgeError):
    """The judge's reply could not be read as a valid verdict.

    Attributes:
        raw: the reply text, when the reader had it.
        response: the rejected reply, set by the runner (it re-asks with it).
    """

    def __init__(self, message: str, *, raw: str = "") -> None:
        super().__init__(message)
        self.raw = raw
        self.response: JudgeResponse | None = None


class DataError(SumjudgeError):
    """An input item is unusable; names the item and the field.

    Attributes:
        item: the row's 0-based index (shown as "row N") or an item's name.
        field: the column or field at fault, if one is.
        reason: the message without the "row N, field ..." prefix.
        line: where a file reader found the row: its 1-based line (JSONL, a JSON array's
            element, the line a CSV record starts on, the header being line 1) or its
            1-based row number (Parquet); None when the row did not come from a file.
        id: the row's id, when it has one (kept for rows that cannot be used).
    """

    def __init__(
        self,
        message: str,
        *,
        item: str | int | None = None,
        field: str | None = None,
        line: int | None = None,
        id: str | None = None,
    ):
        where = []
        if item is not None:
            where.append(f"row {item}" if isinstance(item, int) else f"item {item}")
        if field is not None:
            where.append(f"field {field!r}")
        prefix = ", ".join(where)
        super().__init__(f"{prefix}: {message}" if prefix else message)
        self.item = item
        self.field = field
        self.reason = message
        self.line = line
        self.id = id

    @property
    def located(self) -> str:
        """The message with the row's line and id, when known.

        For example "row 2, field 'summary': is null (line 3, id 'a-7')".
        """
        extra = []
        if self.line is not None and f"line {self.line}" not in str(self):
            extra.append(f"line {self.line}")
        if self.id is not None:
            extra.append(f"id {self.id!r}")
        return f"{self} ({', '.join(extra)})" if extra else str(self)


class ScriptExhaustedError(SumjudgeError):
    """A ScriptedJudge was asked for more replies than it was given."""
