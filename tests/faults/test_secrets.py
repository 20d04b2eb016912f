"""A key in use never reaches a file, a terminal or the cache: not whole, not in pieces."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from sumjudge.redaction import MIN_FRAGMENT, REDACTED, forget_keys, redact, remember_key
from sumjudge.testing.openai_server import FakeOpenAIServer, Reply

# 167 characters, like the key of the report this test answers.
KEY = "sk-proj-" + "".join(f"{(i * 7919) % 36:x}Zq" for i in range(53))[:159]
N = 6


def leaks(data: bytes | str, key: str = KEY) -> list[str]:
    """Every run of 8 or more characters of `key` found in `data`."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    found = []
    for i in range(len(key) - MIN_FRAGMENT + 1):
        if key[i : i + MIN_FRAGMENT] in text:
            found.append(key[i : i + MIN_FRAGMENT])
    return found


def write_input(path: Path) -> None:
    rows = [
        {"id": f"r{i}", "input": f"Rina ships on day {i}.", "summary": "Rina ships."}
        for i in range(N)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def run(args: list[str], tmp: Path, key: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env["SUMJUDGE_CACHE_DIR"] = str(tmp / "cache")
    if key is not None:
        env["OPENAI_API_KEY"] = key
    cmd = [sys.executable, "-m", "sumjudge.cli.main", "evaluate", *args, "--no-progress"]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)


def every_file(tmp: Path) -> list[Path]:
    return [p for p in tmp.rglob("*") if p.is_file()]


def test_redaction_removes_fragments_and_keeps_ordinary_text() -> None:
    remember_key(KEY)
    try:
        cut = ("x" * 80 + KEY)[:300]  # what a 300-character error text kept before
        assert not leaks(redact(cut)) and REDACTED in redact(cut)
        assert not leaks(redact(f"a{KEY[10:30]}b{KEY[100:109]}"))
        ordinary = "The team agreed to ship the release on Friday after the QA pass."
        assert redact(ordinary) == ordinary
        remember_key("k")  # placeholder keys of local servers are not secrets
        assert redact("keep talking") == "keep talking"
    finally:
        forget_keys()


def test_an_error_that_echoes_the_key_after_padding(tmp_path: Path) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_input(src)
    with FakeOpenAIServer() as srv:
        srv.responder = lambda body: Reply.error(401, "x" * 80 + f" key {KEY} is not valid")
        proc = run(
            [
                str(src),
                "--model",
                "openai/fake-model",
                "--base-url",
                srv.base_url,
                "-o",
                str(out),
                "--summary-json",
                str(tmp_path / "summary.json"),
            ],
            tmp_path,
            KEY,
        )
        received = len(srv.requests)
    assert proc.returncode == 2, proc.stderr
    assert received == 1  # the first request goes alone; a refusal stops the rest
    assert "OPENAI_API_KEY" in proc.stderr and "--resume" in proc.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == N and all(r["status"] == "not_run" for r in records)  # none judged
    assert not leaks(proc.stderr + proc.stdout)
    for path in every_file(tmp_path):
        if path != src:
            assert not leaks(path.read_bytes()), f"key fragments in {path}"


def test_a_reply_that_echoes_the_key_is_stored_and_replayed_without_it(tmp_path: Path) -> None:
    src, first, second = tmp_path / "in.jsonl", tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_input(src)

    def echo(body: dict[str, object]) -> Reply:
        return Reply.json({"explanation": f"Seen: Authorization: Bearer {KEY}", "score": 3})

    with FakeOpenAIServer() as srv:
        srv.responder = echo
        args = [str(src), "--model", "openai/fake-model", "--base-url", srv.base_url]
        one = run([*args, "-o", str(first)], tmp_path, KEY)
        two = run([*args, "-o", str(second)], tmp_path, None)  # keyless: from the cache
        sent_second = len(srv.requests) - 4 * N
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    assert sent_second == 0 and "answered from the response cache" in two.stderr
    assert REDACTED in second.read_text()
    cache_files = list((tmp_path / "cache").rglob("*"))
    assert any(p.name.endswith(("-wal", ".sqlite3")) for p in cache_files)
    for path in every_file(tmp_path):
        if path != src:
            assert not leaks(path.read_bytes()), f"key fragments in {path}"
    assert not leaks(one.stderr + one.stdout + two.stderr + two.stdout)
