"""The pair-row reader: `PairData` per file row (input, summary_a, summary_b), or a `DataError`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import DataError
from ..types.pairwise import PairData
from ._rows import Warn, read_rows, row_id
from ._summaries import text_cells

__all__ = ["read_pair_rows"]


def read_pair_rows(
    path: str | Path,
    *,
    input_column: str = "input",
    a_column: str = "summary_a",
    b_column: str = "summary_b",
    id_column: str = "id",
    encoding: str | None = None,
    on_warning: Warn | None = None,
) -> Iterator[PairData | DataError]:
    """`PairData` per row, or a `DataError` naming the row and the bad column.

    The source is read as in `read_summary_rows` (WebVTT, SRT or JSON turns become
    ``Speaker: text`` lines); both summaries reach the judge as written.

    Raises:
        DataError: Raised by the call itself when the file cannot be used as a whole
            (see `read_summary_rows`).
    """

    def to_item(
        record: dict[str, Any], index: int, line: int | None, _ident: str | None
    ) -> PairData | DataError:
        ident = row_id(record, id_column)
        columns = {"input": input_column, "summary_a": a_column, "summary_b": b_column}
        values = text_cells(record, columns, index=index, line=line, ident=ident)
        return values if isinstance(values, DataError) else PairData(id=ident, **values)

    required = {"--input-column": input_column, "--a-column": a_column, "--b-column": b_column}
    return read_rows(path, encoding, required, id_column, on_warning, to_item)
