"""ResponseCache: content addressing, JSON-only storage, concurrent writers."""

from __future__ import annotations

import json
import multiprocessing
import sqlite3
import threading
from pathlib import Path

import pytest

from sumjudge.cache import ResponseCache, default_cache_dir, safe_identity
from sumjudge.judges import JudgeRequest, JudgeResponse, Message, TokenLogprob, Usage


def request(text: str = "hello", task: str = "coherence@1") -> JudgeRequest:
    return JudgeRequest(messages=(Message("user", ("prefix ", text)),), task=task)


RESPONSE = JudgeResponse(
    text='{"explanation": "ok", "score": 2}',
    usage=Usage(prompt_tokens=100, completion_tokens=10, cached_prompt_tokens=64),
    logprobs=(TokenLogprob("2", -0.1, (("2", -0.1), ("3", -2.5))),),
    model="m",
)


def test_roundtrip_and_json_values(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    key = cache.key("openai/m@http://127.0.0.1:1/v1", request())
    assert cache.get(key) is None
    cache.put(key, RESPONSE, identity="openai/m", task="coherence@1")
    assert cache.get(key) == RESPONSE
    assert key in cache and len(cache) == 1
    cache.close()
    raw = sqlite3.connect(tmp_path / "responses.sqlite3").execute("SELECT value FROM responses")
    (value,) = raw.fetchone()
    assert isinstance(value, str)
    assert json.loads(value)["text"] == RESPONSE.text  # plain JSON text, never pickle


def test_key_covers_identity_task_version_and_content() -> None:
    base = ResponseCache.key("openai/m", request())
    assert base == ResponseCache.key("openai/m", request())
    assert base != ResponseCache.key("openai/other", request())
    assert base != ResponseCache.key("openai/m@http://x/v1", request())
    assert base != ResponseCache.key("openai/m", request(task="coherence@2"))
    assert base != ResponseCache.key("openai/m", request(task="fluency@1"))
    assert base != ResponseCache.key("openai/m", request(text="hello!"))


def test_identity_never_stores_url_secrets() -> None:
    assert safe_identity("openai/m@https://user:pw@host/v1?key=abc") == "openai/m@https://host/v1"


def test_wal_mode_and_default_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SUMJUDGE_CACHE_DIR", str(tmp_path / "c"))
    assert default_cache_dir() == tmp_path / "c"
    cache = ResponseCache()
    assert cache.path == tmp_path / "c" / "responses.sqlite3"
    mode = cache._db.execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    cache.close()


def _writer(path: str, worker: int, n: int) -> None:
    cache = ResponseCache(path)
    for i in range(n):
        r = request(f"w{worker}-{i}")
        cache.put(cache.key("j", r), RESPONSE, identity="j", task=r.task)
        cache.get(cache.key("j", request(f"w{(worker + 1) % 4}-{i}")))
    cache.close()


def test_concurrent_writers_processes_and_threads(tmp_path: Path) -> None:
    path = str(tmp_path / "shared.sqlite3")
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(path, w, 150)) for w in range(3)]
    for p in procs:
        p.start()
    threads = [threading.Thread(target=_writer, args=(path, 3, 150))]
    for t in threads:
        t.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    for t in threads:
        t.join(60)
    cache = ResponseCache(path)
    assert len(cache) == 4 * 150
    for w in range(4):
        assert cache.get(cache.key("j", request(f"w{w}-149"))) == RESPONSE
    cache.close()
