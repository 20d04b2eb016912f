"""The readers the subcommands share: --metrics names, the bootstrap flags, batch flags."""

from __future__ import annotations

import pytest

from sumjudge.cli._common import bootstrap_settings, metric_names
from sumjudge.cli.main import build_parser


def test_metric_names_split_on_commas_and_drop_blanks() -> None:
    assert metric_names(" coherence, ,fluency ,") == ["coherence", "fluency"]
    assert metric_names(None) is None
    assert metric_names("") is None


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["compare", "a.jsonl", "b.jsonl"], {"alpha": 0.05, "n_resamples": 2000, "seed": 0}),
        (["meta-eval", "rows.jsonl"], {"alpha": 0.05, "n_resamples": 1000, "seed": 0}),
        (
            ["compare", "a.jsonl", "b.jsonl", "--alpha", "0.1", "--n-resamples", "50"],
            {"alpha": 0.1, "n_resamples": 50, "seed": 0},
        ),
        (
            ["gate", "r.jsonl", "--seed", "7"],
            {"alpha": None, "n_resamples": None, "seed": 7},
        ),
    ],
)
def test_bootstrap_settings_read_the_flags_each_command_parsed(
    argv: list[str], expected: dict[str, object]
) -> None:
    assert bootstrap_settings(build_parser().parse_args(argv)) == expected


def test_meta_eval_has_the_batch_flags_but_always_waits() -> None:
    args = build_parser().parse_args(
        ["meta-eval", "rows.jsonl", "--batch-api", "--batch-poll", "2"]
    )
    assert (args.batch_api, args.batch_poll) == (True, 2.0)
    assert not hasattr(args, "no_wait")
    with pytest.raises(SystemExit):
        build_parser().parse_args(["meta-eval", "rows.jsonl", "--batch-api", "--no-wait"])
