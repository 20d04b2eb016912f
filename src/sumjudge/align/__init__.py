"""Aligning a judge with people: their labels, and calibration profiles fitted on them.

The loop is judge -> review -> calibrate -> gate (docs/align.md).
"""

from __future__ import annotations

from .labels import LABEL_SCHEMA, RATINGS, Label, LabelLog, latest, read_labels

__all__ = ["LABEL_SCHEMA", "RATINGS", "Label", "LabelLog", "latest", "read_labels"]
