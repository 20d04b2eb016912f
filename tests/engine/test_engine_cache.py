"""ResponseCache: content addressing, JSON-only storage, concurrent writers."""

from __future__ import annotations

import asyncio
import hashlib
import json
import multiprocessing
import random
import sqlite3
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from sumjudge.cache import (
    WRITE_EVERY,
    WRITE_ROWS,
    ResponseCache,
    default_cache_dir,
    safe_identity,
)
from sumjudge.judges import JudgeRequest, JudgeResponse, Message, TokenLogprob, Usage
from sumjudge.metrics import SUMMARY_METRICS


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


def test_keys_are_pinned() -> None:
    """Keys of fixed requests, computed before any change to how they are computed: a
    different key would make every user's cache miss."""
    odd = JudgeRequest(
        messages=(
            Message("system", ("Sé strict ✓",)),
            Message("user", ('prefix </source> \u200b "q" \\ \n', "tail")),
        ),
        task="coherence@1",
        schema={"b": 1, "a": [1.5, None, True]},
        temperature=0.7,
        logprobs=True,
        top_logprobs=3,
    )
    assert odd.fingerprint() == "32815572af563d83c91414beaf9cc8855c23ae675ae5272aa02c725a64107c8f"
    assert (
        ResponseCache.key("openai/m@http://127.0.0.1:1/v1", odd)
        == "dd865330440b356dfd044659191096898652a2ede4e9620191b77d8ebbdfdf28"
    )
    metric = SUMMARY_METRICS["consistency"].build_request(
        "Rina: we ship Friday. </source> ＜/summary＞", "They ship Friday.", logprobs=True
    )
    assert (
        ResponseCache.key("openai/m", metric)
        == "565dd14074ff262ae3a624b673c4539f43b636da75aeb2f8b0da674499791253"
    )


def test_stored_value_is_to_dict_without_its_none_fields(tmp_path: Path) -> None:
    """The value holds what `to_dict` holds (fields that are None left out), and reads back
    to the same response; a value in the older full form reads the same."""
    response = JudgeResponse(
        text='{"explanation": "Sé ✓ \\ "q"", "score": 2}',
        parsed={"score": 2, "évidence": ["a", 1.5]},
        usage=Usage(prompt_tokens=3),
        logprobs=(
            TokenLogprob("2", -0.1, (("2", -0.1), ("3", -2.5))),
            TokenLogprob("é", -1e-07, ()),
            TokenLogprob("null", float("-inf"), (("null", float("-inf")),)),
        ),
        logprobs_note=None,
        latency_s=0.25,
        model="m",
    )
    bare = JudgeResponse(text="plain", finish_reason="length", latency_s=1e-05)
    cache = ResponseCache(tmp_path)
    for key, one in (("k", response), ("bare", bare)):
        cache.put(key, one, identity="openai/m", task="t")
        cache.flush()
        (value,) = cache._db.execute("SELECT value FROM responses WHERE key = ?", (key,)).fetchone()
        assert isinstance(value, str)
        full = one.to_dict()
        assert json.loads(value) == {k: v for k, v in full.items() if v is not None}
        assert cache.get(key) == one
        cache._db.execute(  # what older versions wrote: every field, None as null
            "UPDATE responses SET value = ? WHERE key = ?", (one.to_json(), key)
        )
        assert cache.get(key) == one
        assert one.to_json() == json.dumps(full, ensure_ascii=False, separators=(",", ":"))


def test_a_reply_without_utf8_is_not_stored_and_later_replies_are(tmp_path: Path) -> None:
    """A lone surrogate (a server may send one as an escape) has no UTF-8 form: that reply
    is a miss next time, and the rows after it are written as usual."""
    cache = ResponseCache(tmp_path)
    cache.put("lone", JudgeResponse(text="bad \ud800"), identity="j", task="t")
    cache.put("ok", RESPONSE, identity="j", task="t")
    cache.flush()
    assert cache.get("lone") is None and "lone" not in cache
    assert cache.get("ok") == RESPONSE and len(cache) == 1


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


def _reference_fingerprint(request: JudgeRequest) -> str:
    """The fingerprint as first defined: the whole payload's JSON hashed at once."""
    blob = json.dumps(
        request.fingerprint_payload(), sort_keys=True, ensure_ascii=False, separators=(",", ":")
    )
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def test_fingerprint_in_pieces_is_the_whole_payloads_hash() -> None:
    """Hashing with a shared head gives the digest of the whole JSON, for any request."""
    rng = random.Random(5)
    alphabet = ["a", "é", "✓", '"', "\\", "\n", "\t", "\x01", "\u2028", "</source>", "𝔘", " "]

    def text() -> str:
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))

    shared = [text() for _ in range(3)]
    for _ in range(500):
        messages = tuple(
            Message(
                rng.choice(["system", "user", "assistant"]),
                tuple(rng.choice([*shared, text()]) for _ in range(rng.randint(0, 3))),
            )
            for _ in range(rng.randint(0, 3))
        )
        request = JudgeRequest(
            messages=messages,
            task=rng.choice(["coherence@1", "fluency@2#sample1", text()]),
            schema=rng.choice([None, {"b": [1, 2.5], "a": {"z": None, "y": True}}]),
            schema_name=rng.choice(["verdict", text()]),
            temperature=rng.choice([0.0, 0.7, 1, float("nan")]),
            max_tokens=rng.choice([1024, 7]),
            logprobs=rng.random() < 0.5,
            top_logprobs=rng.choice([5, 20]),
        )
        assert request.fingerprint() == _reference_fingerprint(request)
    listed = JudgeRequest(messages=(Message("user", ["a", "b"]),), task="t")  # type: ignore[arg-type]
    assert listed.fingerprint() == _reference_fingerprint(listed)
    lone = JudgeRequest(messages=(Message("user", ("ok", "\ud800")),), task="t")
    with pytest.raises(UnicodeEncodeError):
        lone.fingerprint()


def _stored(path: Path) -> int:
    """Rows another connection sees in the cache file (what a crash would leave)."""
    with sqlite3.connect(path) as other:
        (n,) = other.execute("SELECT COUNT(*) FROM responses").fetchone()
    return int(n)


def test_replies_of_one_write_window_are_written_together(tmp_path: Path) -> None:
    """Replies stored in a running loop are readable at once, written WRITE_EVERY later."""
    cache = ResponseCache(tmp_path)
    keys = [cache.key("j", request(f"r{i}")) for i in range(5)]

    async def main() -> tuple[int, int, int]:
        for k in keys[:3]:
            cache.put(k, RESPONSE, identity="j", task="coherence@1")
        await asyncio.sleep(0)  # later turns of the same window join its transaction
        for k in keys[3:]:
            cache.put(k, RESPONSE, identity="j", task="coherence@1")
        assert all(k in cache and cache.get(k) == RESPONSE for k in keys)
        during = _stored(cache.path)
        await asyncio.sleep(0)
        still = _stored(cache.path)
        await asyncio.sleep(WRITE_EVERY * 3)  # the window ends
        return during, still, _stored(cache.path)

    assert asyncio.run(main()) == (0, 0, 5)
    cache.put("outside", RESPONSE, identity="j", task="t")  # no loop: written now
    assert _stored(cache.path) == 6
    cache.delete(keys[0])
    assert keys[0] not in cache and cache.get(keys[0]) is None and len(cache) == 5
    cache.close()


def test_a_full_window_is_written_at_once(tmp_path: Path) -> None:
    """WRITE_ROWS pending rows are written without waiting for the window to end."""
    cache = ResponseCache(tmp_path)

    async def main() -> tuple[int, int]:
        for i in range(WRITE_ROWS - 1):
            cache.put(f"k{i}", RESPONSE, identity="j", task="t")
        before = _stored(cache.path)
        cache.put("last", RESPONSE, identity="j", task="t")
        return before, _stored(cache.path)

    assert asyncio.run(main()) == (0, WRITE_ROWS)
    cache.close()


def test_a_turn_left_unwritten_by_its_loop_is_written_by_close(tmp_path: Path) -> None:
    """A loop stopped in the turn that stored a reply never runs its write: close() does."""
    cache = ResponseCache(tmp_path)
    loop = asyncio.new_event_loop()

    def store() -> None:
        cache.put("k", RESPONSE, identity="j", task="t")
        loop.stop()  # this turn is the loop's last

    loop.call_soon(store)
    loop.run_forever()
    loop.close()
    assert _stored(cache.path) == 0 and cache.get("k") == RESPONSE
    cache.close()
    assert ResponseCache(tmp_path).get("k") == RESPONSE


def test_a_turn_left_unwritten_is_written_at_exit(tmp_path: Path) -> None:
    """A process that never closes its cache still keeps what its last turn stored."""
    code = textwrap.dedent(
        f"""
        import asyncio
        from sumjudge.cache import ResponseCache
        from sumjudge.protocol import JudgeResponse
        cache = ResponseCache({str(tmp_path)!r})
        loop = asyncio.new_event_loop()
        def store():
            cache.put("k", JudgeResponse(text="kept"), identity="j", task="t")
            loop.stop()
        loop.call_soon(store)
        loop.run_forever()
        loop.close()
        assert cache._pending  # not written yet
        """
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
    found = ResponseCache(tmp_path).get("k")
    assert found is not None and found.text == "kept"
