"""What the batches of a run answered, with the replies on disk and only their ids in memory.

A batch run collects every reply before its last pass (which writes the response cache:
the runner stays its only writer), and runs every pass over all of them. Held in memory,
80,000 replies with their token logprobs took 4 GB. So a reply is appended to a spill file
(a zlib-compressed pickle of the `JudgeResponse`) as soon as it is read from the provider,
and memory keeps its offset and length by request fingerprint. Pickle, not JSON: it is
3-4x faster both ways, and every pass reads every reply back; the file is written and
read by this process only (an anonymous temporary file), so nothing untrusted is
unpickled. Errors stay in memory: they are small, and the round driver revises them (a
retried error is forgotten).

The spill file is an anonymous temporary file (`tempfile.TemporaryFile`): it holds replies
only for this process and is gone when the store is closed or the process ends, whatever
the way. A rerun reads the batches from the provider again, as before.
"""

from __future__ import annotations

import pickle
import tempfile
import zlib
from pathlib import Path
from typing import IO

from ..protocol import JudgeResponse
from .provider import Outcome

__all__ = ["CollectedOutcomes"]


class CollectedOutcomes:
    """Request fingerprint -> what a batch gave; replies spilled to a temporary file.

    Args:
        directory: where the temporary file goes (default: the system's temp directory).
    """

    def __init__(self, directory: str | Path | None = None) -> None:
        self._directory = None if directory is None else str(directory)
        self._file: IO[bytes] | None = None
        self._end = 0
        self._replies: dict[str, tuple[int, int]] = {}
        self._errors: dict[str, Outcome] = {}
        self.spilled_bytes = 0

    def _spill(self) -> IO[bytes]:
        if self._file is None:
            # kept open across rounds and closed by close(): no `with` can span that
            self._file = tempfile.TemporaryFile(  # noqa: SIM115
                prefix="sumjudge-replies-", dir=self._directory
            )
        return self._file

    def put(self, fp: str, outcome: Outcome) -> None:
        """Keep `outcome` for `fp`: a reply goes to disk, an error (or nothing) stays here."""
        if outcome.response is None:
            self._errors[fp] = outcome
            return
        self._errors.pop(fp, None)
        # level 1: fast, and the logprobs still shrink ~5x
        data = zlib.compress(pickle.dumps(outcome.response, pickle.HIGHEST_PROTOCOL), 1)
        spill = self._spill()
        spill.seek(self._end)
        spill.write(data)
        self._replies[fp] = (self._end, len(data))
        self._end += len(data)
        self.spilled_bytes += len(data)

    def answered(self, fp: str) -> bool:
        """Whether a batch gave a reply to `fp`."""
        return fp in self._replies

    def get(self, fp: str) -> Outcome | None:
        """The outcome kept for `fp` (a reply is read back from disk), or None."""
        where = self._replies.get(fp)
        if where is None:
            return self._errors.get(fp)
        assert self._file is not None
        self._file.seek(where[0])
        response = pickle.loads(zlib.decompress(self._file.read(where[1])))
        assert isinstance(response, JudgeResponse)
        return Outcome(response=response)

    def forget(self, fp: str) -> None:
        """Drop an error kept for `fp` (it is sent again); a reply is never dropped."""
        self._errors.pop(fp, None)

    def __contains__(self, fp: object) -> bool:
        return fp in self._replies or fp in self._errors

    def __len__(self) -> int:
        return len(self._replies) + len(self._errors)

    def close(self) -> None:
        """Delete the spill file (the replies are in the response cache by then)."""
        if self._file is not None:
            self._file.close()
            self._file = None
        self._replies.clear()
