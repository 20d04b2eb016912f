"""The review server on a real 127.0.0.1 socket: its API, its guards, the label log."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
from review_data import HOSTILE, page_token  # type: ignore[import-not-found]

from sumjudge.align import LabelLog, read_labels
from sumjudge.review import ReviewSession, load_items, load_labels, serve


@dataclass
class Running:
    url: str
    token: str
    http: aiohttp.ClientSession
    session: ReviewSession

    def headers(self, **extra: str) -> dict[str, str]:
        return {"X-Review-Token": self.token, **extra}

    async def get(self, path: str) -> tuple[int, Any]:
        async with self.http.get(self.url + path, headers=self.headers()) as res:
            return res.status, await res.json()

    async def post(self, body: Any, **headers: str) -> tuple[int, Any]:
        async with self.http.post(
            self.url + "api/label", json=body, headers=self.headers(**headers)
        ) as res:
            return res.status, await res.json()


@asynccontextmanager
async def running(
    results: Path, inputs: Path, log: Path, reviewer: str = "ann", order: str = "input"
) -> AsyncIterator[Running]:
    items = load_items(results, inputs)
    session = ReviewSession(items, LabelLog(log), reviewer, load_labels(log), order=order)
    stop = asyncio.Event()
    ready: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(serve(session, 0, on_ready=ready.set_result, stop=stop))
    url = await asyncio.wait_for(ready, 10)
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(url) as res:
                assert res.status == 200
                csp = res.headers["Content-Security-Policy"]
                assert "default-src 'none'" in csp and "connect-src 'self'" in csp
                token = page_token(await res.text())
            yield Running(url, token, http, session)
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)


async def test_items_and_one_item(run_files: tuple[Path, Path], tmp_path: Path) -> None:
    results, inputs = run_files
    async with running(results, inputs, tmp_path / "labels.jsonl") as srv:
        status, listing = await srv.get("api/items")
        assert status == 200
        assert listing["total"] == 5 and listing["labelled"] == 0 and listing["start"] == 0
        assert [x["id"] for x in listing["items"]] == [f"call-{k}" for k in range(5)]
        status, item = await srv.get("api/item?id=call-1")
        assert status == 200
        assert item["source_id"] == "doc-0" and item["judge"] == "local-lexical"
        source = item["source"]
        assert source["kind"] == "turns" and len(source["turns"]) == 4
        assert source["turns"][0]["speaker"] == "Agent (support)"
        marked = [p for t in source["turns"] for p in t["text"] if p[1] == "ev"]
        assert [p[0] for p in marked] == ["I will issue a refund of $15 today"]
        assert marked[0][2].startswith("relevance: leaves out")
        # Untrusted text travels as text; the page sets it with textContent.
        assert HOSTILE in item["summary"]
        assert HOSTILE in item["metrics"][0]["explanation"]
        status, _ = await srv.get("api/item?id=nope")
        assert status == 404


async def test_label_is_appended_at_once(run_files: tuple[Path, Path], tmp_path: Path) -> None:
    results, inputs = run_files
    log = tmp_path / "labels.jsonl"
    async with running(results, inputs, log) as srv:
        body = {"id": "call-0", "scores": {"coherence": 2}, "agree": {"fluency": True}}
        status, saved = await srv.post(body)
        assert status == 200 and saved["done"] is True
        assert (saved["labelled"], saved["total"]) == (1, 5)
        (label,) = read_labels(log)  # on disk before the answer came
        assert label.reviewer == "ann" and label.scores == {"coherence": 2.0}
        assert label.source_id == "doc-0"
        assert label.judge["name"] == "local-lexical"
        assert label.judge["scores"]["coherence"] == 1 and label.judge["rating"] == "good"
        # A change is one more line; the first stays as it was.
        before = log.read_bytes()
        status, _ = await srv.post({**body, "rating": "bad", "note": HOSTILE})
        assert status == 200 and log.read_bytes().startswith(before)
        labels = read_labels(log)
        assert len(labels) == 2 and labels[1].note == HOSTILE and labels[1].rating == "bad"
        status, item = await srv.get("api/item?id=call-0")
        assert item["label"]["rating"] == "bad" and item["label"]["scores"] == {"coherence": 2}
        # A note alone does not make an item labelled.
        status, saved = await srv.post({"id": "call-1", "note": "thinking"})
        assert saved["done"] is False and saved["labelled"] == 1


async def test_bad_labels_are_refused_and_not_written(
    run_files: tuple[Path, Path], tmp_path: Path
) -> None:
    results, inputs = run_files
    log = tmp_path / "labels.jsonl"
    async with running(results, inputs, log) as srv:
        for body, words in [
            ({"id": "nope"}, "unknown item"),
            ({"id": "call-0", "scores": {"coherence": 4}}, "1, 2 or 3"),
            ({"id": "call-0", "scores": {"coherence": True}}, "1, 2 or 3"),
            ({"id": "call-0", "scores": {"banana": 2}}, "not a 1-3 metric"),
            ({"id": "call-0", "agree": {"fluency": "yes"}}, "bool"),
            ({"id": "call-0", "rating": "great"}, "rating must be"),
            ({"id": "call-0", "note": 5}, "note must be"),
            ([1, 2], "JSON object"),
        ]:
            status, answer = await srv.post(body)
            assert status == 400 and words in answer["error"], (body, answer)
        json_type = srv.headers(**{"Content-Type": "application/json"})
        async with srv.http.post(srv.url + "api/label", data=b"{not", headers=json_type) as res:
            assert res.status == 400
    assert not log.exists()


async def test_token_host_and_origin_guards(run_files: tuple[Path, Path], tmp_path: Path) -> None:
    results, inputs = run_files
    log = tmp_path / "labels.jsonl"
    body = {"id": "call-0", "rating": "good"}
    async with running(results, inputs, log) as srv:
        port = srv.url.rstrip("/").rsplit(":", 1)[1]
        post = srv.url + "api/label"
        # No token, a wrong token: refused, reads too.
        async with srv.http.post(post, json=body) as res:
            assert res.status == 403
        async with srv.http.post(post, json=body, headers={"X-Review-Token": "x"}) as res:
            assert res.status == 403
        async with srv.http.get(srv.url + "api/items") as res:
            assert res.status == 403
        # DNS rebinding: a page at evil.example resolving to 127.0.0.1 sends its own Host,
        # even with the token it cannot have; the page itself is refused too.
        for target in (post, srv.url):
            async with srv.http.request(
                "POST" if target == post else "GET",
                target,
                json=body,
                headers=srv.headers(Host=f"evil.example:{port}"),
            ) as res:
                assert res.status == 403
        async with srv.http.get(srv.url, headers={"Host": "localhost:" + port}) as res:
            assert res.status == 403
        status, _ = await srv.post(body, Origin="http://evil.example")
        assert status == 403
        # A cross-site form can only send form types: refused.
        async with srv.http.post(
            post, data=json.dumps(body), headers=srv.headers(**{"Content-Type": "text/plain"})
        ) as res:
            assert res.status == 415
        assert not log.exists()
        status, _ = await srv.post(body, Origin=srv.url.rstrip("/"))  # our own page
        assert status == 200
    assert len(read_labels(log)) == 1


async def test_reopening_continues_at_first_unlabelled(
    run_files: tuple[Path, Path], tmp_path: Path
) -> None:
    results, inputs = run_files
    log = tmp_path / "labels.jsonl"
    async with running(results, inputs, log) as srv:
        for k in (0, 1, 3):
            await srv.post({"id": f"call-{k}", "rating": "good"})
    async with running(results, inputs, log) as srv:
        _, listing = await srv.get("api/items")
        assert listing["labelled"] == 3 and listing["start"] == 2
        assert [x["labelled"] for x in listing["items"]] == [True, True, False, True, False]
    async with running(results, inputs, log, reviewer="bob") as srv:
        _, listing = await srv.get("api/items")
        assert listing["labelled"] == 0 and listing["start"] == 0
        await srv.post({"id": "call-0", "rating": "bad"})
    by = [(x.id, x.reviewer, x.rating) for x in read_labels(log)]
    assert by[-1] == ("call-0", "bob", "bad") and by.count(("call-0", "ann", "good")) == 1
