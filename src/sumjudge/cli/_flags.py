"""The judge, input and output flags of the batch subcommands, and their checks.

`add_judge_arguments`, `add_input_arguments` and `add_output_arguments` add the flags that
choose and configure the judge, read the inputs and shape stdout; `check_flags` rejects
impossible values in one line; what the shared flags build is `RunFlags`'s
(`_runflags.py`). `DefaultsHelpFormatter` states every default.
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Callable
from typing import Any

from ..errors import ConfigError
from ..judges import LOCAL_MODELS
from ..metrics import LANGUAGES, SUMMARY_METRICS
from ._batch import add_batch_arguments
from ._common import _KEYED_DEFAULTS, eprint, name_list, non_empty, positive_float

__all__ = [
    "FORMATS",
    "DefaultsHelpFormatter",
    "add_input_arguments",
    "add_judge_arguments",
    "add_output_arguments",
    "add_run_arguments",
    "add_summary_judge_arguments",
    "check_flags",
    "reader_options",
    "use_http_client",
    "warn",
]

FORMATS = ("table", "jsonl", "json")

_DEFAULT_TEXT = {
    # What an option whose default is None means, for --help (see DefaultsHelpFormatter).
    "output": "stdout",
    "rpm": "no cap",
    "tpm": "no cap",
    "max_cost": "no cap",
    "price": "the built-in price table",
    "prices": "the built-in table",
    "context_window": "the built-in table; a model not in it is not checked",
    "summary_json": "not written",
    "report": "not written",
    "cache_dir": "$SUMJUDGE_CACHE_DIR or the user cache dir",
    "base_url": "the provider's own API",
    "metrics": "all of them",
    "format": "table on a terminal, else jsonl; always jsonl into -o",
}


class DefaultsHelpFormatter(argparse.HelpFormatter):
    """Help that states every option's default: its value, or what None means."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if "default" in text or action.default is argparse.SUPPRESS or action.nargs == 0:
            return text  # states it already; or a flag (default: off)
        if action.default in (None, ""):
            meaning = _DEFAULT_TEXT.get(action.dest)
            return f"{text} (default: {meaning})" if meaning else text
        return f"{text} (default: %(default)s)"


def _model_help() -> str:
    keyed = ", ".join(f"{env} -> {model}" for env, model in _KEYED_DEFAULTS)
    return (
        "the judge: provider/model (e.g. openai/gpt-4o-mini) or 'local' / 'local-lexical' "
        "for the offline judge (default: with --base-url, openai/default, the server's own "
        f"model; else the first API key set among {keyed}; with none, local)"
    )


def add_judge_arguments(p: argparse.ArgumentParser, *, metrics: str, language: str) -> None:
    """--model, --base-url, --metrics (choices named in `metrics`), --language, --long-source."""
    p.add_argument(
        "--model",
        action="append",
        type=non_empty,
        help=_model_help() + "; give it more than once for a judge panel (evaluate)",
    )
    p.add_argument("--base-url", help="OpenAI-compatible server URL, e.g. http://127.0.0.1:8000/v1")
    add_http_client_argument(p)
    p.add_argument("--metrics", type=name_list, help=f"comma-separated subset of {metrics}")
    codes = ", ".join(sorted(LANGUAGES))
    p.add_argument("--language", help=f"{language}; a code ({codes}) or a language name")
    p.add_argument(
        "--long-source",
        choices=["fail", "chunked"],
        default="fail",
        help="a source larger than the judge's window: fail the item, or judge it by parts "
        "(chunked: the most relevant passages; notes of every part where all is needed)",
    )


def add_summary_judge_arguments(p: argparse.ArgumentParser) -> None:
    """The judge flags and the source column of the commands that judge summaries of a source.

    `evaluate` and `pairwise` judge the same metrics of a summary against the same kind of
    source row; each adds its own summary column(s).
    """
    add_judge_arguments(
        p,
        metrics=",".join(SUMMARY_METRICS),
        language="language for explanations (default: the source's)",
    )
    p.add_argument("--input-column", default="input", help="FILE's column with the source")


def add_input_arguments(p: argparse.ArgumentParser) -> None:
    """--encoding: how the input files' text is encoded."""
    p.add_argument(
        "--encoding",
        help="the input files' text encoding, e.g. latin-1 or cp1252 (default: UTF-8, with "
        "or without a byte-order mark; a line that does not decode fails that row only)",
    )


def warn(message: str) -> None:
    """Print a reader's warning (e.g. repeated ids) as one line on stderr."""
    eprint(f"sumjudge: warning: {message}")


def add_output_arguments(p: argparse.ArgumentParser) -> None:
    """--format: what stdout shows (the -o file is always JSON lines)."""
    p.add_argument(
        "--format",
        choices=FORMATS,
        help="stdout: a table for people (id, rating, scores, reason, counts), JSON lines, "
        "or one JSON array",
    )


def add_run_arguments(
    p: argparse.ArgumentParser,
    *,
    handler: Callable[[argparse.Namespace], int],
    check: Callable[[argparse.Namespace], None],
) -> None:
    """The flags every batch subcommand ends with, and its handler and flag checks.

    Adds --encoding, --format and the engine's flags (`add_batch_arguments`); the command's
    check is `check_flags`, then `check` (the subcommand's own contradictions).
    """
    add_input_arguments(p)
    add_output_arguments(p)
    add_batch_arguments(p)
    add_batch_api_arguments(p)

    def check_all(args: argparse.Namespace) -> None:
        check_flags(args)
        check(args)

    p.set_defaults(handler=handler, check=check_all)


def add_batch_api_arguments(p: argparse.ArgumentParser, *, no_wait: bool = True) -> None:
    """--batch-api, --no-wait and --batch-poll: the providers' batch endpoints.

    Args:
        p: The subcommand's parser.
        no_wait: Add --no-wait (submit and exit). A command whose output needs every
            reply at once (meta-eval: one judge card) always waits, so has no --no-wait.
    """
    g = p.add_argument_group("provider batch endpoints (docs/batch.md)")
    after = (
        "the job survives the process (rerun the command, or see `sumjudge jobs`)"
        if no_wait
        else "waits for the batches"
    )
    g.add_argument(
        "--batch-api",
        action="store_true",
        help="send the requests through the provider's batch endpoint (openai/, anthropic/, "
        "google/ and OpenAI-compatible servers): about half the price, results within 24 h; "
        f"{after}",
    )
    if no_wait:
        g.add_argument(
            "--no-wait",
            action="store_true",
            help="with --batch-api: submit the round and exit; rerun the command to collect",
        )
    g.add_argument(
        "--batch-poll",
        type=positive_float,
        default=30.0,
        help="with --batch-api: longest wait in seconds between two status checks",
    )


_CODE = re.compile(r"^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$")


def check_flags(args: argparse.Namespace) -> None:
    """Reject flag values the run cannot use, in one line naming the flag (exit 2).

    Raises:
        ConfigError: --language is an unknown code (or one the offline judge does not
            write), or --resume has no -o.
    """
    language = getattr(args, "language", None)
    if language is not None:
        code = language.strip().lower()
        base = re.split(r"[-_]", code)[0]
        known = code in LANGUAGES or base in LANGUAGES
        if not code or (_CODE.match(code) and len(base) <= 3 and not known):
            raise ConfigError(
                f"--language {language!r} is not a language code we know: use one of "
                f"{', '.join(sorted(LANGUAGES))}, or write the language's name "
                "(e.g. --language Swedish)"
            )
    models = getattr(args, "model", None) or []
    # no --model, no --base-url and no key: the offline judge (as `choose_model` decides)
    offline_default = not models and not getattr(args, "base_url", None)
    offline_default = offline_default and not any(os.environ.get(v) for v, _ in _KEYED_DEFAULTS)
    if language is not None and (offline_default or any(m in LOCAL_MODELS for m in models)):
        from ..offline.languages import explanation_language

        try:
            explanation_language(language, "")
        except ConfigError as exc:  # before any item is read, as the flag's own error
            raise ConfigError(f"--language {language!r} with --model local: {exc}") from exc
    if getattr(args, "no_wait", False) and not getattr(args, "batch_api", False):
        raise ConfigError("--no-wait needs --batch-api: only a batch job can be left running")
    if getattr(args, "resume", False) and not args.output:
        raise ConfigError("--resume needs -o/--output FILE: the results file to continue")


def reader_options(
    args: argparse.Namespace, on_warning: Callable[[str], None] | None = warn
) -> dict[str, Any]:
    """The row reader's arguments every batch subcommand takes from its flags."""
    return {
        "summary_column": args.summary_column,
        "id_column": args.id_column,
        "encoding": args.encoding,
        "on_warning": on_warning,
    }


def add_http_client_argument(p: argparse.ArgumentParser) -> None:
    """--http-client: how an openai/ judge sends its requests (docs/http.md)."""
    p.add_argument(
        "--http-client",
        choices=["sdk", "direct"],
        help="how an openai/ judge sends: the official SDK, or a direct aiohttp POST (default: "
        "direct with --base-url, else sdk; also $SUMJUDGE_HTTP_CLIENT; docs/http.md)",
    )


def use_http_client(choice: str | None) -> None:
    """Make --http-client (`choice`; None: not given) the run's choice."""
    if choice:
        # The documented way the choice reaches every judge built for this run (a panel's
        # members, the re-built judge of a batch job): the variable `choose_http_client` reads.
        os.environ["SUMJUDGE_HTTP_CLIENT"] = choice
