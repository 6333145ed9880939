"""The Pi's disk fills up under a playing table (issue 8): the table says so on every seat's
display, refuses what it cannot record, loses nothing it had accepted, and takes input again
once there is room.

The journal lives on a small tmpfs that the test mounts (and unmounts) itself; a file written
until the filesystem refuses it fills the rest, as a runaway log would on an SD card. The table
is the real daemon on simulated hardware with its uplink to a real private Mosquitto, and the
real server ingests into a SQLite file. Skipped, with the reason, where mounting is not
permitted.
"""

from __future__ import annotations

import errno
import os
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

from bidbox.broker import Broker
from laws import Seat
from mqttlink import BrokerSettings
from sim.players import SimulatedPlayers, deal
from sim.players.players import script
from sim.simtable import SimulatedTable
from tabled.daemon import snapshot
from tabled.i18n import text
from tablemodel.state import TableState
from tablemodel.wire import Command
from tests.faults.harness import (
    EVENT,
    compare,
    duplicates_in,
    journal_rows,
    seed,
    server_rows,
    services,
    start_server,
    users_of,
    wait_until,
)

SIZE = "8m"        # the tmpfs: room for the journal and its write-ahead log (4 MB at most)
TABLE = 3
STEPS = 200        # player actions before the full disk must have been said
WAIT = 30.0


class SeatScreen:
    """A seat's display that keeps what it was last told to show."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.shown = 0

    def show(self, lines: Sequence[str]) -> None:
        self.lines = list(lines)
        self.shown += 1


@contextmanager
def tmpfs(mountpoint: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` at ``mountpoint`` (made here), unmounted afterwards."""
    mountpoint.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700",
                              "tmpfs", str(mountpoint)], capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip() or mounted.returncode}")
    try:
        yield mountpoint
    finally:
        subprocess.run(["umount", str(mountpoint)], check=True)


def fill(folder: Path) -> int:
    """Write a file until the filesystem has no room left; the bytes it took."""
    written = 0
    chunk = b"\0" * 4096
    with open(folder / "runaway.log", "wb", buffering=0) as f:
        while True:
            try:
                written += f.write(chunk) or 0
            except OSError as error:
                assert error.errno == errno.ENOSPC, error
                break
        try:  # the last partial block too
            while f.write(b"\0"):
                written += 1
        except OSError as error:
            assert error.errno == errno.ENOSPC, error
    return written


def play(players: SimulatedPlayers, board: int, base: int) -> None:
    """The board to its confirmed result, in a bounded number of actions."""
    plan = script(board, deal(base, board), seed=base, claim_rate=0.0)
    for _ in range(STEPS * 2):
        if not players.players.step(plan):
            return
    raise AssertionError(f"board {board} not over after {STEPS * 2} actions")


def test_a_full_disk_is_said_on_every_display_and_loses_nothing_accepted(
        tmp_path: Path, fault_broker: Broker) -> None:
    base = seed()
    began = time.monotonic()
    db = tmp_path / "server.db"
    app = start_server(db, fault_broker)
    creds = users_of(fault_broker).table(TABLE)
    screens = {seat: SeatScreen() for seat in Seat}
    with tmpfs(tmp_path / "sd", SIZE) as sd:
        journal = sd / "journal.db"
        table = SimulatedTable(journal, event=EVENT, number=TABLE, displays=screens,
                               language="en",
                               broker=BrokerSettings(fault_broker.host, fault_broker.port,
                                                     creds.username, creds.password))
        table.start()
        try:
            table.daemon.inbox.put(Command("disk-1", "assign", {
                "round": 1, "ns": 5, "ew": 6, "boards": [1, 2, 3]}))
            assert table.daemon.wait_for(lambda s: s.assignment is not None, WAIT)
            players = SimulatedPlayers(table, seed=base, director_rate=0.0, claim_rate=0.0)
            players.enter_players({seat: 500 + i for i, seat in enumerate(Seat)})
            play(players, 1, base)

            # The disk fills up in the middle of board 2's set-up.
            plan = script(2, deal(base, 2), seed=base, claim_rate=0.0)
            for _ in range(20):
                players.players.step(plan)
            filler = fill(sd)
            accepted = [e.to_json() for e in table.journal.events()]
            before = snapshot(table.state)
            full = text("journal_full", "en")
            steps = 0
            while not all(full in " ".join(s.lines) for s in screens.values()):
                assert steps < STEPS, (f"no seat says the disk is full after {STEPS} "
                                       f"actions: {[s.lines for s in screens.values()]}")
                players.players.step(plan)
                steps += 1
            refused_at = table.journal.last_seq
            # What was refused changed nothing; the table is where its journal says.
            for _ in range(5):
                players.players.step(plan)
            assert table.journal.last_seq == refused_at
            assert snapshot(table.state) == snapshot(TableState.replay(table.journal.events()))
            assert os.statvfs(sd).f_bavail == 0
            # Nothing accepted is lost: in the journal and, through the broker, at the server.
            kept = [e.to_json() for e in table.journal.events()]
            assert kept[:len(accepted)] == accepted
            wait_until(lambda: len(server_rows(db, TABLE)) >= refused_at, WAIT,
                       "the server to hold every event accepted before the disk filled")
            lost, duplicated, changed = compare(journal_rows(journal)[:refused_at],
                                                server_rows(db, TABLE)[:refused_at])
            assert (lost, duplicated, changed) == ([], [], [])

            # Room again: the same players carry on, the table takes their input.
            (sd / "runaway.log").unlink()
            play(players, 2, base)
            assert table.journal.last_seq > refused_at
            assert not any(full in " ".join(s.lines) for s in screens.values())
            assert 2 in table.state.results
            last = table.journal.last_seq
            wait_until(lambda: len(server_rows(db, TABLE)) >= last, WAIT,
                       "the server to hold every event")
            # Acknowledgements that came while the disk was full could not be recorded: those
            # events stay in the outbox and go out again after a restart (harmless, deduped).
            stale = table.journal.outbox_size()
        finally:
            table.stop()
        rows = journal_rows(journal)
    try:
        stored = server_rows(db, TABLE)
        lost, duplicated, changed = compare(rows, stored)
        assert duplicates_in(db) == 0
    finally:
        services(app).close()
    print(f"disk full after {len(accepted)} events ({filler} bytes of filler on a {SIZE} "
          f"tmpfs); said on all four displays after {steps} refused actions; events checked "
          f"{len(rows)}; lost {len(lost)}, duplicated {len(duplicated)}, changed "
          f"{len(changed)}; {stale} acknowledged events left in the outbox; "
          f"{time.monotonic() - began:.1f} s")
    assert (lost, duplicated, changed) == ([], [], [])
    assert before["seq"] == len(accepted)
