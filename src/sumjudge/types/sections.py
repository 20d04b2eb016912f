"""Matching a summary's sections to their definitions, and the N/A rules per metric."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .conversation import FREE_TEXT_SECTION, ConversationItem, SectionDefinition

__all__ = [
    "NO_DEFINITION",
    "NO_DEFINITIONS",
    "SectionPlan",
    "plan_sections",
]

NO_DEFINITION = "N/A: no section definition has this section's name"
NO_DEFINITIONS = "N/A: no section definitions were given"


@dataclass(frozen=True)
class SectionPlan:
    """One section to judge: its name, its text ("" when missing) and its definition."""

    name: str
    text: str
    definition: SectionDefinition | None
    missing: bool = False


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


def plan_sections(
    item: ConversationItem, definitions: Sequence[SectionDefinition]
) -> list[SectionPlan]:
    """The item's sections paired with their definitions.

    Names match case-insensitively. A free-text summary is one section named "summary",
    judged against the definition of that name or, when exactly one definition is given,
    against that one. A defined section absent from a sectioned summary is included with
    empty text (`missing=True`): adherence and completeness then judge it as empty.
    """
    by_key = {_key(d.name): d for d in definitions}
    plans: list[SectionPlan] = []
    if isinstance(item.summary, str):
        definition = by_key.get(_key(FREE_TEXT_SECTION))
        if definition is None and len(definitions) == 1:
            definition = definitions[0]
        return [SectionPlan(FREE_TEXT_SECTION, item.summary, definition)]
    seen: set[str] = set()
    for name, text in item.summary.items():
        definition = by_key.get(_key(name))
        plans.append(SectionPlan(name, text, definition))
        seen.add(_key(name))
    for d in definitions:
        if _key(d.name) not in seen:
            plans.append(SectionPlan(d.name, "", d, missing=True))
    return plans
