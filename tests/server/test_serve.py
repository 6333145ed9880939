"""Stopping the served app: a clean stop, and one whose waitress wake-up pipe is gone."""

from __future__ import annotations

import socket
import urllib.request
from pathlib import Path

import pytest

from server.serve import serve

from .conftest import make_app


def port_open(address: str) -> bool:
    host, port = address.removeprefix("http://").rsplit(":", 1)
    with socket.socket() as probe:
        probe.settimeout(2)
        return probe.connect_ex((host, int(port))) == 0


def test_stop_closes_the_port(tmp_path: Path) -> None:
    served = serve(make_app(str(tmp_path / "a.db")), port=0, threads=4)
    with urllib.request.urlopen(f"{served.address}/api/v1/tables", timeout=5) as answer:
        assert answer.status == 200
    assert served.stop(5.0)
    assert not port_open(served.address)


def test_stop_without_waitress_trigger_still_stops(tmp_path: Path,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    """waitress's wake-up pipe refuses (seen once under heavy load): the stop closes from
    outside its loop, and the loop's end on the closed sockets is no error of the thread."""
    served = serve(make_app(str(tmp_path / "b.db")), port=0, threads=4)
    assert port_open(served.address)

    def gone(thunk: object = None) -> None:
        raise OSError(9, "Bad file descriptor")

    served.server.trigger.pull_trigger = gone  # the pipe's write fails, as it did then
    assert served.stop(10.0)
    assert not port_open(served.address)
    assert "closing from outside" in caplog.text
