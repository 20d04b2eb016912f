"""Judge panels: several judges rate every enabled metric of every item; one aggregate each.

Each member is a judge with its own `JudgeCaller` (so its own response-cache identity,
retries and spend counters), its own rate limiter in a batch and its own price: its cost
line is its own. An item's plan is built once and executed by every member; the item's
ledger counts every member's calls. Per metric, the members that judged are aggregated
(`median`, `mean`, `majority` or `min`, rounded half up to an integer score); a member
that failed is listed with its error and leaves the others' aggregate.
"""

from __future__ import annotations

import asyncio
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..accounting import CallStats
from ..cost import CostEstimate, ModelTable, Price
from ..errors import ConfigError
from ..judges._registry import get_judge
from ..metrics.sampling import majority_score, pooled_logprobs, round_half_up
from ..protocol import Judge, Usage
from ..ratelimit import RateLimiter
from ..runner import JudgeCaller, RetryPolicy
from ..types import MetricResult
from .execute import ItemRun, Stages

__all__ = [
    "AGGREGATES",
    "PanelMember",
    "aggregate_metric",
    "all_refused",
    "all_unreachable",
    "build_members",
    "halted",
    "member_limiters",
    "panel_costs",
    "panel_estimate",
    "panel_execute",
    "panel_identity",
    "stats_delta",
    "total_stats",
]

AGGREGATES = ("median", "mean", "majority", "min")


@dataclass
class PanelMember:
    """One judge of a panel, with everything it keeps to itself."""

    name: str
    judge: Judge
    caller: JudgeCaller
    price: Price | None


def build_members(
    models: Sequence[str | Judge],
    *,
    credentials: str | None,
    base_url: str | None,
    timeout: float,
    retry_policy: RetryPolicy | None,
    cache: Any,
    table: ModelTable,
    price: Price | None,
) -> list[PanelMember]:
    """One member per model (a single judge is a panel of one).

    In a panel of several, the same model twice is refused (it would judge once), and so
    is a judge that is not an LLM.
    """
    if not models:
        raise ConfigError("model: name at least one judge")
    members: list[PanelMember] = []
    for model in models:
        judge = get_judge(model, api_key=credentials, base_url=base_url, timeout=timeout)
        if len(models) > 1 and any(m.name == judge.name for m in members):
            raise ConfigError(f"the panel names {judge.name} twice: give each member once")
        if len(models) > 1 and judge.capabilities.mode != "judge":
            raise ConfigError(
                f"a panel member must be an LLM judge; {judge.name} is the "
                f"{judge.capabilities.mode} judge"
            )
        member_price = price or table.price(judge.name)
        caller = JudgeCaller(
            judge,
            retry_policy,
            cache=cache if judge.capabilities.cacheable else None,
            price=member_price,
        )
        members.append(PanelMember(judge.name, judge, caller, member_price))
    return members


def panel_identity(
    members: Sequence[PanelMember], table: ModelTable
) -> tuple[str, Price | None, int | None]:
    """The panel's name, its price (the members' when they share one) and smallest window.

    A panel of one is its judge: its name, price and window.
    """
    if len(members) == 1:
        return members[0].name, members[0].price, table.context_window(members[0].name)
    name = "panel(" + ", ".join(m.name for m in members) + ")"
    prices = {m.price for m in members}
    price = members[0].price if len(prices) == 1 else None
    windows = [w for w in (table.context_window(m.name) for m in members) if w is not None]
    return name, price, min(windows) if windows else None


def panel_estimate(members: Sequence[PanelMember], estimate: CostEstimate) -> None:
    """Correct a dry run that counted every member's requests item by item."""
    estimate.items //= len(members)
    if estimate.price is None or len({m.price for m in members}) > 1:
        estimate.price = None
        estimate.notes.append(
            "a judge panel without one shared price: no cost estimate; the requests and "
            "tokens count every member (give --price to price them alike)"
        )


def all_refused(callers: Sequence[JudgeCaller]) -> str | None:
    """Why the key was refused, once every caller's was (one member alone does not stop)."""
    refusals = [c.refused for c in callers]
    if any(r is None for r in refusals):
        return None
    return "; ".join(str(r) for r in refusals)


def all_unreachable(callers: Sequence[JudgeCaller]) -> str | None:
    """Why the judge's server is taken for absent, once every caller's is."""
    reasons = [c.unreachable for c in callers]
    if any(r is None for r in reasons):
        return None
    return "; ".join(str(r) for r in reasons)


def halted(callers: Sequence[JudgeCaller]) -> str | None:
    """Why no caller sends anything more (a refused key, a server not there), once so."""
    refused = all_refused(callers)
    if refused is not None:  # every later call would be refused too
        return f"the judge refused the API key: {refused}"
    unreachable = all_unreachable(callers)
    if unreachable is not None:  # every later call would fail to connect too
        return f"the judge's server cannot be reached: {unreachable}"
    return None


def total_stats(callers: Sequence[JudgeCaller]) -> CallStats:
    """Every caller's counters summed."""
    total = CallStats()
    for c in callers:
        s = c.stats
        total.calls += s.calls
        total.attempts += s.attempts
        total.cache_hits += s.cache_hits
        total.usage = total.usage + s.usage
        total.cost_usd += s.cost_usd
        total.retries += s.retries
        total.failures += s.failures
    return total


def member_limiters(
    members: Sequence[PanelMember], rpm: float | None, tpm: float | None
) -> dict[str, RateLimiter] | None:
    """One rate limiter per member (each keeps its own limits), or None without limits."""
    if not members or not (rpm or tpm):
        return None
    return {m.name: RateLimiter(rpm, tpm) for m in members}


def panel_costs(
    members: Sequence[PanelMember], befores: Mapping[str, CallStats]
) -> dict[str, dict[str, Any]] | None:
    """Each member's cost line for the run so far; None without a panel."""
    if not members:
        return None
    return {m.name: stats_delta(m.caller.stats, befores[m.name]) for m in members}


def stats_delta(now: CallStats, before: CallStats) -> dict[str, Any]:
    """A member's cost line for a run: its calls, cache hits, tokens and spend since `before`."""
    u, b = now.usage, before.usage
    return {
        "judge_calls": now.attempts - before.attempts,
        "cache_hits": now.cache_hits - before.cache_hits,
        "prompt_tokens": u.prompt_tokens - b.prompt_tokens,
        "cached_prompt_tokens": u.cached_prompt_tokens - b.cached_prompt_tokens,
        "completion_tokens": u.completion_tokens - b.completion_tokens,
        "cost_usd": round(now.cost_usd - before.cost_usd, 8),
    }


async def panel_execute(
    members: Sequence[PanelMember], stages: Stages, run: ItemRun, metrics: Sequence[str], how: str
) -> dict[str, MetricResult]:
    """Every member executes the item's plan; each metric's results are aggregated."""

    async def one(member: PanelMember) -> dict[str, Any] | BaseException:
        try:  # the member's caller and context: its own limiter, the item's one ledger
            return await run.members[member.name].execute(stages)
        except Exception as exc:  # one member's failure must not sink the others
            return exc

    outcomes = await asyncio.gather(*(one(m) for m in members))
    out: dict[str, MetricResult] = {}
    for name in metrics:
        verdicts: list[tuple[str, MetricResult | str]] = []
        for member, outcome in zip(members, outcomes, strict=True):
            if isinstance(outcome, BaseException):
                verdicts.append((member.name, f"{type(outcome).__name__}: {outcome}"))
            else:
                verdicts.append((member.name, outcome[name]))
        out[name] = aggregate_metric(name, verdicts, how)
    return out


def _aggregate(scores: Sequence[int], how: str) -> int:
    if how == "median":
        return round_half_up(statistics.median(scores))
    if how == "mean":
        return round_half_up(statistics.fmean(scores))
    if how == "majority":
        return majority_score(scores)
    return min(scores)


def aggregate_metric(
    name: str, verdicts: Sequence[tuple[str, MetricResult | str]], how: str
) -> MetricResult:
    """One metric's panel result from each member's result (or its item-level error)."""
    panel: list[dict[str, Any]] = []
    judged: list[MetricResult] = []
    errors: list[str] = []
    usage, calls, version = Usage(), 0, ""
    for judge, verdict in verdicts:
        if isinstance(verdict, str):
            panel.append({"judge": judge, "score": None, "error": verdict})
            errors.append(f"{judge}: {verdict}")
            continue
        usage, calls, version = usage + verdict.usage, calls + verdict.calls, verdict.version
        entry: dict[str, Any] = {
            "judge": judge,
            "score": verdict.score,
            "explanation": verdict.explanation,
            "weighted_score": verdict.weighted_score,
        }
        if verdict.samples:  # the member's own repeated judgments
            entry.update(samples=list(verdict.samples), spread=verdict.spread)
        if verdict.ok:
            judged.append(verdict)
        else:
            entry["error"] = verdict.error
            errors.append(f"{judge}: {verdict.error}")
        panel.append(entry)
    if not judged:
        return MetricResult(
            name=name,
            version=version or "?",
            error="every panel member failed: " + "; ".join(errors),
            usage=usage,
            calls=calls,
            panel=tuple(panel),
            judges=0,
        )
    scores = [r.score for r in judged if r.score is not None]
    score = _aggregate(scores, how)
    chosen = next((r for r in judged if r.score == score), judged[0])
    note = f"panel {how} of {len(judged)} of {len(verdicts)} judges"
    if errors:
        note += "; failed: " + "; ".join(errors)
    return replace(
        chosen,
        score=score,
        **pooled_logprobs(judged, score, no_logprobs_note="a panel member had no logprobs"),
        score_mode_note=note,
        usage=usage,
        calls=calls,
        samples=(),
        mean=None,
        spread=None,
        panel=tuple(panel),
        judges=len(judged),
    )
