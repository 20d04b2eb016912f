"""Calibration of any judge: cut points, rule book, few-shot examples, the profile file."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from sumjudge import JudgeResponse, ScriptedJudge, SummarizationEvaluator, SummaryData, TokenLogprob
from sumjudge.align import Label
from sumjudge.align.calibrate import calibrate
from sumjudge.align.crossval import verdict
from sumjudge.align.fit import choose_examples, fit_cuts
from sumjudge.align.joined import JudgedScore, LabelledItem
from sumjudge.errors import ConfigError
from sumjudge.types.profile import CalibrationProfile, Example, MetricProfile, load_profile

JUDGE = "scripted/judge"


def record(i: int, weighted: float, judge: str = JUDGE) -> dict[str, Any]:
    score = 1 if weighted < 1.5 else 2 if weighted < 2.5 else 3
    return {
        "index": i,
        "status": "ok",
        "id": f"item-{i}",
        "summary": {
            "relevancy_rating": "good" if score == 3 else "incomplete",
            "fluency": {"score": score, "weighted_score": weighted, "explanation": "x"},
        },
        "meta": {"judge": judge, "metric_versions": {"fluency": "3"}},
    }


def harsh_people(n: int, seed: int = 0) -> tuple[list[dict[str, Any]], list[Label]]:
    """A judge that says 3 for weighted >= 2.5, and people who give 3 only above 2.8."""
    rng = random.Random(seed)
    records, labels = [], []
    for i in range(n):
        w = rng.uniform(1.0, 3.0)
        records.append(record(i, w))
        person = 1 if w < 1.6 else 2 if w < 2.8 else 3
        labels.append(
            Label(id=f"item-{i}", reviewer="ann", scores={"fluency": person}, source_id=f"s{i}")
        )
    return records, labels


def test_cut_points_learn_a_harsher_team() -> None:
    records, labels = harsh_people(120)
    result = calibrate(labels, records, n_resamples=200)
    cuts = result.profile.metrics["fluency"].cuts
    assert cuts is not None and cuts[1] > 2.6  # moved from 2.5 toward the people's 2.8
    fig = result.report["metrics"]["fluency"]
    assert fig["label_kind"] == "likert" and fig["n"] == 120
    assert result.profile.judge == JUDGE and result.profile.id.startswith("cal-")


def test_no_gain_claimed_on_noise() -> None:
    rng = random.Random(3)
    records = [record(i, rng.uniform(1, 3)) for i in range(60)]
    labels = [
        Label(
            id=f"item-{i}",
            reviewer="ann",
            scores={"fluency": rng.choice([1, 2, 3])},
            source_id=f"s{i}",
        )
        for i in range(60)
    ]
    result = calibrate(labels, records, n_resamples=300)
    for fig in result.report["metrics"]["fluency"].values():
        if isinstance(fig, dict):
            assert fig["verdict"] != "gain"


def test_verdict_needs_the_interval() -> None:
    assert verdict((0.01, 0.2)) == "gain"
    assert verdict((-0.1, 0.2)) == "no change shown"
    assert verdict((-0.3, -0.01)) == "worse"
    assert verdict(None) == "not measurable"


def test_fit_cuts_shrinks_toward_the_prior_with_few_labels() -> None:
    few = fit_cuts([2.0, 2.9], [2, 2], "likert", (1.5, 2.5))
    many = fit_cuts([2.0 + i / 100 for i in range(90)] * 3, [2] * 270, "likert", (1.5, 2.5))
    assert abs(few[1] - 2.5) < abs(many[1] - 2.5)


def test_labels_matching_nothing_name_both_files() -> None:
    records, labels = harsh_people(5)
    labels = [Label(id="other", scores={"fluency": 2})]
    with pytest.raises(ConfigError, match=r"label ids e\.g\. other; result ids e\.g\. item-0"):
        calibrate(labels, records, labels_name="l.jsonl", results_name="r.jsonl")


def test_results_of_two_judges_are_refused() -> None:
    records, labels = harsh_people(6)
    records[0] = record(0, 2.0, judge="other/judge")
    with pytest.raises(ConfigError, match="several judges"):
        calibrate(labels, records)


def item(
    i: int, person: float, judge: int, note: str = "", group: str | None = None
) -> LabelledItem:
    return LabelledItem(
        id=f"i{i}",
        group=group or f"g{i}",
        human={"fluency": person},
        rating=None,
        note=note,
        judge={"fluency": JudgedScore(judge)},
        judge_rating=None,
        source=f"src {i}",
        summary=f"sum {i}",
    )


def test_examples_cover_both_ends_from_distinct_sources() -> None:
    items = [
        item(0, 2, 2),
        item(1, 3, 3),
        item(2, 1, 3, note="garbled"),
        item(3, 1, 1),
        item(4, 3, 3, group="g1"),
    ]
    chosen = choose_examples(items, "fluency", k=3)
    bins = [b for _, b in chosen]
    assert bins[:2] == [1, 3]
    assert chosen[0][0].id == "i2"  # has a note and the judge was furthest off
    assert len({i.group for i, _ in chosen}) == len(chosen)


def profile(judge: str = JUDGE, **metric: Any) -> CalibrationProfile:
    m = MetricProfile(label_kind="likert", n_labels=10, variant="weighted_score", **metric)
    return CalibrationProfile(judge=judge, metrics={"fluency": m}).sealed()


def test_profile_round_trip_and_hand_edit_changes_identity(tmp_path: Path) -> None:
    p = profile(cuts=(1.4, 2.7))
    path = tmp_path / "p.json"
    path.write_text(p.to_json(), encoding="utf-8")
    assert load_profile(path) == p
    data = json.loads(path.read_text(encoding="utf-8"))
    data["metrics"]["fluency"]["cuts"] = [1.4, 2.9]
    path.write_text(json.dumps(data), encoding="utf-8")
    assert load_profile(path).id != p.id


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not JSON"),
        ('{"schema": "x"}', "not a calibration profile"),
        ('{"schema": "sumjudge.calibration/1"}', "field judge"),
    ],
)
def test_bad_profiles_are_one_line_config_errors(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "p.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=message):
        load_profile(path)


DATA = SummaryData(input="Rina: we ship on Friday. Budi: agreed.", summary="They ship Friday.")


def weighted_reply(score: int, p_top: float) -> JudgeResponse:
    head = '{"explanation": "Fine.", "score": '
    import math

    other = 3 if score == 2 else 2
    tokens = (
        TokenLogprob(head, 0.0, ((head, 0.0),)),
        TokenLogprob(
            str(score),
            math.log(p_top),
            ((str(score), math.log(p_top)), (str(other), math.log(1 - p_top))),
        ),
        TokenLogprob("}", 0.0, (("}", 0.0),)),
    )
    return JudgeResponse(text=head + f"{score}}}", logprobs=tokens)


async def test_cut_points_rebin_the_weighted_score_and_say_so() -> None:
    judge = ScriptedJudge({"fluency": [weighted_reply(3, 0.7)]})  # weighted = 2.7
    ev = SummarizationEvaluator(
        judge, enabled_metrics=["fluency"], calibration=profile(cuts=(1.5, 2.8))
    )
    body = (await ev.evaluate(DATA))["summary"]["fluency"]
    assert body["score"] == 2
    assert "gives 2 (the judge said 3)" in body["score_mode_note"]
    assert body["confidence"] == pytest.approx(0.3)


async def test_examples_follow_the_rubric_and_join_the_version() -> None:
    shot = Example(
        id="e1",
        score=1,
        reason="garbled </part> grammar",
        source="Budi: the invoice is late.",
        summary="Invoice late is Budi </summary>",
    )
    plain_judge = ScriptedJudge({"fluency": [weighted_reply(3, 0.9)]})
    await SummarizationEvaluator(plain_judge, enabled_metrics=["fluency"]).evaluate(DATA)
    judge = ScriptedJudge({"fluency": [weighted_reply(3, 0.9)]})
    p = profile(examples=(shot,))
    ev = SummarizationEvaluator(judge, enabled_metrics=["fluency"], calibration=p)
    out = [r async for r in ev.evaluate_batch([DATA])]
    (request,) = judge.requests
    (before,) = plain_judge.requests
    prefix, tail = request.messages[1].parts
    assert prefix == before.messages[1].parts[0]  # the cached prefix is unchanged
    assert tail.startswith(before.messages[1].parts[1])  # the rubric, then the examples
    assert "rated 1" in tail and "Invoice late is Budi" in tail
    assert "</summary>" not in tail and "</part> grammar" not in tail  # defused, not closing
    assert request.task.endswith("+" + p.id)
    assert ev.metric_versions["fluency"].endswith("+" + p.id)
    assert out[0].to_dict()["meta"]["calibration"] == p.id


def test_a_profile_for_another_judge_is_refused() -> None:
    with pytest.raises(ConfigError, match="fitted for the judge 'openai/gpt-x'"):
        SummarizationEvaluator(ScriptedJudge({}), calibration=profile(judge="openai/gpt-x"))


def test_a_profile_and_a_rule_book_are_refused_together() -> None:
    p = CalibrationProfile(
        judge=JUDGE, rule_book={"fluency": {"good_at_least": 3, "bad_at_most": 1}}
    ).sealed()
    with pytest.raises(ConfigError, match="give one of them"):
        SummarizationEvaluator(
            ScriptedJudge({}),
            enabled_metrics=["fluency"],
            rule_book={"fluency": {"good_at_least": 2}},
            calibration=p,
        )
