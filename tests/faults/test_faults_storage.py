"""The server's disk fills up mid-session (issue 27, item 1): ingest holds what the database
refuses, tries it again by itself, says so in its log and on the console, and once there is
room stores everything, with no restart.

The server's SQLite file lives on a small tmpfs that the test mounts (and unmounts) itself; a
file written until the filesystem refuses it fills the rest, as a runaway log or a large
upload would. Three tables (the real daemon on simulated hardware, with its uplink) play on a
real private Mosquitto with the generated users and ACL throughout. Skipped, with the reason,
where mounting is not permitted.
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path

import pytest

from bidbox.broker import Broker
from mqttlink import BrokerSettings
from tests.faults.harness import (
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
from tests.faults.playing import TablesAtPlay
from tests.faults.test_faults_disk import fill, tmpfs

SIZE = "6m"      # the server's database and its write-ahead log, with room to grow a little
TABLES = (1, 2, 3)
BOARDS = 10
WAIT = 60.0


def test_a_full_disk_at_the_server_holds_ingest_and_it_catches_up_by_itself(
        tmp_path: Path, fault_broker: Broker, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="server.link.bus")
    base = seed()
    began = time.monotonic()
    users = users_of(fault_broker)
    with tmpfs(tmp_path / "srv", SIZE) as disk:
        db = disk / "server.db"
        app = start_server(db, fault_broker)
        bus = services(app).bus
        tables = TablesAtPlay(tmp_path / "tables", {
            n: BrokerSettings(fault_broker.host, fault_broker.port, users.table(n).username,
                              users.table(n).password) for n in TABLES},
            boards=BOARDS, seed=base, wait=WAIT)
        try:
            # The director is signed in before the disk fills (signing in writes a row).
            client = app.test_client()
            client.post("/console/login", data={"username": "director", "password": "faults",
                                                "csrf": _csrf(client)})
            tables.start()
            wait_until(lambda: bus.stored >= 100, WAIT, "the server to store some events")
            filler = fill(disk)
            # The tables play on; the database soon has no room for what comes.
            wait_until(lambda: bus.fault is not None or bool(tables.errors), WAIT,
                       "the server to say its database refused a batch")
            assert not tables.errors, tables.errors
            fault = bus.fault
            assert fault is not None and fault.reason == "disk_full", fault
            stored_at_fault = sum(len(server_rows(db, n)) for n in TABLES)
            # The console says so, with the reason and the time.
            page = client.get("/console/fragment/storage").get_data(as_text=True)
            assert "Results not being stored since" in page and "disk full" in page, page
            assert "results not being stored: disk_full" in caplog.text
            # Held for a while: the tables go on journalling what the server cannot store.
            journalled = sum(tables.journalled().values())
            wait_until(lambda: sum(tables.journalled().values()) >= journalled + 150
                       or all(n == BOARDS for n in tables.played.values()), WAIT,
                       "the tables to play on while the server's disk is full")
            # ... and tried again, by itself, refused again while the disk stays full.
            wait_until(lambda: bus.fault is None or bus.fault.tries >= 4, WAIT,
                       "the server to try the refused batch again")
            assert bus.fault is not None, "stored again with the disk still full"
            tries = bus.fault.tries
            held_for = time.monotonic()
            (disk / "runaway.log").unlink()
            # Room again: no restart, nobody touches anything.
            tables.wait_done()
            final = tables.journalled()
            wait_until(lambda: all(len(server_rows(db, n)) >= final[n] for n in TABLES), WAIT,
                       "the server to store every event the tables journalled")
            caught_up = time.monotonic() - held_for
            assert bus.fault is None
            page = client.get("/console/fragment/storage").get_data(as_text=True)
            assert "not being stored" not in page
            assert "results stored again" in caplog.text
        finally:
            tables.close()
            services(app).close()
        lost = duplicated = changed = 0
        for number in TABLES:
            rows = journal_rows(tables.tables[number].journal.path)
            result = compare(rows, server_rows(db, number))
            lost, duplicated, changed = (lost + len(result[0]), duplicated + len(result[1]),
                                         changed + len(result[2]))
            assert len(server_rows(db, number)) == len(rows) == final[number]
        assert duplicates_in(db) == 0
        print(f"server disk full after {stored_at_fault} stored events ({filler} bytes of "
              f"filler on a {SIZE} tmpfs); {tries} refused tries while held; caught up "
              f"{caught_up:.1f} s after the room came back; events checked {sum(final.values())}; "
              f"lost {lost}, duplicated {duplicated}, changed {changed}; "
              f"{time.monotonic() - began:.1f} s")
        assert (lost, duplicated, changed) == (0, 0, 0)
        assert os.path.exists(db)


def _csrf(client: object) -> str:
    """The login form's CSRF token, as a browser would read it from the page."""
    import re

    page = client.get("/console/login").get_data(as_text=True)  # type: ignore[attr-defined]
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found, "no CSRF field on the login page"
    return found.group(1)
