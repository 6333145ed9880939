"""``bidbox loadtest --record`` then ``--replay`` as a user runs them, through the real CLI in
subprocesses, on loopback: the replayed tables' events are stored exactly as recorded, none
lost, none twice, and a copy of a recorded table answers its own assignment."""

from __future__ import annotations

import gzip
import json
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from bidbox.broker import find_mosquitto
from bidbox.loadtest_replay import RecordingError, read_recording, source_of
from tests import processes

RECORDED = 3  # tables simulated and recorded; the replay plays twice as many


def loadtest(*args: str, expect: int = 0) -> tuple[dict[str, Any] | None, str]:
    if find_mosquitto() is None:
        pytest.skip("no mosquitto: scripts/setup.py installs it")
    done = processes.run([sys.executable, "-m", "bidbox", "loadtest", "--seconds", "100",
                          "--json", *args], text=True, timeout=150)
    assert done.returncode == expect, done.stdout + done.stderr
    assert not done.left, "the load test left processes running"
    return (json.loads(done.stdout) if expect == 0 else None), done.stderr


def test_a_recording_replayed_is_stored_as_the_tables_published_it(tmp_path: Path) -> None:
    recording = tmp_path / "club.json.gz"
    simulated, _ = loadtest("--tables", str(RECORDED), "--boards", "1", "--speed", "0",
                            "--record", str(recording))
    assert simulated is not None and simulated["mode"] == "simulation"
    assert simulated["lost"] == 0 and simulated["duplicated"] == 0
    recorded = read_recording(recording)
    assert [t["table"] for t in recorded["recorded"]] == list(range(1, RECORDED + 1))
    # Every event each table published, once, in order; a state retained now and then.
    events = {t["table"]: t["events"] for t in recorded["recorded"]}
    assert sum(len(e) for e in events.values()) == simulated["published"] > 50 * RECORDED
    for table in events.values():
        assert [e[0] for e in table] == list(range(1, len(table) + 1))
        assert table[0][1] == "assign"
        assert [e[3] for e in table] == sorted(e[3] for e in table)  # instants from the go
    assert all(t["states"] for t in recorded["recorded"])

    replayed, _ = loadtest("--tables", str(2 * RECORDED), "--replay", str(recording),
                           "--folder", str(tmp_path / "replay"))
    assert replayed is not None
    f = replayed
    assert f["mode"] == "replay" and f["shards"] == 1 and f["table_rss_mb"] is None
    assert f["published"] == f["stored"] == 2 * simulated["published"]
    assert f["lost"] == 0 and f["duplicated"] == 0 and f["mismatched"] == 0
    assert f["foreign"] == 0 and f["rejected"] == 0 and f["table_errors"] == 0
    assert f["bare_distinct"] == f["published"] and f["finished"]
    assert f["replay_late_ms_p99"] is not None and f["served_ms_p99"] is not None

    # What the server stored is what was recorded, table by table: a copy (tables 4-6) the
    # same stream as its original, but the assignment its own (the server's command).
    db = sqlite3.connect(tmp_path / "replay" / "workers-1" / "bidbox.db")
    try:
        rows = db.execute("SELECT table_no, seq, type, board, data FROM events").fetchall()
        commands = dict(db.execute(
            "SELECT table_no, id FROM commands WHERE type = 'assign'").fetchall())
    finally:
        db.close()
    stored: dict[int, list[tuple[int, str, Any, dict[str, Any]]]] = {}
    for table, seq, kind, board, data in sorted(rows):
        stored.setdefault(table, []).append((seq, kind, board, json.loads(data)))
    assert sorted(stored) == list(range(1, 2 * RECORDED + 1))
    for table, got in stored.items():
        source, copy = source_of(table, RECORDED, RECORDED)
        assert copy == (table > RECORDED)
        want = [json.loads(e[4]) for e in events[source]]
        assert [(seq, kind) for seq, kind, _, _ in got] == [(w["seq"], w["type"])
                                                             for w in want]
        for (_, kind, board, data), w in zip(got, want, strict=True):
            if kind == "assign":
                assert data["cmd"] == commands[table]
                assert data["boards"] == w["data"]["boards"]
            else:
                assert (board, data) == (w["board"], w["data"])
    assignments = {t: got[0][3] for t, got in stored.items()}
    assert assignments[1]["ns"] != assignments[1 + RECORDED]["ns"]


def test_what_cannot_be_replayed_is_said_before_anything_starts(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json.gz"
    broken.write_bytes(b"not gzip")
    with pytest.raises(RecordingError, match="not a load test's recording"):
        read_recording(broken)
    other = tmp_path / "other.json.gz"
    with gzip.open(other, "wt") as handle:
        json.dump({"bidbox_recording": 1, "recorded": [{"table": 2}]}, handle)
    with pytest.raises(RecordingError, match="not 1 to 1"):
        read_recording(other)
    # Copies keep their place in a section: only whole sections recorded can be copied.
    assert source_of(26, 50, 25) == (26, 0)
    assert source_of(51, 50, 25) == (1, 1)
    assert source_of(5000, 1000, 25) == (1000, 4)
    with pytest.raises(RecordingError, match="multiple of 25"):
        source_of(60, 40, 25)
    _, said = loadtest("--replay", str(broken), expect=2)
    assert "not a load test's recording" in said
    _, said = loadtest("--replay", str(broken), "--record", str(other), expect=2)
    assert "--record and --replay" in said
