"""Real `sumjudge review` processes on one label file: a crash loses nothing, a second
process continues where the first stopped, a second reviewer's labels carry their name,
and Ctrl-C stops with a line saying what was written where."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import aiohttp
from review_data import ReviewProcess, page_token  # type: ignore[import-not-found]

from sumjudge.align import latest, read_labels


async def client(url: str) -> tuple[aiohttp.ClientSession, dict[str, str]]:
    http = aiohttp.ClientSession()
    async with http.get(url) as res:
        token = page_token(await res.text())
    return http, {"X-Review-Token": token}


async def listing(url: str) -> dict[str, Any]:
    http, headers = await client(url)
    async with http, http.get(url + "api/items", headers=headers) as res:
        data: dict[str, Any] = await res.json()
        return data


async def label(url: str, *bodies: dict[str, Any]) -> None:
    http, headers = await client(url)
    async with http:
        for body in bodies:
            async with http.post(url + "api/label", json=body, headers=headers) as res:
                assert res.status == 200, await res.text()


async def test_crash_then_continue_then_second_reviewer(
    run_files: tuple[Path, Path], tmp_path: Path
) -> None:
    results, inputs = run_files
    log = results.with_name("results.labels.jsonl")  # the default beside RESULTS
    common = [str(results), "--inputs", str(inputs), "--order", "input"]

    with ReviewProcess(*common, "--reviewer", "ann") as first:
        await label(first.url, {"id": "call-0", "rating": "good"}, {"id": "call-1",
                    "scores": {"coherence": 3}, "note": "fine"})  # fmt: skip
        code, _ = first.stop(signal.SIGKILL)  # a crash: no clean shutdown at all
        assert code == -signal.SIGKILL
    assert [x.id for x in read_labels(log)] == ["call-0", "call-1"]

    with ReviewProcess(*common, "--reviewer", "ann") as second:
        assert any("2 labelled before" in line for line in second.lines)
        state = await listing(second.url)
        assert (state["labelled"], state["start"]) == (2, 2)  # continues at call-2
        await label(second.url, {"id": "call-2", "rating": "bad", "agree": {"fluency": False}})
        code, lines = second.stop(signal.SIGINT)  # Ctrl-C
    assert code == 0
    assert lines[-1] == (
        f"sumjudge: review stopped: 1 label(s) written to {log} (3 of 5 items labelled by 'ann')"
    )

    with ReviewProcess(*common, "--reviewer", "bob") as third:
        state = await listing(third.url)
        assert (state["reviewer"], state["labelled"], state["start"]) == ("bob", 0, 0)
        await label(third.url, {"id": "call-0", "rating": "bad", "note": "too short"})
        code, _ = third.stop(signal.SIGINT)
        assert code == 0

    last = latest(read_labels(log))
    assert {key for key in last} == {
        ("call-0", "ann"),
        ("call-1", "ann"),
        ("call-2", "ann"),
        ("call-0", "bob"),
    }
    assert last[("call-0", "bob")].rating == "bad" and last[("call-0", "ann")].rating == "good"
    assert last[("call-0", "bob")].source_id == "doc-0"


def test_a_port_in_use_is_one_line_exit_2(run_files: tuple[Path, Path]) -> None:
    import subprocess
    import sys

    results, _ = run_files
    with ReviewProcess(str(results)) as first:
        port = first.url.rstrip("/").rsplit(":", 1)[1]
        second = subprocess.run(
            [sys.executable, "-m", "sumjudge.cli.main", "review", str(results), "--port", port],
            capture_output=True,
            text=True,
            timeout=120,
        )
        first.stop(signal.SIGINT)
    lines = second.stderr.strip().splitlines()
    assert second.returncode == 2, second.stderr
    assert lines[-1].startswith(f"sumjudge: error: --port {port}: cannot listen on 127.0.0.1")
    assert "Traceback" not in second.stderr
