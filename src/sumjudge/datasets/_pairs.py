"""The pair-row reader: `PairData` per file row (input, summary_a, summary_b), or a `DataError`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import DataError
from ..transcripts import normalize_source
from ..types.pairwise import PairData
from ._rows import Warn, read_rows, row_id
from ._summaries import _cell_text

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
        values: dict[str, str] = {}
        for column, target in (
            (input_column, "input"),
            (a_column, "summary_a"),
            (b_column, "summary_b"),
        ):
            text, problem = _cell_text(record, column, turns_allowed=target == "input")
            if problem is not None or text is None:
                return DataError(
                    problem or "is missing", item=index, field=column, line=line, id=ident
                )
            values[target] = normalize_source(text) if target == "input" else text
        return PairData(id=ident, **values)

    required = {"--input-column": input_column, "--a-column": a_column, "--b-column": b_column}
    return read_rows(path, encoding, required, id_column, on_warning, to_item)
