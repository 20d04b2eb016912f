"""Reports written through `jsonfields.report_dict` give the JSON their literal dicts gave.

Each converted `to_dict` is compared, byte for byte after `json.dumps` (so key order
counts), with the literal dict it replaced, on an instance with every field filled.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sumjudge.batch.options import BatchReport
from sumjudge.cost import ASSUMED_COMPLETION_TOKENS, CHARS_PER_TOKEN, CostEstimate, Price
from sumjudge.jsonfields import NOT_IN_JSON, json_key, report_dict


def _old_batch_report(r: BatchReport) -> dict[str, Any]:
    return {
        "job": r.job_id,
        "rounds": r.rounds,
        "batches": r.batches,
        "requests_submitted": r.submitted,
        "replies_collected": r.collected,
        "waiting": r.waiting,
        "waited_s": round(r.waited_s, 3),
        "passes_s": round(r.passes_s, 3),
        "cost_usd": round(r.cost_usd, 6),
        "stopped": r.stopped,
    }


def _old_cost_estimate(e: CostEstimate) -> dict[str, Any]:
    return {
        "items": e.items,
        "invalid_items": e.invalid_items,
        "requests": e.requests,
        "answered_from_response_cache": e.cached_in_response_cache,
        "estimated_prompt_tokens": e.prompt_tokens,
        "estimated_cacheable_prompt_tokens": e.cacheable_prompt_tokens,
        "assumed_completion_tokens": e.completion_tokens,
        "estimated_cost_usd": e.cost(prompt_caching=False),
        "estimated_cost_usd_with_prompt_caching": e.cost(prompt_caching=True),
        "method": f"~{CHARS_PER_TOKEN:g} characters per token (+-25%); "
        f"{ASSUMED_COMPLETION_TOKENS} completion tokens per call assumed; "
        "retries and repair re-asks not included",
        **({"notes": list(e.notes)} if e.notes else {}),
    }


def _same_json(new: dict[str, Any], old: dict[str, Any]) -> None:
    assert json.dumps(new) == json.dumps(old)


def test_batch_report_json_is_unchanged() -> None:
    report = BatchReport(
        job_id="job-1a2b",
        rounds=2,
        batches=3,
        submitted=41,
        collected=40,
        waiting=True,
        waited_s=12.345678,
        passes_s=0.0004449,
        cost_usd=0.123456789,
        stopped="max cost reached",
        per_batch=[{"id": "b1", "requests": 20}],
    )
    _same_json(report.to_dict(), _old_batch_report(report))
    _same_json(BatchReport().to_dict(), _old_batch_report(BatchReport()))


def test_cost_estimate_json_is_unchanged() -> None:
    for price, notes in ((Price(1.0, 4.0, 0.1), ["chunked: 2 long sources"]), (None, [])):
        est = CostEstimate(
            price=price,
            items=5,
            requests=21,
            cached_in_response_cache=3,
            prompt_tokens=12_345,
            cacheable_prompt_tokens=4_000,
            completion_tokens=2_222,
            invalid_items=1,
            notes=notes,
        )
        _same_json(est.to_dict(), _old_cost_estimate(est))


@dataclass
class _Report:
    plain: int = 1
    renamed: str = field(default="x", metadata=json_key("shown_as"))
    seconds: float = field(default=1.23456, metadata=json_key(digits=2))
    both: float = field(default=0.987654, metadata=json_key("usd", digits=3))
    hidden: list[int] = field(default_factory=lambda: [1], metadata=NOT_IN_JSON)
    last: None = None


def test_report_dict_keys_order_rounding_and_left_out_fields() -> None:
    out = report_dict(_Report())
    assert list(out) == ["plain", "shown_as", "seconds", "usd", "last"]
    assert out == {"plain": 1, "shown_as": "x", "seconds": 1.23, "usd": 0.988, "last": None}
