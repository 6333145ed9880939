"""``bidbox loadtest --clubs`` as a user runs it, through the real CLI in a subprocess: club
brokers bridged to a centre from the provisioned files, simulated tables in each club; the
JSON it prints holds what it measured."""

from __future__ import annotations

import json
import math
import sys
from typing import Any

import pytest

from bidbox.broker import find_mosquitto
from tests import processes


def loadtest(*args: str) -> dict[str, Any]:
    if find_mosquitto() is None:
        pytest.skip("no mosquitto: scripts/setup.py installs it")
    done = processes.run(
        [sys.executable, "-m", "bidbox", "loadtest", "--clubs", "2", "--tables", "1",
         "--speed", "0", "--json", *args], text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not done.left, "the load test left processes running"
    figures: dict[str, Any] = json.loads(done.stdout)
    return figures


def finite(value: Any) -> bool:
    return isinstance(value, int | float) and math.isfinite(value) and value >= 0


def test_two_clubs_every_event_at_the_centre_with_its_latencies() -> None:
    f = loadtest("--boards", "1")
    # A board is dozens of events a table: scans, calls, cards, the result, confirmations.
    assert f["journalled"] >= 2 * 50
    assert f["lost"] == 0 and f["club_lost"] == 0
    assert f["centre_received"] == f["journalled"] + f["duplicated"]
    for name in ("club_ms_p50", "club_ms_p99", "centre_ms_p50", "centre_ms_p99",
                 "bridge_ms_p50", "bridge_ms_p99", "club_events_per_s",
                 "centre_events_per_s"):
        assert finite(f[name]), (name, f[name])
    # Neither latencies nor rates are compared between the club and the centre: the two
    # subscribers are two threads, one event may be handled at the centre's first, and a play
    # of a second or two makes a rate of its last few milliseconds.
    assert f["bridge_n"] == f["journalled"] and f["cut"] is None


def test_a_cut_club_hands_over_its_queue_when_the_line_comes_back() -> None:
    # Cut as soon as the first event is at the club's broker: the rest of the play queues.
    f = loadtest("--boards", "2", "--cut-minutes", "0.1", "--cut-after", "0")
    assert f["lost"] == 0 and f["club_lost"] == 0
    cut = f["cut"]
    assert cut is not None and cut["club"] == "norte"
    assert cut["seconds"] >= 6.0
    assert cut["queued"] > 0, "nothing was played during the cut"
    # The backlog is what the club's broker held when the line came back: all of it crossed.
    assert cut["backlog_at_centre"] == cut["queued"]
    assert finite(cut["backlog_s"]) and 0 <= cut["reconnect_s"] <= cut["backlog_s"]
    # The steady figures leave the cut club out.
    assert f["bridge_n"] < f["journalled"]
