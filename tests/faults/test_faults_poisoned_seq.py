"""A table's login publishes a sequence number that cannot be right (issue 27, item 5): a
retained state and an event numbered 2,147,483,647. The server keeps the event but believes
neither number: the table's "missing" count stays true, and a real gap later (events that
never reached the server) is still asked for and filled.

The broker runs as `bidbox provision` writes it; the table is the real daemon with its uplink
over TLS; the server the real one. The gap is made at the server's end, as a broker that
lost what it had acknowledged would leave it: twenty stored events taken out of its database.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from tabled.daemon import snapshot
from tablemodel.wire import Event, state_payload, table_topic
from tests.faults.conftest import ProvisionedBroker
from tests.faults.harness import (
    EVENT,
    compare,
    journal_rows,
    seed,
    server_rows,
    services,
    wait_until,
)
from tests.faults.playing import TablesAtPlay
from tests.faults.test_faults_broker_logins import Intruder, _server

WAIT = 60.0
POISON = 2_147_483_647
TABLE = 1


def _status(db: Path) -> tuple[int, int]:
    with sqlite3.connect(db) as conn:
        row = conn.execute("SELECT contiguous_seq, highest_seq FROM table_status WHERE "
                           "event = ? AND table_no = ?", (EVENT, TABLE)).fetchone()
    conn.close()
    return int(row[0]), int(row[1])


def test_a_sequence_number_that_cannot_be_right_poisons_nothing(
        tmp_path: Path, provisioned_broker: ProvisionedBroker) -> None:
    place = provisioned_broker
    app = _server(tmp_path, place)
    db = tmp_path / "server.db"
    tables = TablesAtPlay(tmp_path / "tables", {TABLE: place.table(TABLE)}, boards=4,
                          seed=seed(), wait=WAIT)
    tables.limit = 1
    try:
        tables.start()
        wait_until(lambda: tables.played[TABLE] == 1, WAIT, "board 1 to be played")
        played = tables.journalled()[TABLE]
        wait_until(lambda: len(server_rows(db, TABLE)) == played, WAIT, "board 1 stored")
        # The poison, with table 1's own login.
        state = dict(snapshot(tables.tables[TABLE].state))
        state["seq"] = POISON
        forged = Event(POISON, "player", time.time(), None, {"seat": "N", "number": 999})
        with Intruder(place.table(TABLE), "whoever") as intruder:
            wait_until(lambda: 0 in intruder.connacks, WAIT, "the intruder to connect")
            intruder.paho.publish(table_topic(EVENT, TABLE, "state"), state_payload(state),
                                  qos=1, retain=True).wait_for_publish(WAIT)
            intruder.paho.publish(table_topic(EVENT, TABLE, "events"), forged.to_payload(),
                                  qos=1).wait_for_publish(WAIT)
        wait_until(lambda: any(r[0] == POISON for r in server_rows(db, TABLE)), WAIT,
                   "the server to have read the poison")
        contiguous, highest = _status(db)
        assert highest - contiguous < 1000, (contiguous, highest)  # no huge "missing"
        # A real gap: twenty events the server never got.
        with sqlite3.connect(db) as conn:
            conn.execute("DELETE FROM events WHERE event = ? AND table_no = ? AND seq BETWEEN "
                         "21 AND 40", (EVENT, TABLE))
            conn.execute("UPDATE table_status SET contiguous_seq = 20 WHERE event = ? AND "
                         "table_no = ?", (EVENT, TABLE))
        conn.close()
        tables.limit = 4  # play on: the next event shows the gap, and the server asks for it
        tables.wait_done()
        final = tables.journalled()[TABLE]
        wait_until(lambda: _status(db)[0] >= final, WAIT,
                   "the server to ask for the gap and fill it")
        contiguous, highest = _status(db)
        assert (contiguous, highest) == (final, final)
    finally:
        tables.close()
        services(app).close()
    stored = [row for row in server_rows(db, TABLE) if row[0] != POISON]
    lost, duplicated, changed = compare(journal_rows(tables.tables[TABLE].journal.path), stored)
    print(f"poisoned with {POISON}; {final} events checked; lost {len(lost)}, duplicated "
          f"{len(duplicated)}, changed {len(changed)}; status {json.dumps([contiguous, highest])}")
    assert (lost, duplicated, changed) == ([], [], [])
