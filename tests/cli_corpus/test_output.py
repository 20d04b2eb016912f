"""What people read from `evaluate` and `autoeval`: order, formats, dry run, flag errors.

Every case drives `sumjudge.cli.main.main` in-process with stdout captured (so stdout is
not a terminal) and checks the exit code, the message and that no traceback was printed.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from sumjudge.cli._run import InOrder, _Spinner
from sumjudge.cli.main import main
from sumjudge.testing.openai_server import FakeOpenAIServer, Reply

OFFLINE = ["--model", "local-lexical", "--no-cache", "--no-progress"]
EXAMPLE_IDS = [
    "id-sprint-planning-langganan",
    "en-budget-review-q3",
    "en-budget-review-q3-hallucinated-figure",
    "en-incident-review-missing-decision",
    "id-evaluasi-hub-medan-garbled",
    "en-product-sync-off-focus",
]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "Traceback" not in out
    return code, out, err


def flat(text: str) -> str:
    return " ".join(text.split())


def write_rows(path: Path, n: int = 6, *, long_index: int | None = None) -> Path:
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            source = f"Meeting {i}. Rina says the release ships on Friday. Budi will test it."
            if i == long_index:
                source += " Budi adds more detail about the test plan." * 200
            fh.write(json.dumps({"id": f"m{i}", "input": source, "summary": f"Ships Friday {i}."}))
            fh.write("\n")
    return path


def slow_first(srv: FakeOpenAIServer) -> None:
    """Item 0's calls answer late, so the others finish before it."""

    def respond(body: dict[str, Any]) -> Reply:
        if "Meeting 0." in json.dumps(body["messages"]):
            return Reply.delay(0.4, srv.default_reply(body))
        return srv.default_reply(body)

    srv.responder = respond


def llm(srv: FakeOpenAIServer) -> list[str]:
    return [
        "--model",
        "openai/fake-model",
        "--base-url",
        srv.base_url,
        "--no-cache",
        "--no-progress",
    ]


# -- order ------------------------------------------------------------------------------------


def test_file_output_is_in_input_order_with_concurrency(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows, out = write_rows(tmp_path / "in.jsonl"), tmp_path / "out.jsonl"
    with FakeOpenAIServer() as srv:
        slow_first(srv)
        code, stdout, err = run(
            capsys, "evaluate", str(rows), *llm(srv), "--concurrency", "4", "-o", str(out)
        )
        first_done = [json.dumps(r["body"]["messages"]) for r in srv.requests]
    assert code == 0, err
    assert stdout == ""  # the records are in the file; stdout is not a terminal
    assert [json.loads(x)["index"] for x in out.read_text().splitlines()] == list(range(6))
    assert "Meeting 0." in first_done[0]  # item 0 started first, yet finished last


def test_stdout_json_lines_are_in_input_order_when_not_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = write_rows(tmp_path / "in.jsonl")
    with FakeOpenAIServer() as srv:
        slow_first(srv)
        code, stdout, err = run(capsys, "evaluate", str(rows), *llm(srv), "--concurrency", "3")
    assert code == 0, err
    records = [json.loads(line) for line in stdout.splitlines()]
    assert [r["index"] for r in records] == list(range(6))
    assert [r["id"] for r in records] == [f"m{i}" for i in range(6)]


def test_reorder_buffer_releases_the_prefix_and_counts_skipped_as_present() -> None:
    order: InOrder[str] = InOrder(skip={1, 4})
    assert order.add(2, "c") == []
    assert order.held == 1
    assert order.add(0, "a") == ["a", "c"]  # 1 is done already (resume)
    assert order.add(5, "f") == []
    assert order.add(3, "d") == ["d", "f"]  # 4 skipped too
    assert order.held == 0
    assert order.add(7, "h") == [] and order.rest() == ["h"]


def test_a_resumed_output_ends_in_input_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows, out = write_rows(tmp_path / "in.jsonl"), tmp_path / "out.jsonl"
    code, _, err = run(capsys, "evaluate", str(rows), *OFFLINE, "-o", str(out))
    assert code == 0, err
    lines = out.read_text().splitlines()
    out.write_text(lines[0] + "\n" + lines[2] + "\n")  # 0 and 2 finished
    code, _, err = run(
        capsys, "evaluate", str(rows), *OFFLINE, "-o", str(out), "--resume", "--concurrency", "4"
    )
    assert code == 0, err
    assert "2 item(s) already done" in err
    got = [json.loads(x)["index"] for x in out.read_text().splitlines()]
    assert got == [0, 1, 2, 3, 4, 5]  # kept and new records, put back in input order


# -- formats ----------------------------------------------------------------------------------


def test_table_format_has_columns_reasons_and_counts(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    code, out, err = run(capsys, "evaluate", "--example", *OFFLINE, "--format", "table")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == [
        "id",
        "rating",
        "coherence",
        "consistency",
        "relevance",
        "fluency",
        "reason",
    ]
    body = lines[1:7]
    assert [line.split()[0] for line in body] == EXAMPLE_IDS  # input order
    for line in body:
        assert line.split()[1] in ("good", "incomplete", "bad")
        assert all(cell in "123" for cell in line.split()[2:6])
    assert any("metric" in line for line in body)  # the global explanation as reason
    assert lines[7] == "" and lines[8].startswith("6 item(s): ")
    assert not any(line.lstrip().startswith(("{", "[")) for line in lines)
    assert "6 item(s): 6 ok" in err  # stderr keeps the run summary


def test_table_reason_is_cut_to_the_terminal_width(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "90")
    code, out, err = run(capsys, "evaluate", "--example", *OFFLINE, "--format", "table")
    assert code == 0, err
    assert all(len(line) <= 90 for line in out.splitlines())
    assert "…" in out
    assert out.splitlines()[0].split()[2:6] == ["coh", "cons", "rel", "flu"]  # narrow


def test_table_names_the_failure_of_an_invalid_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "160")
    rows = write_rows(tmp_path / "in.jsonl", 2)
    with rows.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({"id": "bad", "input": "Some source."}) + "\n")
    code, out, err = run(capsys, "evaluate", str(rows), *OFFLINE, "--format", "table")
    assert code == 3
    row = next(line for line in out.splitlines() if line.startswith("bad "))  # its id is kept
    assert row.split()[1] == "invalid" and "is missing" in row
    assert "3 item(s): " in out and "1 invalid" in out
    assert "row 2, field 'summary': is missing" in err


def test_autoeval_table_shows_status_percentages_and_na(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "160")
    code, out, err = run(
        capsys, "autoeval", "--example", "--model", "local", "--no-cache", "--no-progress",
        "--format", "table",
    )  # fmt: skip
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split()[:5] == ["id", "status", "accuracy", "adherence", "completeness"]
    rows = lines[1:5]
    assert all(r.split()[1] == "ok" and r.split()[2].endswith("%") for r in rows)
    assert all(r.split()[4] == "N/A" and "completeness N/A" in r for r in rows)
    assert lines[-1] == "4 conversation(s): 4 ok"


def test_json_format_is_one_array_in_input_order(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "evaluate", "--example", *OFFLINE, "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert isinstance(doc, list) and [r["index"] for r in doc] == list(range(6))
    assert [r["id"] for r in doc] == EXAMPLE_IDS


def test_json_lines_by_default_when_stdout_is_not_a_terminal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "evaluate", "--example", *OFFLINE, "--concurrency", "4")
    assert code == 0, err
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["index"] for r in records] == list(range(6))


def test_format_jsonl_with_o_writes_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "out.jsonl"
    code, out, err = run(
        capsys, "evaluate", "--example", *OFFLINE, "-o", str(out_file), "--format", "jsonl"
    )
    assert code == 0, err
    assert out.splitlines() == out_file.read_text().splitlines()


# -- single pair ------------------------------------------------------------------------------


def pair(tmp_path: Path) -> list[str]:
    (tmp_path / "t.txt").write_text("Rina: we ship on Friday. Budi: the budget is 40 million.")
    (tmp_path / "s.md").write_text("They ship on Friday with a 40 million budget.")
    return ["--input-file", str(tmp_path / "t.txt"), "--summary-file", str(tmp_path / "s.md")]


def test_single_pair_o_writes_one_json_line_that_report_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "x.jsonl"
    code, stdout, err = run(capsys, "evaluate", *pair(tmp_path), *OFFLINE, "-o", str(out))
    assert code == 0, err
    lines = out.read_text().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["index"] == 0
    assert stdout == ""
    html = tmp_path / "r.html"
    code, _, err = run(capsys, "report", str(out), "-o", str(html))
    assert code == 0, err
    assert "report written to" in err and html.read_text().lower().startswith("<!doctype html")


def test_single_pair_on_stdout_is_one_json_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "evaluate", *pair(tmp_path), *OFFLINE)
    assert code == 0, err
    assert len(out.splitlines()) == 1
    assert json.loads(out)["summary"]["relevancy_rating"] in ("good", "incomplete", "bad")


def test_single_pair_report_flag_works(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    html = tmp_path / "r.html"
    code, _, err = run(capsys, "evaluate", *pair(tmp_path), *OFFLINE, "--report", str(html))
    assert code == 0, err
    assert len((tmp_path / "r.jsonl").read_text().splitlines()) == 1
    assert html.exists() and "report written to" in err


def test_spinner_shows_elapsed_time_on_a_terminal() -> None:
    import asyncio

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    async def long_item(stream: Tty) -> None:
        with _Spinner(stream, enabled=True, after=0.05):
            await asyncio.sleep(0.4)

    stream = Tty()
    asyncio.run(long_item(stream))
    text = stream.getvalue()
    assert "judging the item..." in text and text.endswith("\r\033[K")
    quiet = io.StringIO()  # not a terminal: nothing
    asyncio.run(long_item(quiet))  # type: ignore[arg-type]
    assert quiet.getvalue() == ""


# -- run summary ------------------------------------------------------------------------------


def test_offline_run_has_no_token_or_spend_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "evaluate", "--example", *OFFLINE)
    assert code == 0, err
    assert "tokens:" not in err and "spend" not in err and "response cache" not in err
    assert "24 offline judge call(s)" in err and "6 item(s): 6 ok" in err


def test_llm_run_keeps_the_token_and_spend_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = write_rows(tmp_path / "in.jsonl", 2)
    with FakeOpenAIServer() as srv:
        code, _, err = run(capsys, "evaluate", str(rows), *llm(srv))
    assert code == 0, err
    assert "sumjudge: tokens:" in err and "spend" in err


# -- dry run and the context window -----------------------------------------------------------


def test_dry_run_needs_no_key_and_lists_items_that_do_not_fit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = write_rows(tmp_path / "in.jsonl", 3, long_index=1)
    code, out, err = run(
        capsys, "evaluate", str(rows), "--model", "openai/gpt-4o-mini", "--no-cache",
        "--dry-run", "--context-window", "3000",
    )  # fmt: skip
    assert code == 0, err
    assert "OPENAI_API_KEY is not set: fine for a dry run" in err
    assert "1 item(s) do not fit openai/gpt-4o-mini's context window of 3000 tokens" in err
    assert "--long-source chunked" in err and "row 1 (id m1): ~" in err
    doc = json.loads(out)
    # The item that does not fit fails before any call: only the other two are counted.
    assert doc["requests"] == 8 and doc["context_window"] == 3000
    assert any("will fail before any call" in n for n in doc["notes"])
    assert [u["index"] for u in doc["over_context_window"]] == [1]
    assert doc["over_context_window"][0]["needed_tokens"] > 3000


def test_dry_run_for_anthropic_without_key(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "autoeval", "--example", "--model", "anthropic/claude-haiku-4-5", "--dry-run",
        "--no-cache",
    )  # fmt: skip
    assert code == 0, err
    assert "ANTHROPIC_API_KEY is not set" in err and "every item fits" in err
    assert json.loads(out)["over_context_window"] == []


def test_a_real_run_without_key_still_fails_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "evaluate", "--example", "--model", "openai/gpt-4o-mini")
    assert code == 2 and out == ""
    assert err.strip().splitlines()[-1].startswith("sumjudge: error: No API key for the OpenAI")


def test_window_failure_names_long_source_chunked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows, out = write_rows(tmp_path / "in.jsonl", 2, long_index=0), tmp_path / "out.jsonl"
    with FakeOpenAIServer() as srv:
        code, _, err = run(
            capsys, "evaluate", str(rows), *llm(srv), "--context-window", "1500", "-o", str(out)
        )
    assert code == 3
    assert "row 0 failed: item: the source does not fit" in err
    assert "--long-source chunked" in err
    first = json.loads(out.read_text().splitlines()[0])
    assert first["status"] == "failed" and 'long_source="chunked"' in first["error"]["message"]


# -- help and flag errors ---------------------------------------------------------------------


@pytest.mark.parametrize("command", ["evaluate", "autoeval"])
def test_help_shows_every_default(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    assert exc.value.code == 0
    text = flat(capsys.readouterr().out)
    assert "with --base-url, openai/default" in text
    assert "GOOGLE_API_KEY -> google/gemini-2.5-flash" in text and "with none, local" in text
    assert "(default: fail)" in text and "(default: 120.0)" in text
    assert "(default: table on a terminal, else jsonl; always jsonl into -o)" in text
    assert "(default: no cap)" in text and "(default: all of them)" in text
    assert "(default: summary)" in text  # --summary-column


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["evaluate", "in.jsonl", "--input-file", "a", "--summary-file", "b"], "FILE and --input"),
        (["evaluate", "--example", "--input-file", "a", "--summary-file", "b"], "--example and"),
        (["evaluate", "in.jsonl", "--example"], "FILE and --example are different inputs"),
        (["autoeval", "in.jsonl", "--example"], "FILE and --example are different inputs"),
        (["evaluate", "--input-file", "a"], "--input-file and --summary-file go together"),
        (["evaluate", "nowhere.jsonl"], "FILE nowhere.jsonl: no such file"),
        (["evaluate", "--example", "--resume"], "--resume needs -o/--output FILE"),
    ],
)
def test_flag_errors_are_one_line_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, *argv, *OFFLINE)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sumjudge: error: ") and message in lines[0]


@pytest.mark.parametrize("command", ["evaluate", "autoeval"])
def test_unknown_language_code_lists_the_known_ones(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, command, "--example", *OFFLINE, "--language", "xq")
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert "--language 'xq' is not a language code we know" in lines[0]
    assert "en, es" in lines[0] and "--language Swedish" in lines[0]


@pytest.mark.parametrize("language", ["id", "id-ID", "English", "Bahasa Indonesia"])
def test_known_codes_and_language_names_are_accepted(
    language: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "evaluate", "--example", *OFFLINE, "--language", language)
    assert code == 0, err


@pytest.mark.parametrize("language", ["pt-BR", "Swedish", "ja"])
def test_languages_the_offline_judge_does_not_write_stop_the_run(
    language: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Known to LLM judges, but the offline judge writes English or Indonesian only: one
    line and exit 2 before any item, never explanations silently in English."""
    code, out, err = run(capsys, "evaluate", "--example", *OFFLINE, "--language", language)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "English (en) or Indonesian (id) only" in lines[0]


def test_report_from_a_csv_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--report` re-reads a CSV (with a byte-order mark) through the run's own reader."""
    rows = tmp_path / "in.csv"
    rows.write_bytes(
        b'\xef\xbb\xbfid,input,summary\nc1,"Rina: we ship on Friday.","They ship on Friday."\n'
    )
    before = rows.read_bytes()
    report = tmp_path / "r.html"
    code, _, err = run(capsys, "evaluate", str(rows), *OFFLINE, "--report", str(report))
    assert code == 0, err
    assert (
        "Traceback" not in err and report.exists() and "They ship on Friday" in report.read_text()
    )
    assert rows.read_bytes() == before
