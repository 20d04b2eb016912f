from __future__ import annotations

import json
from pathlib import Path

import pytest

from sumjudge.align import Label, LabelLog, latest, read_labels
from sumjudge.errors import DataError


def test_append_only_and_latest_wins(tmp_path: Path) -> None:
    log = LabelLog(tmp_path / "labels.jsonl")
    log.append(Label(id="a", reviewer="ann", scores={"coherence": 2}, note="first"))
    before = (tmp_path / "labels.jsonl").read_bytes()
    log.append(Label(id="a", reviewer="ann", scores={"coherence": 3}, rating="good"))
    log.append(
        Label(id="a", reviewer="bob", agree={"coherence": True}, judge={"scores": {"coherence": 1}})
    )
    after = (tmp_path / "labels.jsonl").read_bytes()
    assert after.startswith(before)  # never rewritten in place
    labels = log.read()
    assert len(labels) == 3
    last = latest(labels)
    assert last[("a", "ann")].scores == {"coherence": 3.0}
    assert last[("a", "ann")].rating == "good"
    assert last[("a", "bob")].value("coherence") == 1.0  # agreed with the judge's 1


def test_cut_last_line_is_skipped_and_next_append_starts_a_new_line(tmp_path: Path) -> None:
    path = tmp_path / "labels.jsonl"
    log = LabelLog(path)
    log.append(Label(id="a", reviewer="ann", scores={"fluency": 2}))
    with open(path, "a", encoding="utf-8") as handle:
        handle.write('{"schema": "sumjudge.label/1", "id": "b", "sco')  # a crash mid-line
    with pytest.warns(UserWarning, match="line 2 is incomplete"):
        assert [x.id for x in read_labels(path)] == ["a"]
    log.append(Label(id="c", reviewer="ann", scores={"fluency": 1}))
    with pytest.warns(UserWarning, match="line 2 is incomplete"):  # no longer the last
        assert [x.id for x in read_labels(path)] == ["a", "c"]


def test_another_broken_line_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "labels.jsonl"
    path.write_text('{"id": "a", "human": {}\n{"id": "b", "human": {}}\n', encoding="utf-8")
    with pytest.raises(DataError, match="line 1 is not valid JSON"):
        read_labels(path)


def test_labels_read_back_write_back(tmp_path: Path) -> None:
    log = LabelLog(tmp_path / "labels.jsonl")
    log.append(Label(id="a", reviewer="ann", scores={"coherence": 2}))
    (again,) = log.read()
    log.append(again)  # scores read back as floats are written as integers
    assert [x.scores for x in log.read()] == [{"coherence": 2.0}] * 2


def test_meta_eval_rows_are_labels(tmp_path: Path) -> None:
    path = tmp_path / "dev.jsonl"
    row = {
        "id": "x",
        "source": "S",
        "summary": "T",
        "source_id": "d1",
        "dataset": "summeval",
        "human": {"coherence": 3.67, "consistency": None},
    }
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    (label,) = read_labels(path)
    assert label.scores == {"coherence": 3.67}
    assert (label.source, label.summary, label.source_id) == ("S", "T", "d1")


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ({"schema": "sumjudge.label/1", "scores": {}}, "line 1, field 'id': has no id"),
        (
            {"schema": "sumjudge.label/1", "id": "a", "scores": {"coherence": 4}},
            "field 'scores': score of 'coherence' must be 1-3",
        ),
        ({"schema": "sumjudge.label/1", "id": "a", "rating": "fine"}, "field 'rating'"),
        ({"id": "a", "summary": "s"}, "neither a review label"),
    ],
)
def test_bad_rows_name_file_line_and_field(tmp_path: Path, row: dict, message: str) -> None:
    path = tmp_path / "l.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=message) as info:
        read_labels(path)
    assert str(path) in str(info.value)
