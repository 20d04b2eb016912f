"""The offline judge's refit on a person's labels (`sumjudge.offline.refit`)."""

from __future__ import annotations

import numpy as np
import pytest

from sumjudge.offline import OfflineScorer
from sumjudge.offline.calibration import LinearModel, load_dialogue_model, load_models
from sumjudge.offline.profile import Calibration, Example, refit_all
from sumjudge.offline.refit import (
    STRENGTH_GRID,
    choose_strength,
    features_of,
    label_kind,
    refit,
)

# A prior that weighs "good" up and "bad" down equally and ignores "off" (weight 0).
PRIOR = LinearModel(
    features=("good", "bad", "off"),
    mean=(0.0, 0.0, 0.0),
    std=(1.0, 1.0, 1.0),
    weights=(0.1, -0.1, 0.0),
    intercept=0.5,
    cuts=(0.4, 0.6),
)


def _data(n: int, seed: int = 0) -> tuple[list[dict[str, float]], np.ndarray, list[str]]:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 3))
    feats = [{"good": a, "bad": b, "off": c} for a, b, c in x]
    return feats, x, [f"doc{i // 8}" for i in range(n)]


def _auc(score: np.ndarray, y: np.ndarray) -> float:
    pos, neg = score[y == 1], score[y == 0]
    return float(np.mean(pos[:, None] > neg[None, :]) + 0.5 * np.mean(pos[:, None] == neg))


def _raw(model: LinearModel, feats: list[dict[str, float]]) -> np.ndarray:
    return np.array([model.raw(f) for f in feats])


def test_no_labels_give_the_prior() -> None:
    assert refit(PRIOR, [], [], [], "likert") is PRIOR
    assert refit(PRIOR, [], [], [], "binary") is PRIOR


def test_a_very_strong_prior_keeps_its_weights_and_cuts() -> None:
    feats, x, groups = _data(80)
    labels = np.round(1 + 4 * (x[:, 2] > 0) + 0.0, 2).tolist()  # the labels reward "off" only
    model = refit(PRIOR, feats, labels, groups, "likert", strength=1e9)
    assert model.weights == pytest.approx(PRIOR.weights, abs=1e-6)
    assert model.cuts == pytest.approx(PRIOR.cuts, abs=1e-6)
    assert model.intercept == pytest.approx(PRIOR.intercept, abs=1e-6)


def test_a_signal_the_labels_reward_gains_weight() -> None:
    feats, x, groups = _data(160)
    labels = (3 + x[:, 0] - 0.05 * x[:, 1]).tolist()  # "good" matters, "bad" hardly
    model = refit(PRIOR, feats, labels, groups, "likert", strength=10)
    good, bad, off = model.weights
    assert abs(good) > abs(PRIOR.weights[0]) and abs(good) > 2 * abs(bad)
    assert off == 0.0  # the prior's zero stays zero without a direction for it
    # the more labels, the further from the prior (same labels, weaker prior)
    weak = refit(PRIOR, feats, labels, groups, "likert", strength=0)
    strong = refit(PRIOR, feats, labels, groups, "likert", strength=1000)
    ratios = [abs(m.weights[0] / m.weights[1]) for m in (strong, model, weak)]
    assert ratios[0] < ratios[1] < ratios[2]


def test_signs_never_flip() -> None:
    for seed in range(5):
        feats, x, groups = _data(120, seed)
        # labels that reward "bad" and punish "good": the prior's opposite
        labels = (3 - x[:, 0] + x[:, 1] + 0.1 * seed * x[:, 2]).tolist()
        for strength in (0.0, 5.0, 50.0):
            for kind, y in (("likert", labels), ("binary", (np.array(labels) > 3).tolist())):
                m = refit(PRIOR, feats, [float(v) for v in y], groups, kind, strength=strength)
                assert m.weights[0] >= 0 and m.weights[1] <= 0 and m.weights[2] == 0, m.weights


def test_signs_give_a_direction_to_an_unused_signal() -> None:
    feats, x, groups = _data(160)
    labels = (3 + x[:, 2]).tolist()
    assert refit(PRIOR, feats, labels, groups, "likert", signs={"off": 1}).weights[2] > 0
    # a direction the labels contradict keeps it at 0
    assert refit(PRIOR, feats, labels, groups, "likert", signs={"off": -1}).weights[2] == 0


def test_binary_labels_improve_the_ranking_and_balance_the_upper_cut() -> None:
    feats, x, groups = _data(200, seed=3)
    y = (x[:, 0] - 2 * x[:, 1] + 0.3 * np.random.default_rng(1).normal(size=200) > 0.8) * 1.0
    model = refit(PRIOR, feats, y.tolist(), groups, "binary", strength=0)
    assert _auc(_raw(model, feats), y) > _auc(_raw(PRIOR, feats), y) + 0.01
    raw = _raw(model, feats)
    pred = raw >= model.cuts[1]
    balanced = (np.mean(pred[y == 1]) + np.mean(~pred[y == 0])) / 2
    assert balanced > 0.85
    # the lower cut keeps the prior's distance below the upper one
    assert model.cuts[1] - model.cuts[0] == pytest.approx(PRIOR.cuts[1] - PRIOR.cuts[0])


def test_binary_labels_must_be_0_or_1() -> None:
    feats, _, groups = _data(8)
    with pytest.raises(ValueError, match="0 or 1"):
        refit(PRIOR, feats, [0, 1, 2, 0, 1, 0, 1, 0], groups, "binary")


@pytest.mark.parametrize("scale", ["1-3", "1-5"])
def test_likert_cuts_reproduce_the_label_shares(scale: str) -> None:
    feats, x, groups = _data(200, seed=5)
    signal = x[:, 0] - x[:, 1]
    order = np.argsort(np.argsort(signal)) / len(signal)
    three = np.where(order < 0.2, 1.0, np.where(order < 0.5, 2.0, 3.0))  # 20 / 30 / 50%
    labels = three if scale == "1-3" else np.array([1.5, 3.5, 4.5])[three.astype(int) - 1]
    model = refit(PRIOR, feats, labels.tolist(), groups, "likert", strength=0)
    bins = np.array([model.bin(r) for r in _raw(model, feats)])
    shares = [float(np.mean(bins == b)) for b in (1, 2, 3)]
    assert shares == pytest.approx([0.2, 0.3, 0.5], abs=0.011)


def test_single_summaries_per_source_are_ranked_together() -> None:
    feats, x, _ = _data(100, seed=7)
    labels = np.clip(np.rint(2 + x[:, 0]), 1, 3).tolist()
    model = refit(PRIOR, feats, labels, [f"s{i}" for i in range(100)], "likert", strength=0)
    assert model.weights[0] > abs(model.weights[1])


def test_the_chosen_strength_follows_the_evidence() -> None:
    feats, x, groups = _data(240, seed=11)
    clear = (3 + x[:, 0] - 0.05 * x[:, 1]).tolist()  # "good" alone, 30 sources
    assert choose_strength(PRIOR, feats, clear, groups, "likert") < STRENGTH_GRID[-1]
    # labels with nothing to learn keep the prior's weights (but for the odd chance draw)
    noise = [np.random.default_rng(s).normal(size=240).tolist() for s in range(10)]
    kept = [choose_strength(PRIOR, feats, y, groups, "likert") == STRENGTH_GRID[-1] for y in noise]
    assert sum(kept) >= 8
    # too few sources to hold one out: the prior's weights
    assert (
        choose_strength(PRIOR, feats[:16], clear[:16], groups[:16], "likert") == (STRENGTH_GRID[-1])
    )


def test_cut_points_can_move_while_the_weights_stay() -> None:
    feats, x, groups = _data(200, seed=5)
    labels = (x[:, 0] - x[:, 1] > 1.0) * 1.0  # a quarter consistent: a higher cut than 0.6
    model = refit(PRIOR, feats, labels.tolist(), groups, "binary", strength=1e9, cut_strength=0)
    assert np.array(model.weights) == pytest.approx(np.array(PRIOR.weights), abs=1e-6)
    assert model.cuts[1] > PRIOR.cuts[1]


def test_label_kind() -> None:
    assert label_kind([0.0, 1.0, 1.0]) == "binary"
    assert label_kind([1.0, 2.0, 3.0]) == "likert"
    assert label_kind([3.67, 5.0]) == "likert"


def test_calibrated_scorer_uses_its_models_and_says_so() -> None:
    base = OfflineScorer(use_embeddings=False)
    source = (
        "Ana: I'll send the report on Friday.\nBen: Great, and I'll book the room.\n"
        "Ana: Thanks, see you then."
    )
    prose = "The council approved the budget on Tuesday. It funds two schools and a library."
    examples = []
    for k, (src, summ, dlg_label) in enumerate(
        [
            (source, "Ana will send the report on Friday.", 1.0),
            (source, "Ben will send the report on Monday.", 0.0),
            (prose, "The council approved the budget.", 3.0),
            (prose, "The council rejected 9 schools.", 1.0),
        ]
    ):
        feats, dialogue = features_of(base, src, summ)
        assert dialogue == (src == source)
        examples.append(Example(feats, dialogue, f"g{k // 2}", {"consistency": dlg_label}))
    cal = refit_all("lexical", examples, strength=1.0)
    assert set(cal.models) == {"consistency"} and cal.dialogue_model is not None
    assert cal.n_labels == {"consistency": 2, "consistency@dialogue": 2}
    assert cal.strengths == {"consistency": 1.0, "consistency@dialogue": 1.0}
    # chosen per model by default (here: too few sources, so the prior's weights)
    chosen = refit_all("lexical", examples).strengths
    assert chosen == {"consistency": STRENGTH_GRID[-1], "consistency@dialogue": STRENGTH_GRID[-1]}
    again = Calibration.from_json(cal.to_json())
    scorer, twin = cal.scorer(), again.scorer()
    assert scorer.name == base.name == "local-lexical"
    assert (
        scorer.version.startswith(f"{base.version}+cal-") and base.version == OfflineScorer.version
    )
    assert twin.version == scorer.version  # the version names the fit
    a = scorer.analyse(prose, "The council rejected 9 schools.")
    assert scorer.raw("consistency", a) == pytest.approx(cal.models["consistency"].raw(a.features))
    assert scorer.raw("coherence", a) == base.raw("coherence", a)  # not refitted: shipped


def test_refit_all_without_labels_keeps_the_shipped_models() -> None:
    cal = refit_all("lexical", [Example({}, False, "g", {})])
    assert cal.models == {} and cal.dialogue_model is None
    assert cal.scorer().version == OfflineScorer.version
    assert load_models("lexical")["coherence"].weights  # the prior is the shipped fit
    assert load_dialogue_model("lexical").features
