"""The fake server's historical import path and its command line.

`FakeOpenAIServer` runs an aiohttp app on 127.0.0.1 (a free port) in a background thread with
its own event loop, so sync tests, async tests and subprocess CLI tests can all talk to it over
real HTTP. Replies are scripted with `Reply` or built from the request's JSON schema.

Example:
    >>> import openai
    >>> with FakeOpenAIServer() as srv:  # doctest: +SKIP
    ...     srv.enqueue(Reply.error(429, headers={"Retry-After": "1"}), Reply.json({"score": 2}))
    ...     client = openai.AsyncOpenAI(base_url=srv.base_url, api_key="sk-test", max_retries=0)

Command line (prints the base URL, then serves until killed):

    python -m sumjudge.testing.openai_server --port 0 --latency 0.2 --error-rate 0.1 --print-url
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Sequence
from types import FrameType
from typing import Literal

from .replies import FAULTS, TOKEN_RE, Reply, Responder, tokenize
from .schema_fill import response_schema
from .server import FakeOpenAIServer

__all__ = [
    "FAULTS",
    "TOKEN_RE",
    "FakeOpenAIServer",
    "Reply",
    "Responder",
    "main",
    "response_schema",
    "tokenize",
]

# Options whose command-line value goes to `FakeOpenAIServer` unchanged, under the same name.
_PASSED_THROUGH = (
    "host",
    "port",
    "model",
    "latency",
    "jitter",
    "error_rate",
    "seed",
    "timeout_sleep",
    "retry_after",
    "cache_block",
    "cache_min_tokens",
    "cache_ttl",
    "record_requests",
)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the fake server until SIGTERM/SIGINT."""
    p = argparse.ArgumentParser(
        prog="python -m sumjudge.testing.openai_server",
        description="Local OpenAI-compatible chat-completions server for tests and benchmarks.",
    )
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--model", default="fake-model")
    p.add_argument("--latency", type=float, default=0.0)
    p.add_argument("--jitter", type=float, default=0.0)
    p.add_argument("--error-rate", type=float, default=0.0)
    p.add_argument("--faults", default=",".join(FAULTS), help="comma-separated fault kinds")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--timeout-sleep", type=float, default=30.0)
    p.add_argument("--retry-after", type=float, default=0.0)
    p.add_argument("--json-schema-support", choices=["native", "reject_500", "reject_400"])
    p.add_argument("--logprobs-support", choices=["true", "false", "reject_400"], default="true")
    p.add_argument("--raw-newlines", action="store_true")
    p.add_argument("--cache-block", type=int, default=64)
    p.add_argument("--cache-min-tokens", type=int, default=256)
    p.add_argument("--cache-ttl", type=float, default=300.0)
    p.add_argument("--record-requests", action="store_true", help="keep requests in memory")
    p.add_argument(
        "--batch-delay", type=float, default=0.0, help="seconds a batch job waits before it runs"
    )
    p.add_argument("--print-url", action="store_true", help="print the base URL on stdout")
    args = p.parse_args(argv)
    logprobs: bool | Literal["reject_400"] = {"true": True, "false": False}.get(
        args.logprobs_support, "reject_400"
    )
    srv = FakeOpenAIServer(
        **{name: getattr(args, name) for name in _PASSED_THROUGH},
        faults=[f for f in args.faults.split(",") if f],
        json_schema_support=args.json_schema_support or "native",
        logprobs_support=logprobs,
        raw_newlines_in_strings=args.raw_newlines,
    )
    srv.batches.delay = args.batch_delay
    done = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        done.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    with srv:
        if args.print_url:
            print(srv.base_url, flush=True)
        print(f"FakeOpenAIServer serving on {srv.base_url}", file=sys.stderr, flush=True)
        while not done.wait(0.5):
            pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
