"""Reading summaries from JSONL, JSON, CSV/TSV and Parquet files, row by row, with per-row errors.

Formats, by suffix:

- ``.jsonl`` / ``.ndjson``: one JSON object per line.
- ``.json``: a JSON array of objects, a single object, or JSON Lines (when the first
  non-blank line is an object on its own).
- ``.csv`` / ``.tsv``: a header row, then one record per row; the delimiter (``,``,
  ``;``, tab or ``|``) is sniffed from the header, falling back to ``,`` for .csv and tab
  for .tsv.
- ``.parquet``: through pyarrow (the ``parquet`` extra), in record batches of 1,024 rows.

Text formats are read as UTF-8 with an optional BOM, or in the ``encoding=`` given
(``--encoding``). JSONL and CSV are decoded line by line, so a line that does not decode
is an error for its row only. Rows are yielded lazily so that files of any size stream
through; what makes the whole file unusable (unsupported type, unknown encoding, no rows,
a column that is not there) raises `DataError` when the reader is called, before any row.

A row that cannot be used becomes a `DataError` in place of its item, so the other rows
are still judged. Its `item` is the 0-based data row ("row N" in the message), its
`line` the 1-based line of the file where the row is (JSONL: the line; JSON array: the
line its element starts on; CSV/TSV: the line the record starts on, the header being
line 1; Parquet: the 1-based row number) and its `id` the row's id when it has one.

This module is the readers' public face; they live in `_decoding` (encodings),
`_formats` (a reader per format, rows with their lines), `_rows` (column checks, ids, the
duplicate-id warning, the row loop), `_summaries` (the summary rows) and `_pairs` (the
pairwise rows).
"""

from __future__ import annotations

from ._decoding import decode_file, read_source_file
from ._formats import count_rows, iter_records
from ._pairs import read_pair_rows
from ._rows import DataWarning, DuplicateIds, Warn, check_columns, missing_column_error, row_id
from ._summaries import read_summary_rows, record_to_item

__all__ = [
    "DataWarning",
    "DuplicateIds",
    "Warn",
    "check_columns",
    "count_rows",
    "decode_file",
    "iter_records",
    "missing_column_error",
    "read_pair_rows",
    "read_source_file",
    "read_summary_rows",
    "record_to_item",
    "row_id",
]
