"""The fake server every batch test talks to (its jobs held briefly, as a queue would)."""

from __future__ import annotations

from typing import Any

import pytest

from sumjudge.testing import FakeOpenAIServer


@pytest.fixture
def server() -> Any:
    with FakeOpenAIServer() as srv:
        srv.batches.delay = 0.05
        yield srv
