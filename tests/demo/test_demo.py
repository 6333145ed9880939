"""``bidbox demo`` as a user runs it: four tables replay real records through the real broker
and server; every result is on the API with the score ``bidbox replay`` gives its record; Ctrl-C
stops every process it started."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from bidbox.broker import find_mosquitto
from laws.formats import load_path
from sim.recorded import playable
from tests.processes import group_members, output_lines, run, spawned
from tests.records import played_pbn

QUALIFIER = played_pbn()  # the real qualifier, or the golden pairs session
DEADLINE = 240.0
STOP = 60.0  # seconds for a stop: the tables, the server, then the broker


def _until(lines: queue.Queue[str | None], text: str, deadline: float, seen: list[str]) -> str:
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no {text!r} in time:\n{''.join(seen)}"
        try:
            line = lines.get(timeout=left)
        except queue.Empty:
            continue
        assert line is not None, f"the demo ended before {text!r}:\n{''.join(seen)}"
        seen.append(line)
        if text in line:
            return line


def _processes_using(path: Path) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if str(path) in cmdline:
                found.append(int(entry.name))
    return found


def test_the_demo_replays_real_records_end_to_end(tmp_path: Path) -> None:
    if find_mosquitto() is None:
        pytest.skip("no mosquitto: scripts/setup.py installs it")
    folder = tmp_path / "demo"
    seen: list[str] = []
    with spawned(
            [sys.executable, "-m", "bidbox", "demo", "--tables", "4", "--records",
             str(QUALIFIER), "--speed", "0", "--port", "0", "--folder", str(folder)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as process:
        lines = output_lines(process)
        deadline = time.monotonic() + DEADLINE
        base = _until(lines, "live results:", deadline, seen).split()[-1].rstrip("/")
        # The default movement, a barometer: every table plays round 1's boards, so the first
        # of them is on the live page before round 2 starts (a Mitchell's would wait for the
        # last round).
        first = _until(lines, "is on the live page", deadline, seen)
        assert not any("round 2 of" in line for line in seen), "".join(seen)
        _until(lines, "the session is over", deadline, seen)
        with urllib.request.urlopen(f"{base}/api/v1/results", timeout=10) as answer:
            results = json.load(answer)["results"]
        broker_processes = _processes_using(folder / "broker")
        assert broker_processes, "the demo's mosquitto is not running"
        process.send_signal(signal.SIGINT)  # Ctrl-C, to the demo alone
        code = process.wait(timeout=STOP)
        # Before the test's own clean-up of the group: the demo stopped all it started.
        assert not group_members(process.pid), "the demo left processes running"
        assert not _processes_using(folder / "broker"), "the demo's broker outlived it"
    assert code == 0, "".join(seen)

    # What each table must have got: the demo gives table t the (t-1)th playable record of a
    # board, in file order; its score is what `bidbox replay` computes.
    good, _ = playable(load_path(QUALIFIER), str(QUALIFIER))
    by_board: dict[int, list[object]] = {}
    for item in good:
        by_board.setdefault(item.record.board, []).append(item)  # type: ignore[arg-type]
    # A barometer: in each of the three rounds, all four tables play the same boards.
    rounds: dict[int, set[tuple[int, int]]] = {}
    for row in results:
        rounds.setdefault(row["round"], set()).add((row["table"], row["board"]))
    assert sorted(rounds) == [1, 2, 3]
    for played in rounds.values():
        boards = {board for _, board in played}
        assert played == {(table, board) for table in range(1, 5) for board in boards}
    assert len(results) == sum(len(played) for played in rounds.values())
    assert int(first.split()[1]) in {row["board"] for row in results if row["round"] == 1}
    for row in results:
        choices = by_board[row["board"]]
        item = choices[(row["table"] - 1) % len(choices)]
        expected = item.expected  # type: ignore[attr-defined]
        assert (row["contract"], row["declarer"], row["tricks"], row["score_ns"]) == (
            expected.contract, expected.declarer, expected.tricks, expected.score_ns), row
    assert os.path.exists(folder / "bidbox.db") and len(list(folder.glob("table-*.db"))) == 4


def test_the_demo_with_its_own_players_finishes_a_session(tmp_path: Path) -> None:
    """No records: seeded deals, the simulated players of seed 004's system; the session runs
    to its end and every scheduled board has a result the laws score."""
    if find_mosquitto() is None:
        pytest.skip("no mosquitto: scripts/setup.py installs it")
    import sqlite3

    from laws import Board, Seat, parse_contract
    from laws.scoring import score_ns
    from server.setup.movements import mitchell

    folder = tmp_path / "demo"
    done = run([sys.executable, "-m", "bidbox", "demo", "--tables", "3", "--rounds", "2",
                "--movement", "mitchell", "--speed", "0", "--port", "0", "--folder",
                str(folder), "--exit-when-done"],
               text=True, timeout=DEADLINE)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the session is over" in done.stdout
    plan = mitchell(6, 2, 2)
    scheduled = {(seat.table, board) for seat in plan.seatings for board in seat.boards}
    with sqlite3.connect(folder / "bidbox.db") as db:
        rows = db.execute("SELECT table_no, board, contract, declarer, tricks, score_ns, ns, ew"
                          " FROM results").fetchall()
    assert {(table, board) for table, board, *_ in rows} == scheduled
    for table, board, contract, declarer, tricks, score, ns, ew in rows:
        seating = plan.find(table, board)
        assert seating is not None and (ns, ew) == (seating.ns, seating.ew)
        assert score == score_ns(parse_contract(contract),
                                 Seat.from_str(declarer) if declarer else None, tricks,
                                 Board(board).vulnerability)
    # sim.players.irregular: the director's console lists the calls of a lead out of turn
    # (a defender's, when declarer's side was on lead: 56) and of a premature card (a penalty
    # card), with their laws.
    with sqlite3.connect(folder / "bidbox.db") as db:
        calls = set(db.execute("SELECT reason, law FROM director_calls").fetchall())
    assert ("lead_out_of_turn", "56") in calls
    assert ("premature_play", "57") in calls
    assert not done.left, "the demo left processes running"


def test_the_demo_behind_screens_finishes_with_alerts_and_trays(tmp_path: Path) -> None:
    """``--screens``: every pair has seed 004's card, the tables play behind screens (the
    tray, self-alerts to the screenmate, the face-down lead), and the session still ends."""
    if find_mosquitto() is None:
        pytest.skip("no mosquitto: scripts/setup.py installs it")
    import sqlite3

    folder = tmp_path / "demo"
    done = run([sys.executable, "-m", "bidbox", "demo", "--tables", "3", "--rounds", "2",
                "--speed", "0", "--port", "0", "--folder", str(folder), "--screens", "NE-SW",
                "--exit-when-done"], text=True, timeout=DEADLINE)
    assert done.returncode == 0, done.stdout + done.stderr
    with sqlite3.connect(folder / "bidbox.db") as db:
        kinds = dict(db.execute("SELECT type, count(*) FROM events GROUP BY type").fetchall())
        results = db.execute("SELECT count(*) FROM results").fetchone()[0]
        cards = db.execute("SELECT count(*) FROM system_cards").fetchone()[0]
        face_down = db.execute("SELECT count(*) FROM events WHERE type = 'card' AND "
                               "data LIKE '%\"face_down\":true%'").fetchone()[0]
    assert results == 3 * 2 * 2 and cards == 6
    assert kinds.get("tray", 0) >= 2 * results   # at least once each way on every board
    assert kinds.get("faced", 0) == face_down > 0  # every lead face down, then faced
    assert not done.left, "the demo left processes running"
