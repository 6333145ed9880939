"""The server's watcher threads (released boards' analysis, the tables' after-board pages)
outlive a database that fails under them: a failed look is logged and the next change
retries; when the server closes, each ends and close() waits for it before it lets the
database go, so no thread reads a database already released."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator

import pytest
from flask import Flask
from sqlalchemy.exc import OperationalError

from server.services import Services
from tests.server.conftest import services

TIMEOUT = 30.0


class _Failing:
    """A database that fails on every read, as one dropped or unreachable does."""

    def __init__(self) -> None:
        self.reads = 0

    def __get__(self, instance: object, owner: type | None = None) -> None:
        self.reads += 1
        raise OperationalError("SELECT", {}, Exception("database is gone"))


@pytest.fixture
def failing_session(monkeypatch: pytest.MonkeyPatch) -> Iterator[_Failing]:
    failing = _Failing()
    monkeypatch.setattr(Services, "session", failing)
    yield failing


def _wait(condition: object, timeout: float = TIMEOUT) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.01)
    return False


@pytest.mark.parametrize("watch", ["_watch_releases", "_watch_after_board"])
def test_a_watcher_logs_a_failed_look_and_ends_when_the_server_closes(
        app: Flask, failing_session: _Failing, caplog: pytest.LogCaptureFixture,
        watch: str) -> None:
    found = services(app)
    thread = threading.Thread(target=getattr(found, watch), name=watch, daemon=True)
    found._watchers.append(thread)
    caplog.set_level(logging.ERROR, logger="server.services")
    thread.start()
    try:
        assert _wait(lambda: failing_session.reads >= 1 and "could not" in caplog.text)
        assert thread.is_alive()  # the failure did not end it
        found.hub.notify({"results"})  # a change: it looks again, and fails again
        assert _wait(lambda: failing_session.reads >= 2)
        assert thread.is_alive()
    finally:
        found.close()  # waits for the watcher
    assert not thread.is_alive()
