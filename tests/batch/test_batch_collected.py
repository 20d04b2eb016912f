"""The collected replies of a batch run live on disk, not in memory, until the last pass."""

from __future__ import annotations

from pathlib import Path

from sumjudge.batch.collected import CollectedOutcomes
from sumjudge.batch.provider import Outcome
from sumjudge.errors import ProviderError
from sumjudge.protocol import JudgeResponse, TokenLogprob, Usage


def reply(n: int) -> JudgeResponse:
    return JudgeResponse(
        text=f'{{"explanation": "ok", "score": {n % 3 + 1}}}',
        usage=Usage(prompt_tokens=100 + n, completion_tokens=10, cached_prompt_tokens=64),
        logprobs=tuple(
            TokenLogprob(str(i), -0.1 * i, (("2", -0.1), ("3", -2.5))) for i in range(50)
        ),
        model="m",
        latency_s=0.25,
    )


def test_replies_are_read_back_from_the_spill_file(tmp_path: Path) -> None:
    store = CollectedOutcomes(tmp_path)
    for n in range(200):
        store.put(f"fp{n}", Outcome(response=reply(n)))
    store.put("bad", Outcome(error=ProviderError("HTTP 400: no")))
    assert len(store) == 201 and store.answered("fp7") and not store.answered("bad")
    assert store.spilled_bytes > 0
    again = store.get("fp7")
    assert again is not None and again.response == reply(7)
    other = store.get("fp7")
    assert other is not None and other.response is not again.response  # a fresh copy
    bad = store.get("bad")
    assert bad is not None and bad.error is not None and "no" in str(bad.error)
    store.forget("bad")
    assert "bad" not in store and store.get("bad") is None
    # memory holds offsets, not replies
    assert all(isinstance(v, tuple) for v in store._replies.values())
    store.close()
    assert store.get("fp7") is None
    assert list(tmp_path.iterdir()) == []  # anonymous temporary file: nothing left behind


def test_a_reply_replaces_an_earlier_error() -> None:
    store = CollectedOutcomes()
    store.put("fp", Outcome(error=ProviderError("HTTP 500", retryable=True)))
    store.put("fp", Outcome(response=reply(1)))
    got = store.get("fp")
    assert got is not None and got.error is None and got.response == reply(1)
    store.close()
