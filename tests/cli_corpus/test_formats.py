"""The input formats people have, end to end through the CLI and at the readers.

Each CLI case checks the exit code, the message, that no traceback is printed, that the
good rows were judged and written, and that the input file was left unchanged.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from sumjudge.cli.main import main
from sumjudge.datasets.conversations import read_conversation_rows
from sumjudge.datasets.files import (
    DataWarning,
    count_rows,
    iter_records,
    read_source_file,
    read_summary_rows,
)
from sumjudge.errors import DataError
from sumjudge.offline.backend import OfflineJudge
from sumjudge.protocol import JudgeRequest, ScoreSubject, TurnsSubject
from sumjudge.text import strip_control
from sumjudge.transcripts import detect_format, normalize_source, parse_transcript
from sumjudge.types import ConversationItem, SummaryData

SOURCE = (
    "Rina: The launch moves to Friday because QA found two blocking bugs.\n"
    "Tom: I will fix the login bug by Wednesday.\n"
    "Rina: Good. Ayu tests the payment flow on Thursday."
)
SUMMARY = "The launch moves to Friday. Tom fixes the login bug by Wednesday; Ayu tests payments."
TRANSCRIPT = (
    "Agent: Thanks for calling, how can I help?\n"
    "Customer: My router keeps dropping the connection since Monday.\n"
    "Agent: I have reset the line and sent a replacement router, arriving Friday."
)
CONV_SUMMARY = "The customer's router dropped since Monday; the agent reset the line."

VTT = """WEBVTT

NOTE exported by the meeting tool

1
00:00:01.000 --> 00:00:04.000
<v Rina>The launch moves to Friday</v>

2
00:00:04.000 --> 00:00:06.500
<v Rina>because QA found two blocking bugs.</v>

3
00:00:06.500 --> 00:00:09.000 align:start
<v Tom>I will <b>fix</b> the login bug by Wednesday.</v>

00:00:09.000 --> 00:00:12.000
Rina: Good. Ayu tests the payment flow on Thursday.
"""
VTT_TEXT = (
    "Rina: The launch moves to Friday because QA found two blocking bugs.\n"
    "Tom: I will fix the login bug by Wednesday.\n"
    "Rina: Good. Ayu tests the payment flow on Thursday."
)
SRT = """1
00:00:01,000 --> 00:00:04,000
Agent: Thanks for calling, how can I help?

2
00:00:04,500 --> 00:00:07,000
Customer: My router keeps dropping
the connection since Monday.

3
00:00:07,000 --> 00:00:10,000
Agent: I have reset the line and sent a replacement router, arriving Friday.
"""
JSON_TURNS = [
    {"speaker": "Agent", "text": "Thanks for calling, how can I help?"},
    {"speaker": "Customer", "text": "My router keeps dropping the connection since Monday."},
    {
        "role": "Agent",
        "text": "I have reset the line and sent a replacement router, arriving Friday.",
    },
]
MARKDOWN = """## Decisions

- **Launch date:** Friday
- **Owner:** Tom fixes the login bug by Wednesday.

| Task | Owner | Due |
|------|-------|-----|
| Login bug | Tom | Wednesday |
| Payment tests | Ayu | Thursday |

**Risks:** two blocking bugs found by QA."""


# --- helpers ---------------------------------------------------------------------------------


def _hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


def _rows(n: int = 2) -> list[dict[str, Any]]:
    return [{"id": f"r{i}", "input": SOURCE, "summary": SUMMARY} for i in range(n)]


def _conv_rows(n: int = 2) -> list[dict[str, Any]]:
    return [{"id": f"c{i}", "transcript": TRANSCRIPT, "summary": CONV_SUMMARY} for i in range(n)]


class Run:
    """One CLI run: exit code, written records (by id) and stderr."""

    def __init__(self, code: int, records: list[dict[str, Any]], err: str) -> None:
        self.code, self.records, self.err = code, records, err

    @property
    def ok_ids(self) -> list[str]:
        return sorted(r.get("id", str(r["index"])) for r in self.records if r["status"] == "ok")

    def invalid(self) -> list[dict[str, Any]]:
        return sorted(
            (r for r in self.records if r["status"] == "invalid"), key=lambda r: r["index"]
        )


def _cli(
    command: str, path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str
) -> Run:
    before = _hash(path)
    out = tmp_path / "out.jsonl"
    argv = [command, str(path), "--model", "local-lexical", "--no-cache", "--no-progress"]
    code = main([*argv, "-o", str(out), *extra])
    err = capsys.readouterr().err
    assert _hash(path) == before, "the input file was changed"
    assert "Traceback" not in err
    records = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    return Run(code, records, err)


def _evaluate(path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> Run:
    return _cli("evaluate", path, tmp_path, capsys, *extra)


def _autoeval(path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> Run:
    return _cli("autoeval", path, tmp_path, capsys, *extra)


@pytest.fixture
def requests(monkeypatch: pytest.MonkeyPatch) -> list[JudgeRequest]:
    """Every request the offline judge is sent."""
    seen: list[JudgeRequest] = []
    real = OfflineJudge.complete

    async def complete(self: OfflineJudge, request: JudgeRequest) -> Any:
        seen.append(request)
        return await real(self, request)

    monkeypatch.setattr(OfflineJudge, "complete", complete)
    return seen


def _texts(requests: list[JudgeRequest]) -> str:
    """The text the offline judge reads: each request's subject (it is sent no prompt)."""
    texts: list[str] = []
    for r in requests:
        if isinstance(r.subject, ScoreSubject):
            texts += [r.subject.source, r.subject.summary]
        elif isinstance(r.subject, TurnsSubject):
            texts += [*r.subject.turns, *r.subject.sections.values()]
    return "\n".join(texts)


# --- CSV and TSV -----------------------------------------------------------------------------


def _csv(path: Path, rows: list[dict[str, Any]], delimiter: str = ",", bom: bool = False) -> Path:
    import csv
    import io

    buf = io.StringIO()
    writer = csv.DictWriter(buf, list(rows[0]), delimiter=delimiter)
    writer.writeheader()
    writer.writerows(rows)
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + buf.getvalue().encode("utf-8"))
    return path


def test_csv_with_bom(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = _evaluate(_csv(tmp_path / "bom.csv", _rows(), bom=True), tmp_path, capsys)
    assert run.code == 0, run.err
    assert run.ok_ids == ["r0", "r1"]  # the id column is found despite the BOM


def test_semicolon_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [{**r, "summary": SUMMARY + " Risks; none."} for r in _rows()]
    run = _evaluate(_csv(tmp_path / "semi.csv", rows, delimiter=";"), tmp_path, capsys)
    assert run.code == 0, run.err
    assert run.ok_ids == ["r0", "r1"]


def test_tsv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = _evaluate(_csv(tmp_path / "rows.tsv", _rows(3), delimiter="\t"), tmp_path, capsys)
    assert run.code == 0, run.err
    assert run.ok_ids == ["r0", "r1", "r2"]


def test_csv_conversations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = _autoeval(_csv(tmp_path / "conv.csv", _conv_rows()), tmp_path, capsys)
    assert run.code == 0, run.err
    assert run.ok_ids == ["c0", "c1"]


def test_reader_sniffs_delimiters(tmp_path: Path) -> None:
    for name, delimiter in (("a.csv", ";"), ("b.csv", "|"), ("c.csv", "\t"), ("d.tsv", ",")):
        items = list(read_summary_rows(_csv(tmp_path / name, _rows(), delimiter=delimiter)))
        assert [i.id for i in items] == ["r0", "r1"], name  # type: ignore[union-attr]


# --- encodings -------------------------------------------------------------------------------


def _latin1_line_file(tmp_path: Path) -> Path:
    good = [json.dumps(r).encode("utf-8") for r in _rows(3)]
    bad = json.dumps({"id": "bad", "input": SOURCE, "summary": "Caf\u00e9 au lait."}).encode(
        "utf-8"
    )
    bad = bad.replace(b"\\u00e9", "\u00e9".encode("latin-1"))
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join([good[0], bad, good[1], good[2]]) + b"\n")
    return path


def test_latin1_line_in_utf8_jsonl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = _evaluate(_latin1_line_file(tmp_path), tmp_path, capsys)
    assert run.code == 3
    assert run.ok_ids == ["r0", "r1", "r2"]
    [bad] = run.invalid()
    assert bad["index"] == 1
    assert "line 2: not valid UTF-8" in bad["error"]["message"]
    assert "--encoding" in bad["error"]["message"]
    assert "line 2: not valid UTF-8" in run.err


def test_latin1_line_reader_keeps_id(tmp_path: Path) -> None:
    items = list(read_summary_rows(_latin1_line_file(tmp_path)))
    bad = items[1]
    assert isinstance(bad, DataError)
    assert (bad.item, bad.line, bad.id) == (1, 2, "bad")
    assert bad.located.endswith("(id 'bad')")  # its line is already in the message


def _latin1_csv(tmp_path: Path) -> Path:
    text = "id,input,summary\nr0,{s},Caf\u00e9 cr\u00e8me is served.\n".format(
        s=SOURCE.replace("\n", " ")
    )
    path = tmp_path / "latin1.csv"
    path.write_bytes(text.encode("latin-1"))
    return path


def test_encoding_override_reader(tmp_path: Path) -> None:
    path = _latin1_csv(tmp_path)
    [default] = list(read_summary_rows(path))
    assert isinstance(default, DataError) and "not valid UTF-8" in str(default)
    assert default.id == "r0" and default.line == 2
    [item] = list(read_summary_rows(path, encoding="latin-1"))
    assert isinstance(item, SummaryData) and "Caf\u00e9 cr\u00e8me" in item.summary
    assert count_rows(path, encoding="latin-1") == 1


def test_utf16_with_encoding(tmp_path: Path) -> None:
    path = tmp_path / "u16.jsonl"
    path.write_bytes("".join(json.dumps(r) + "\n" for r in _rows()).encode("utf-16"))
    assert [i.id for i in read_summary_rows(path, encoding="utf-16")] == ["r0", "r1"]  # type: ignore[union-attr]


def test_unknown_encoding(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="unknown encoding 'klingon'"):
        read_summary_rows(_jsonl(tmp_path / "a.jsonl", _rows()), encoding="klingon")


def test_encoding_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = _evaluate(_latin1_csv(tmp_path), tmp_path, capsys, "--encoding", "latin-1")
    assert run.code == 0
    assert run.ok_ids == ["r0"]


# --- JSON, empty files, columns, nulls -------------------------------------------------------


def test_json_array_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rows.json"
    rows: list[Any] = _rows(2)
    path.write_text(json.dumps([rows[0], 5, rows[1]], indent=2), "utf-8")
    run = _evaluate(path, tmp_path, capsys)
    assert run.code == 3
    assert run.ok_ids == ["r0", "r1"]
    [bad] = run.invalid()
    assert "a row must be a JSON object, got a number" in bad["error"]["message"]


def test_json_array_lines_and_jsonl_in_json(tmp_path: Path) -> None:
    path = tmp_path / "rows.json"
    path.write_text(json.dumps(_rows(2), indent=2), "utf-8")
    items = list(read_summary_rows(path))
    assert [i.id for i in items] == ["r0", "r1"]  # type: ignore[union-attr]
    path.write_text(json.dumps([{"id": "x", "input": SOURCE}]), "utf-8")
    # a one-element array without the summary column: the file lacks the column
    with pytest.raises(DataError, match="no column 'summary'"):
        read_summary_rows(path)
    lines = _jsonl(tmp_path / "lines.json", _rows(2))
    assert count_rows(lines) == 2 and len(list(iter_records(lines))) == 2


def test_broken_json_array(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "broken.json"
    path.write_text('[\n  {"id": "a", "input": "x", "summary": "y"},\n  {"id": \n]', "utf-8")
    run = _evaluate(path, tmp_path, capsys)
    assert run.code == 2
    assert "is not valid JSON" in run.err and "line 4" in run.err
    assert run.records == []


@pytest.mark.parametrize("content", ["", "\n\n  \n", "[]"])
def test_empty_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str) -> None:
    path = tmp_path / ("empty.json" if content == "[]" else "empty.jsonl")
    path.write_text(content, "utf-8")
    run = _evaluate(path, tmp_path, capsys)
    assert run.code == 2
    assert f"sumjudge: error: {path} has no rows" in run.err
    assert run.records == []


def test_header_only_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "header.csv"
    path.write_text("id,input,summary\n", "utf-8")
    run = _evaluate(path, tmp_path, capsys)
    assert run.code == 2
    assert f"{path} has no rows (only a header)" in run.err


def test_empty_conversations_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "empty.csv"
    path.write_bytes(b"\xef\xbb\xbf")
    run = _autoeval(path, tmp_path, capsys)
    assert run.code == 2
    assert f"{path} has no rows" in run.err


def test_missing_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [{"id": "a", "text": SOURCE, "summary": SUMMARY}]
    run = _evaluate(_csv(tmp_path / "cols.csv", rows), tmp_path, capsys)
    assert run.code == 2
    assert "has no column 'input'" in run.err
    assert "columns found: 'id', 'text', 'summary'" in run.err
    assert "--input-column" in run.err
    ok = _evaluate(tmp_path / "cols.csv", tmp_path, capsys, "--input-column", "text")
    assert ok.code == 0 and ok.ok_ids == ["a"]


def test_missing_transcript_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [{"id": "a", "conversation": TRANSCRIPT, "summary": CONV_SUMMARY}]
    run = _autoeval(_jsonl(tmp_path / "conv.jsonl", rows), tmp_path, capsys)
    assert run.code == 2
    assert "no column 'transcript'" in run.err and "--transcript-column" in run.err
    assert "'conversation'" in run.err


def test_missing_id_column_flag(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"no column 'key'.*--id-column"):
        read_summary_rows(_jsonl(tmp_path / "a.jsonl", _rows()), id_column="key")


def test_null_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [*_rows(2), {"id": "n", "input": SOURCE, "summary": None}, {"id": "m", "input": SOURCE}]
    run = _evaluate(_jsonl(tmp_path / "null.jsonl", rows), tmp_path, capsys)
    assert run.code == 3
    assert run.ok_ids == ["r0", "r1"]
    null, missing = run.invalid()
    assert null["error"]["message"] == "is null" and null["error"]["field"] == "summary"
    assert missing["error"]["message"] == "is missing"
    assert "row 2, field 'summary': is null" in run.err


def test_null_transcript(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [*_conv_rows(1), {"id": "n", "transcript": None, "summary": "x"}]
    run = _autoeval(_jsonl(tmp_path / "null.jsonl", rows), tmp_path, capsys)
    assert run.code == 3
    assert run.ok_ids == ["c0"]
    assert "row 1, field 'transcript': is null" in run.err


# --- row errors: line numbers and ids --------------------------------------------------------


def test_row_errors_carry_line_and_id(tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    lines = [
        json.dumps(_rows(1)[0]),
        "",
        '{"id": "b", "input": "x"',
        json.dumps({"id": "c", "input": SOURCE, "summary": ""}),
    ]
    path.write_text("\n".join(lines) + "\n", "utf-8")
    items = list(read_summary_rows(path))
    assert isinstance(items[0], SummaryData)
    broken, empty = items[1], items[2]
    assert (
        isinstance(broken, DataError) and broken.line == 3 and "line 3: invalid JSON" in str(broken)
    )
    assert isinstance(empty, DataError)
    assert (empty.item, empty.line, empty.id, empty.field) == (2, 4, "c", "summary")
    assert str(empty) == "row 2, field 'summary': is empty"  # the message format is kept
    assert empty.located == "row 2, field 'summary': is empty (line 4, id 'c')"


def test_csv_record_lines(tmp_path: Path) -> None:
    path = tmp_path / "multi.csv"
    path.write_text('id,input,summary\na,"line one\nline two",ok summary\n\nb,src,\n', "utf-8")
    items = list(read_summary_rows(path))
    assert isinstance(items[0], SummaryData) and items[0].input == "line one\nline two"
    bad = items[1]
    assert isinstance(bad, DataError)
    assert (bad.line, bad.id, bad.reason) == (5, "b", "is empty")  # header = line 1


def test_conversation_row_error_line_and_id(tmp_path: Path) -> None:
    rows = [*_conv_rows(1), {"id": "z", "transcript": [{"role": "agent"}], "summary": "x"}]
    items = list(read_conversation_rows(_jsonl(tmp_path / "c.jsonl", rows)))
    bad = items[1]
    assert isinstance(bad, DataError) and (bad.line, bad.id) == (2, "z")
    assert bad.field == "transcript[1].text"


def test_row_error_record_has_line_and_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [*_rows(1), {"id": "n", "input": SOURCE, "summary": None}]
    run = _evaluate(_jsonl(tmp_path / "null.jsonl", rows), tmp_path, capsys)
    [bad] = run.invalid()
    assert bad.get("id") == "n"
    assert "line 2" in run.err


def test_duplicate_ids_warned_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [*_rows(2), *_rows(2), {"id": "r0", "input": SOURCE, "summary": SUMMARY}]
    path = _jsonl(tmp_path / "dups.jsonl", rows)
    got: list[str] = []
    items = list(read_summary_rows(path, on_warning=got.append))
    assert len(items) == 5
    assert got == [f"{path}: 3 rows repeat an id seen before (first: 'r0')"]
    with pytest.warns(DataWarning, match="3 rows repeat an id"):
        list(read_summary_rows(path))
    run = _evaluate(path, tmp_path, capsys)  # the CLI prints the warning as one line
    assert run.code == 0 and len(run.records) == 5
    assert run.err.count("sumjudge: warning: ") == 1 and "3 rows repeat an id" in run.err


def test_duplicate_conversation_ids(tmp_path: Path) -> None:
    got: list[str] = []
    path = _jsonl(tmp_path / "c.jsonl", [*_conv_rows(2), *_conv_rows(1)])
    list(read_conversation_rows(path, on_warning=got.append))
    assert got == [f"{path}: 1 row repeats an id seen before (first: 'c0')"]


# --- transcripts -----------------------------------------------------------------------------


def test_vtt_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], requests: list[JudgeRequest]
) -> None:
    rows = [{"id": "v", "input": VTT, "summary": SUMMARY}, *_rows(1)]
    run = _evaluate(_jsonl(tmp_path / "vtt.jsonl", rows), tmp_path, capsys)
    assert run.code == 0, run.err
    assert run.ok_ids == ["r0", "v"]
    text = _texts(requests)
    assert VTT_TEXT in text
    assert "-->" not in text and "WEBVTT" not in text and "<v" not in text


def test_srt_transcript(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [{"id": "s", "transcript": SRT, "summary": CONV_SUMMARY}, *_conv_rows(1)]
    run = _autoeval(_jsonl(tmp_path / "srt.jsonl", rows), tmp_path, capsys)
    assert run.code == 0, run.err
    assert run.ok_ids == ["c0", "s"]
    item = ConversationItem(transcript=SRT, summary="x")
    assert [(t.role, t.text) for t in item.turns] == [
        ("Agent", "Thanks for calling, how can I help?"),
        ("Customer", "My router keeps dropping the connection since Monday."),
        ("Agent", "I have reset the line and sent a replacement router, arriving Friday."),
    ]
    plain = ConversationItem(transcript=TRANSCRIPT, summary="x")
    assert item.turns == plain.turns  # one normalised form


def test_json_turns_transcript_and_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [
        {"id": "list", "transcript": JSON_TURNS, "summary": CONV_SUMMARY},
        {"id": "text", "transcript": json.dumps(JSON_TURNS), "summary": CONV_SUMMARY},
    ]
    run = _autoeval(_jsonl(tmp_path / "turns.jsonl", rows), tmp_path, capsys)
    assert run.code == 0, run.err
    assert run.ok_ids == ["list", "text"]
    items = list(read_conversation_rows(tmp_path / "turns.jsonl"))
    plain = ConversationItem(transcript=TRANSCRIPT, summary="x").turns
    assert all(i.turns == plain for i in items)  # type: ignore[union-attr]
    src = [{"id": "j", "input": JSON_TURNS, "summary": SUMMARY}]
    [item] = list(read_summary_rows(_jsonl(tmp_path / "src.jsonl", src)))
    assert isinstance(item, SummaryData) and item.input == TRANSCRIPT


def test_speaker_lines_with_timestamps_stay(tmp_path: Path) -> None:
    text = "[00:00:01] Rina: We ship Friday.\n00:00:05 Tom: Agreed.\nRina: Thanks."
    assert detect_format(text) == "lines"
    assert normalize_source(text) is text  # the source reaches the judge as written
    turns = parse_transcript(text)
    assert turns is not None and [t.timestamp for t in turns] == ["00:00:01", "00:00:05", None]
    conv = ConversationItem(transcript=text, summary="x")
    assert [(t.role, t.timestamp) for t in conv.turns][:2] == [
        ("Rina", "00:00:01"),
        ("Tom", "00:00:05"),
    ]


def test_input_file_reader(tmp_path: Path) -> None:
    vtt = tmp_path / "meeting.vtt"
    vtt.write_bytes(b"\xef\xbb\xbf" + VTT.replace("\n", "\r\n").encode("utf-8"))
    assert read_source_file(vtt) == VTT_TEXT
    srt = tmp_path / "call.srt"
    srt.write_text(SRT, "utf-8")
    assert read_source_file(srt) == TRANSCRIPT
    turns = tmp_path / "turns.json"
    turns.write_text(json.dumps(JSON_TURNS), "utf-8")
    assert read_source_file(turns) == TRANSCRIPT
    prose = tmp_path / "notes.txt"
    prose.write_bytes("Caf\u00e9 notes.\n".encode("latin-1"))
    with pytest.raises(DataError, match=r"line 1: not valid UTF-8.*--encoding"):
        read_source_file(prose)
    assert read_source_file(prose, encoding="latin-1") == "Caf\u00e9 notes.\n"


def test_vtt_subtitles_without_speakers() -> None:
    vtt = (
        "WEBVTT\n\n00:01.000 --> 00:02.000\nthe launch moves\n\n"
        "00:02.000 --> 00:03.000\nto Friday.\n\n00:03.000 --> 00:04.000\nQA agreed.\n"
    )
    assert normalize_source(vtt) == "the launch moves to Friday.\nQA agreed."


# --- control characters and markdown ---------------------------------------------------------


def test_control_characters_removed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], requests: list[JudgeRequest]
) -> None:
    dirty = "\x1b[31mThe launch\x1b[0m moves to Friday.\x07\x00 \x1b]0;pwned\x07Tom fixes login."
    rows = [{"id": "ctl\x1b[2J", "input": SOURCE + "\x00\x08", "summary": dirty}, *_rows(1)]
    run = _evaluate(_jsonl(tmp_path / "ctl.jsonl", rows), tmp_path, capsys)
    assert run.code == 0, run.err
    assert run.ok_ids == ["ctl", "r0"]
    text = _texts(requests) + json.dumps(run.records) + run.err
    for bad in ("\x1b", "\x07", "\x00", "\x08", "pwned"):
        assert bad not in text
    assert "The launch moves to Friday. Tom fixes login." in _texts(requests)


def test_control_characters_in_transcript() -> None:
    item = ConversationItem(
        transcript="Agent:\x1b[1m Hi\x1b[0m.\x07\nCustomer: Hello\x00.", summary="ok\x07"
    )
    assert [t.text for t in item.turns] == ["Hi.", "Hello."]
    assert item.summary == "ok"
    assert strip_control("tab\tand\nnewline") == "tab\tand\nnewline"


def test_markdown_summary_intact(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], requests: list[JudgeRequest]
) -> None:
    rows = [{"id": "md", "input": SOURCE, "summary": MARKDOWN}]
    path = _csv(tmp_path / "md.csv", rows)
    run = _evaluate(path, tmp_path, capsys)
    assert run.code == 0, run.err
    assert run.ok_ids == ["md"]
    assert requests and all(MARKDOWN in _texts([r]) for r in requests)
    [item] = list(read_summary_rows(path))
    assert isinstance(item, SummaryData) and item.summary == MARKDOWN
    assert normalize_source(MARKDOWN) is MARKDOWN


def test_markdown_source_is_not_a_transcript() -> None:
    for text in (MARKDOWN, "[link](https://example.com) notes", "1. first\n2. second", "[1, 2, 3]"):
        assert normalize_source(text) is text


# --- damaged Parquet files ---------------------------------------------------------------------


def _parquet(path: Path, rows: list[dict[str, Any]], group: int) -> Path:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    table = pa.Table.from_pylist(rows)
    pq.write_table(table, path, row_group_size=group, compression="NONE", use_dictionary=False)
    return path


@pytest.mark.parametrize("damage", ["not parquet", "cut short"])
def test_a_parquet_file_that_cannot_be_read_is_one_line_exit_2(
    damage: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "in.parquet"
    if damage == "not parquet":
        path.write_bytes(b"id,input,summary\nr0,some text,text\n")
    else:
        data = _parquet(path, _rows(4), 2).read_bytes()
        path.write_bytes(data[: len(data) // 2])
    run = _evaluate(path, tmp_path, capsys)
    assert run.code == 2 and run.records == []
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and f"{path} is not a readable Parquet file" in lines[0]
    assert "internal error" not in lines[0]


def test_a_damaged_parquet_row_group_loses_only_its_own_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    path = _parquet(tmp_path / "in.parquet", _rows(6), 2)
    column = pq.ParquetFile(path).metadata.row_group(1).column(1)  # the middle group's input
    data = bytearray(path.read_bytes())
    start = column.data_page_offset
    data[start : start + column.total_compressed_size] = b"\xff" * column.total_compressed_size
    path.write_bytes(bytes(data))
    run = _evaluate(path, tmp_path, capsys)
    assert run.code == 3  # some rows invalid
    assert run.ok_ids == ["r0", "r1", "r4", "r5"]
    bad = run.invalid()
    assert [r["index"] for r in bad] == [2, 3]
    assert "row group 1 of" in bad[0]["error"]["message"] and "is damaged" in run.err
