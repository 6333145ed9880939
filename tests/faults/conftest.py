"""Fixtures of the fault harnesses: a private Mosquitto of their own (its binary from the
shared fixture, tests/fixtures/broker.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bidbox.broker import Broker
from tests.faults.harness import running_broker


@pytest.fixture
def fault_broker(mosquitto_bin: Path, tmp_path: Path) -> Iterator[Broker]:
    """A broker for event "faults" with tables 1 to 4, persistence in tmp_path; stopped
    (by its PID) afterwards."""
    with running_broker(tmp_path, [1, 2, 3, 4], mosquitto_bin) as broker:
        yield broker
