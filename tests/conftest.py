"""Test-wide guards: no network beyond loopback, no real API keys, no retry sleeps."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
from typing import Any

import pytest

_KEY_VARS = (
    "GOOGLE_API_KEY",
    "GEMINI_API_KEY",
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "OPENAI_BASE_URL",
    "SUMJUDGE_BASE_URL",
    "GOOGLE_GEMINI_BASE_URL",
    "ANTHROPIC_BASE_URL",
)


def _is_loopback(host: Any) -> bool:
    if host in ("localhost", "", None):
        return True
    try:
        return ipaddress.ip_address(str(host).split("%")[0]).is_loopback
    except ValueError:
        return False


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Iterator[None]:
    """Forbid connections to anything but 127.0.0.0/8 and ::1."""
    if request.node.get_closest_marker("hosted"):
        yield
        return
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex

    def guard(address: Any) -> None:
        if isinstance(address, tuple) and not _is_loopback(address[0]):
            raise RuntimeError(f"test tried to reach the network: {address!r}")

    def connect(self: socket.socket, address: Any) -> Any:
        guard(address)
        return real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> Any:
        guard(address)
        return real_connect_ex(self, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    yield


@pytest.fixture(autouse=True)
def _forget_keys() -> Iterator[None]:
    """Each test starts with no key recorded for redaction (`sumjudge.redaction`)."""
    from sumjudge.redaction import forget_keys

    forget_keys()
    yield
    forget_keys()


@pytest.fixture(autouse=True)
def _no_keys(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    """Tests never see real credentials unless they opt into hosted providers."""
    if request.node.get_closest_marker("hosted"):
        return
    for var in _KEY_VARS:
        monkeypatch.delenv(var, raising=False)
