"""Whether a results file was judged with a given calibration profile (for `gate`)."""

from __future__ import annotations

import json
from collections import Counter
from os import PathLike

from ..errors import ConfigError
from ..types.profile import load_profile

__all__ = ["check_calibrated"]


def check_calibrated(profile_path: str | PathLike[str], *results: str | PathLike[str]) -> str:
    """Raise `ConfigError` unless every judged record of each file used the profile.

    A gate that compares a calibrated candidate with an uncalibrated baseline (or checks
    thresholds learned for calibrated scores on raw ones) would measure the profile, not
    the change; this check makes the mix an error. Returns the profile's id.
    """
    profile = load_profile(profile_path)
    for path in results:
        seen: Counter[str] = Counter()
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    continue  # the gate itself reports lines that are not JSON
                if isinstance(record, dict) and isinstance(record.get("meta"), dict):
                    seen[str(record["meta"].get("calibration") or "none")] += 1
        other = {k: n for k, n in seen.items() if k != profile.id}
        if other:
            found = ", ".join(f"{n} with {k}" for k, n in sorted(other.items()))
            raise ConfigError(
                f"{path} was not judged with calibration profile {profile.id} ({found}): "
                f"judge it with `sumjudge evaluate --calibration {profile_path}`"
            )
    return profile.id
