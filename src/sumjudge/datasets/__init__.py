"""Loaders for input files and the bundled example datasets."""

from __future__ import annotations

from .bundled import BundledDataset, load_simple_summarization_dataset
from .files import read_summary_rows

__all__ = ["BundledDataset", "load_simple_summarization_dataset", "read_summary_rows"]
