"""The first contact with a judge's server: one request alone until the server is known.

A run opens with many calls at once (concurrency x metrics). Sent together to a server
that refuses our key or is not there at all, they would all fail, each after its own
retries. So the first request goes alone (`FirstContact.admit`), and the others wait
for its outcome (up to `PROBE_WAIT` s). When it found no server (only connection
failures), the next request goes alone in turn, until the server answers or
`UNREACHABLE_AFTER` connection failures in a row show it is not there: then
`FirstContact.unreachable` says why, and the runner sends nothing more.
"""

from __future__ import annotations

import asyncio

from .errors import ConnectionFailedError, ProviderError, TruncatedResponseError

__all__ = ["PROBE_WAIT", "UNREACHABLE_AFTER", "FirstContact"]

#: Seconds the other requests wait for the first one's reply before they go anyway.
PROBE_WAIT = 10.0

#: Connection failures (attempts, across items and metrics) with no answer yet in the run
#: after which the server is taken for absent and no more requests are sent. One call's
#: retries come to this many by default: a server that is down is given one full retry
#: schedule (about 4-8 s), not one per item. Any answer, even an HTTP error, disarms it.
UNREACHABLE_AFTER = 5


class FirstContact:
    """Which request goes first, and whether the server has shown it is there."""

    def __init__(self) -> None:
        self.unreachable: str | None = None
        self._answered = False  # the server answered once: it is there, for good
        self._failures = 0
        self._probe: asyncio.Event | None = None
        self._settled = False

    @property
    def settled(self) -> bool:
        """Whether every request may go at once (`admit` would return False straight away)."""
        return self._settled

    async def admit(self) -> bool:
        """Wait while a lone first request is on its way; True: be that request."""
        while not self._settled:
            if self._probe is None:
                self._probe = asyncio.Event()
                return True
            try:
                await asyncio.wait_for(self._probe.wait(), PROBE_WAIT)
            except asyncio.TimeoutError:
                return False  # a slow first reply does not hold the run up for longer
        return False

    def probe_done(self) -> None:
        """The lone request ended: let the others go, or the next one alone if no server yet."""
        probe, self._probe = self._probe, None
        searching = self._failures and not self._answered and self.unreachable is None
        if not searching:
            self._settled = True
        if probe is not None:
            probe.set()

    def seen(self, error: ProviderError | None) -> None:
        """Count one attempt's outcome: `error`, or None for a reply.

        A reply, a cut reply or an HTTP status shows a server. A timeout shows neither (a
        slow server, or a host that drops packets), and counts for nothing.
        """
        if self._answered or self.unreachable is not None:
            return
        if not isinstance(error, ConnectionFailedError):
            answer = error is None or error.status is not None
            self._answered = answer or isinstance(error, TruncatedResponseError)
            return
        self._failures += 1
        if self._failures >= UNREACHABLE_AFTER:
            self.unreachable = (
                f"{self._failures} connection attempts failed and none was answered (last: {error})"
            )
