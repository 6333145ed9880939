"""``bidbox loadtest --clubs`` as a user runs it, through the real CLI in a subprocess: club
brokers bridged to a centre from the provisioned files, simulated tables in each club, the
centre's server (``bidbox server --centre``) on SQLite or PostgreSQL with the director's page
at the centre; the JSON it prints holds what it measured."""

from __future__ import annotations

import json
import math
import sys
from typing import Any

import pytest

from bidbox.broker import find_mosquitto
from tests import processes

# The figures of each event's way: table -> club broker -> (the bridge) -> centre broker ->
# stored by the centre's server -> on the centre's console page.
STAGES = ("club_ms", "bridge_ms", "centre_ms", "stored_ms", "shown_ms", "served_ms", "page_ms")


def loadtest(*args: str, tables: int = 2) -> dict[str, Any]:
    if find_mosquitto() is None:
        pytest.skip("no mosquitto: scripts/setup.py installs it")
    # Two tables a club at least: a club's section at the centre is a Howell of 2 or more.
    done = processes.run(
        [sys.executable, "-m", "bidbox", "loadtest", "--clubs", "2", "--tables", str(tables),
         "--speed", "0", "--json", *args], text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not done.left, "the load test left processes running"
    figures: dict[str, Any] = json.loads(done.stdout)
    return figures


def finite(value: Any) -> bool:
    return isinstance(value, int | float) and math.isfinite(value) and value >= 0


def stored_once(f: dict[str, Any]) -> None:
    """Every event the tables journalled is in the centre's database once, under its club's
    section, and the figures of its way there are in the report."""
    assert f["stored"] == f["journalled"]
    assert f["stored_lost"] == 0 and f["stored_duplicated"] == 0
    assert f["foreign"] == 0 and f["mismatched"] == 0
    # The central session's sections take every result the clubs' tables send.
    assert f["rejected"] == 0
    for stage in STAGES:
        for p in ("p50", "p99"):
            assert finite(f[f"{stage}_{p}"]), (stage, p, f[f"{stage}_{p}"])
    assert f["stored_n"] == f["page_n"] == f["bridge_n"] <= f["paced_n"]
    assert finite(f["stored_events_per_s"]) and finite(f["centre_events_per_s"])
    assert finite(f["ingest_ratio"]) and f["ingest_ratio"] > 0
    server = f["centre_server"]
    assert finite(server["cpu_percent"]) and server["rss_mb"] > 0
    assert f["page_fetches"] > 0


def test_two_clubs_every_event_at_the_centre_with_its_latencies() -> None:
    f = loadtest("--boards", "1")
    assert f["database"] == "SQLite file"
    # A board is dozens of events a table: scans, calls, cards, the result, confirmations.
    assert f["journalled"] >= 2 * 2 * 50
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
    stored_once(f)


def test_the_centre_s_server_on_postgresql_stores_every_club_s_events_once(
        pg_url: str) -> None:
    f = loadtest("--boards", "1", "--db", pg_url, tables=3)
    assert f["database"].startswith("postgresql")
    assert f["journalled"] >= 2 * 3 * 50
    assert f["lost"] == 0 and f["club_lost"] == 0
    stored_once(f)


def test_at_the_time_limit_each_table_finishes_its_board_and_all_of_it_is_stored() -> None:
    # Two boards a table as fast as they go take several seconds: the limit comes in the
    # first, each table finishes that one and plays no other.
    f = loadtest("--boards", "2", "--seconds", "2")
    assert f["stopped_s"] is not None and f["stopped_s"] >= 2.0
    assert f["boards_played"] < f["boards_asked"] and not f["finished"]
    # The figures of pace are those before the limit; the rest is checked all the same.
    assert 0 < f["paced_n"] < f["journalled"]
    assert f["lost"] == 0 and f["club_lost"] == 0
    stored_once(f)


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
    # The steady figures leave the cut club out; its events are stored all the same.
    assert f["bridge_n"] < f["journalled"]
    assert f["stored"] == f["journalled"] and f["stored_lost"] == 0
