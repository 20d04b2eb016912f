"""Start the fake OpenAI-compatible server in its own process (so its CPU is not ours)."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def fake_server(*args: str) -> Iterator[str]:
    """Yield the base URL of `python -m sumjudge.testing.openai_server --print-url ARGS`."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sumjudge.testing.openai_server",
            "--port",
            "0",
            "--print-url",
            *args,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        if not url.startswith("http"):
            raise RuntimeError("the fake server did not start")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:  # a server holding a large batch job is slow to stop
            proc.kill()
            proc.wait(10)


def stats(base_url: str) -> dict[str, Any]:
    root = base_url.rsplit("/v1", 1)[0]
    with urllib.request.urlopen(root + "/stats") as resp:
        data: dict[str, Any] = json.load(resp)
    return data


def reset_stats(base_url: str, *, cache: bool = False) -> None:
    root = base_url.rsplit("/v1", 1)[0]
    req = urllib.request.Request(
        root + "/stats/reset" + ("?cache=1" if cache else ""), data=b"", method="POST"
    )
    urllib.request.urlopen(req).close()
