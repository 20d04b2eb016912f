"""Accuracy: decompose the summary into atomic points and check each against the transcript.

One judge call per summary does both steps, for all sections at once. Each point carries
the turn numbers and a short quote the judge relied on; the quote is verified against the
transcript, and an unverifiable quote or a non-existent turn is flagged on the point
rather than trusted. Score per section and overall: accurate points / points, as a
percentage.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..errors import ParseError
from ..plan import Call, Judged, MetricPlan
from ..protocol import JudgeRequest, JudgeResponse, TurnsSubject
from ..types import AccuracyPoint, MetricOutcome, SectionOutcome, Turn
from ._conversation import ConversationContext, build_request, restrict
from ._read import as_bool, as_str, reply_object, turn_numbers
from .transcript import verify_quote

__all__ = [
    "CATEGORICAL_PART",
    "NAME",
    "SCHEMA",
    "TASK",
    "VERSION",
    "accuracy_request",
    "plan",
    "read_points",
    "score_points",
]

NAME = "accuracy"
VERSION = "2"
TASK = f"{NAME}@{VERSION}"
CATEGORICAL_PART = f"{TASK}/categorical"
"""Checking a categorical section's value (a judge may decline it, with its reason)."""
EMPTY = "N/A: every section is empty"

QUOTE_NOT_FOUND = "quote not found in the transcript"
UNKNOWN_SECTION = "the summary has no section of this name"
_SECTION_PATH = ("properties", "decomposition", "items", "properties", "section")
NO_POINTS = "no checkable points were found in this section; not scored"

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "decomposition": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "section": {"type": "string", "description": "The section the point is from."},
                    "point": {"type": "string", "description": "One atomic, checkable claim."},
                    "turns": {
                        "type": "array",
                        "items": {"type": "integer"},
                        "description": "Numbers of the transcript turns that bear on the point.",
                    },
                    "quote": {
                        "type": "string",
                        "description": "A short exact quote from the transcript that supports "
                        "or contradicts the point; empty if the transcript says nothing.",
                    },
                    "accuracy": {
                        "type": "string",
                        "description": "Justification: why the point is accurate or not.",
                    },
                    "is_accurate": {"type": "boolean"},
                },
                "required": ["section", "point", "turns", "quote", "accuracy", "is_accurate"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["decomposition"],
    "additionalProperties": False,
}

_INSTRUCTIONS = (
    "Task: check the summary's ACCURACY against the transcript.\n\n"
    "1. Split every section of the summary into atomic points: each point states one fact "
    "(who did or said what, an amount, a date, a name, a product, a decision, an outcome, "
    "a sentiment or status). Rewrite each point as a short standalone sentence. Cover every "
    "fact in the summary, and do not add points the summary does not make.\n"
    "2. For each point, find the transcript turns that support or contradict it. Check "
    "numbers, amounts, dates, names, speakers and negations exactly.\n"
    "3. Give the turn numbers and a short exact quote (a few words, copied verbatim from "
    "one turn) that supports or contradicts the point. If the transcript says nothing "
    "about it, give no turns and an empty quote.\n"
    '4. Write the justification in `accuracy`, starting with "This is accurate." or '
    '"This is inaccurate.", then decide `is_accurate`. A point the transcript does not '
    "support is inaccurate.\n\n"
    "Sections to decompose, by name: {sections}.\n\n"
    'Reply with exactly: {{"decomposition": [{{"section": "<section name>", "point": "...", '
    '"turns": [<numbers>], "quote": "...", "accuracy": "...", "is_accurate": true|false}}]}}'
)


def accuracy_request(
    prefix: str,
    section_names: Sequence[str],
    *,
    language: str | None,
    max_tokens: int,
    subject: TurnsSubject | None = None,
    render_prompt: bool = True,
) -> JudgeRequest:
    """The decompose-and-check request for one summary (all sections in one call)."""
    names = ", ".join(f'"{n}"' for n in section_names)
    return build_request(
        kind="accuracy",
        subject=subject,
        render_prompt=render_prompt,
        task=TASK,
        prefix=prefix,
        instructions=_INSTRUCTIONS.format(sections=names),
        schema=restrict(SCHEMA, _SECTION_PATH, section_names),
        schema_name="accuracy_decomposition",
        language=language,
        max_tokens=max_tokens,
    )


def _section_of(raw: Any, names: Sequence[str]) -> tuple[str, bool]:
    """The real section name the judge's label means, and whether it matched one.

    Labels match case-insensitively; a single-section summary needs no label.
    """
    label = raw.strip().strip("#").strip() if isinstance(raw, str) else ""
    for name in names:
        if label.casefold() == name.casefold():
            return name, True
    if len(names) == 1:
        return names[0], True
    return label or "unknown", False


def read_points(
    response: JudgeResponse, turns: Sequence[Turn], section_names: Sequence[str]
) -> tuple[AccuracyPoint, ...]:
    """The decomposition in the reply, with each quote verified and bad turns flagged."""
    data = reply_object(response)
    items = data.get("decomposition")
    if not isinstance(items, list):
        raise ParseError("the reply has no 'decomposition' list", raw=response.text)
    points: list[AccuracyPoint] = []
    for i, item in enumerate(items, 1):
        try:
            if not isinstance(item, dict):
                raise ParseError("is not an object")
            quote = as_str(item.get("quote", ""), "quote", allow_empty=True)
            cited = turn_numbers(item.get("turns"))
            verified = verify_quote(quote, turns)
            flags: list[str] = []
            if verified is False:
                flags.append(QUOTE_NOT_FOUND)
            bad = [n for n in cited if not 1 <= n <= len(turns)]
            if bad:
                flags.append(f"turn number(s) {bad} do not exist (1-{len(turns)})")
            section, known = _section_of(item.get("section"), section_names)
            if not known:
                flags.append(UNKNOWN_SECTION)
            points.append(
                AccuracyPoint(
                    point=as_str(item.get("point"), "point"),
                    accuracy=as_str(item.get("accuracy"), "accuracy"),
                    is_accurate=as_bool(item.get("is_accurate"), "is_accurate"),
                    section=section,
                    turns=tuple(n for n in cited if 1 <= n <= len(turns)),
                    quote=quote,
                    quote_verified=verified,
                    flags=tuple(flags),
                )
            )
        except ParseError as exc:
            raise ParseError(f"decomposition item {i}: {exc}", raw=response.text) from None
    return tuple(points)


def score_points(
    points: Sequence[AccuracyPoint], section_names: Sequence[str]
) -> dict[str, SectionOutcome]:
    """Accurate points / points per section (sections the judge invented are kept)."""
    names: list[str] = list(section_names)
    names += [p.section for p in points if p.section not in names]
    grouped: Mapping[str, list[AccuracyPoint]] = {n: [] for n in dict.fromkeys(names)}
    for p in points:
        grouped[p.section].append(p)
    return {
        name: SectionOutcome(
            section=name,
            numerator=sum(1 for p in ps if p.is_accurate),
            denominator=len(ps),
            note=None if ps else NO_POINTS,
        )
        for name, ps in grouped.items()
    }


def plan(ctx: ConversationContext) -> MetricPlan[MetricOutcome]:
    """One request decomposing and checking every non-empty section.

    Sections whose check the judge declines (`CATEGORICAL_PART`) are N/A with its reason.
    """
    declined = ctx.capabilities.declines(CATEGORICAL_PART)
    na = {
        p.name: declined
        for p in ctx.sections
        if declined and p.definition is not None and p.definition.categorical
    }
    names = [p.name for p in ctx.sections if p.text.strip() and p.name not in na]
    version, mode = ctx.version(VERSION), ctx.capabilities.mode

    def outcome(points: Sequence[AccuracyPoint]) -> MetricOutcome:
        sections = score_points(points, names) if names else {}
        sections.update({n: SectionOutcome(n, reason=r) for n, r in na.items()})
        order = [p.name for p in ctx.sections if p.name in sections]
        order += [n for n in sections if n not in order]
        return MetricOutcome(
            NAME,
            version,
            sections={n: sections[n] for n in order},
            decomposition=tuple(points),
            mode=mode,
        )

    if not names:

        def decided(_: Sequence[Judged[Any]]) -> dict[str, MetricOutcome]:
            if na:
                return {NAME: outcome(())}
            return {NAME: MetricOutcome(NAME, version, reason=EMPTY, mode=mode)}

        return MetricPlan(NAME, (), decided)
    texts = {p.name: p.text for p in ctx.sections if p.name in names}
    reads = ctx.capabilities.reads_prompt
    request = accuracy_request(
        ctx.prefix if reads else "",  # the prefix is rendered on first use: not for it
        names,
        language=ctx.language,
        max_tokens=ctx.max_tokens,
        subject=TurnsSubject(tuple(t.text for t in ctx.turns), texts, ctx.language),
        render_prompt=reads,
    )

    def read(response: JudgeResponse) -> tuple[AccuracyPoint, ...]:
        return read_points(response, ctx.turns, names)

    def finish(judged: Sequence[Judged[Any]]) -> dict[str, MetricOutcome]:
        j = judged[0]
        if j.value is None:
            return {
                NAME: MetricOutcome(
                    NAME,
                    version,
                    error=j.error,
                    raw_reply=j.raw_reply,
                    usage=j.usage,
                    calls=j.calls,
                    mode=mode,
                )
            }
        done = outcome(j.value)
        return {NAME: replace(done, usage=j.usage, calls=j.calls)}

    return MetricPlan(NAME, (Call(request, read),), finish)
