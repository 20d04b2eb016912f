"""A calibration profile: what one judge learned from a team's labels, as a readable file.

It is a value like the results (this module imports nothing of the package above
`errors`): `sumjudge.align` fits it, the evaluators apply it.

`sumjudge calibrate` writes it; `--calibration profile.json` (evaluate, meta-eval, gate)
and `SummarizationEvaluator(calibration=...)` apply it. It names the judge it was fitted
for (and, for the offline judge, the scorer version whose signals it weighs): applying it
to another judge is a `ConfigError`. Its `id` is a hash of what it changes, so two fits
that change the same things share an id, and the id joins the metric versions (and so
the cache key) of every result judged with it.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone
from os import PathLike
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .._version import __version__
from ..errors import ConfigError

__all__ = [
    "PROFILE_SCHEMA",
    "CalibrationProfile",
    "Example",
    "MetricProfile",
    "load_profile",
]

PROFILE_SCHEMA = "sumjudge.calibration/1"


class Example(BaseModel):
    """A labelled item shown to an LLM judge as a few-shot example."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    score: int = Field(ge=1, le=3)
    reason: str = ""
    source: str
    summary: str


class MetricProfile(BaseModel):
    """What the profile changes in one metric, and the labels it learned from.

    `cuts` apply to the judge's `variant` (an LLM's `weighted_score`); the offline judge
    instead gets whole refitted models (`offline_model`: prose sources,
    `offline_dialogue_model`: consistency on dialogue sources), in the format of its
    shipped `params.json`, cut points included.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    label_kind: Literal["likert", "binary"]
    n_labels: int
    variant: Literal["weighted_score", "raw", "score"]
    cuts: tuple[float, float] | None = None
    examples: tuple[Example, ...] = ()
    offline_model: dict[str, Any] | None = None
    offline_dialogue_model: dict[str, Any] | None = None
    note: str = ""


class CalibrationProfile(BaseModel):
    """A judge's calibration on a team's labels (`docs/align.md`)."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    schema_: str = Field(default=PROFILE_SCHEMA, alias="schema")
    id: str = ""
    judge: str
    judge_version: str | None = None
    sumjudge_version: str = __version__
    created_at: str = ""
    labels: dict[str, Any] = {}
    metrics: dict[str, MetricProfile] = {}
    rule_book: dict[str, dict[str, int]] | None = None
    agreement: dict[str, Any] = {}

    def identity(self) -> str:
        """The hash of what the profile changes (judge, metrics, rule book), as "cal-…"."""
        payload = {
            "judge": self.judge,
            "judge_version": self.judge_version,
            "metrics": {k: v.model_dump(mode="json") for k, v in sorted(self.metrics.items())},
            "rule_book": self.rule_book,
        }
        text = json.dumps(payload, sort_keys=True, ensure_ascii=False)
        return "cal-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]

    def sealed(self) -> CalibrationProfile:
        """This profile with its `id` and creation time set."""
        created = self.created_at or datetime.now(timezone.utc).isoformat(timespec="seconds")
        return self.model_copy(update={"id": self.identity(), "created_at": created})

    def to_json(self) -> str:
        """The profile as indented JSON (the file `calibrate -o` writes)."""
        return self.model_dump_json(indent=2, by_alias=True) + "\n"

    def check_judge(self, judge: str, version: str | None) -> None:
        """Raise `ConfigError` unless the profile was fitted for this judge (and version).

        The offline judge's version matters: its refitted weights weigh the signals of
        one scorer version, and a new version computes other signals.
        """
        if judge != self.judge:
            raise ConfigError(
                f"calibration profile {self.id} was fitted for the judge {self.judge!r}, "
                f"not {judge!r}: calibrate this judge on its own results"
            )
        base = (version or "").split("+", 1)[0] or None
        if self.judge_version is not None and base != self.judge_version:
            raise ConfigError(
                f"calibration profile {self.id} was fitted for {self.judge} version "
                f"{self.judge_version}, this judge is {base}: calibrate it again"
            )


def load_profile(path: str | PathLike[str]) -> CalibrationProfile:
    """Read a profile written by `sumjudge calibrate`.

    Raises:
        ConfigError: The file cannot be read or is not a profile; the message names it.
    """
    name = str(path)
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"--calibration {name}: cannot read it ({exc})") from None
    except json.JSONDecodeError as exc:
        raise ConfigError(f"--calibration {name}: not JSON (line {exc.lineno})") from None
    if not isinstance(data, dict) or data.get("schema") != PROFILE_SCHEMA:
        raise ConfigError(
            f"--calibration {name}: not a calibration profile (schema {PROFILE_SCHEMA!r}); "
            "write one with `sumjudge calibrate`"
        )
    try:
        profile = CalibrationProfile.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ConfigError(f"--calibration {name}: field {where}: {first['msg']}") from None
    # A hand-edited profile is a different profile: it gets the id of what it now says,
    # so results judged with it never share a cache key or version with the original.
    return profile.model_copy(update={"id": profile.identity()})
