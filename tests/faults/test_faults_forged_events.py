"""A table's login publishes events 1 to 50 before the real table starts (issue 27, item 6):
the real table's events 1 to 50 then come with numbers already stored. Nothing of either is
lost: the server keeps the table's versions beside the stored ones, the console names the
table and the numbers, and once the director takes the later ones the server holds exactly
the table's journal.

Which set is the table's cannot be told by the server (both came with its password), so the
director chooses, after looking at the table (docs/security.md).
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from tablemodel.wire import Event, table_topic
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
from tests.faults.test_faults_storage import _csrf

WAIT = 60.0
FORGED = 50
TABLE = 1


def test_events_published_ahead_of_the_table_are_the_directors_to_settle(
        tmp_path: Path, provisioned_broker: ProvisionedBroker) -> None:
    place = provisioned_broker
    app = _server(tmp_path, place)
    db = tmp_path / "server.db"
    client = app.test_client()
    client.post("/console/login", data={"username": "director", "password": "faults",
                                        "csrf": _csrf(client)})
    with Intruder(place.table(TABLE), "early") as intruder:
        wait_until(lambda: 0 in intruder.connacks, WAIT, "the intruder to connect")
        for seq in range(1, FORGED + 1):
            forged = Event(seq, "player", time.time(), None,
                           {"seat": "NESW"[seq % 4], "number": 900 + seq})
            intruder.paho.publish(table_topic(EVENT, TABLE, "events"), forged.to_payload(),
                                  qos=1).wait_for_publish(WAIT)
    wait_until(lambda: len(server_rows(db, TABLE)) == FORGED, WAIT, "the forged events stored")
    tables = TablesAtPlay(tmp_path / "tables", {TABLE: place.table(TABLE)}, boards=1,
                          seed=seed(), wait=WAIT)
    try:
        tables.start()
        tables.wait_done()
        final = tables.journalled()[TABLE]
        wait_until(lambda: len(server_rows(db, TABLE)) == final, WAIT,
                   "the table's events after the forged ones stored")
        # The console says which table, which numbers; nothing the table sent is lost.
        def shown() -> str:
            return str(client.get("/console/fragment/conflicts").get_data(as_text=True))
        wait_until(lambda: f"Table {TABLE}: {FORGED} events" in shown(), WAIT,
                   "the console to name the conflict")
        assert f"(1 to {FORGED}," in shown()
        journal = journal_rows(tables.tables[TABLE].journal.path)
        lost, duplicated, changed = compare(journal, server_rows(db, TABLE))
        assert changed == list(range(1, FORGED + 1)) and not lost and not duplicated
        # The director, having looked at the table, takes the later ones.
        page = client.get("/console/").get_data(as_text=True)
        token = re.search(r'name="csrf" value="([^"]+)"', page)
        assert token is not None
        answer = client.post(f"/console/conflicts/{TABLE}",
                             data={"csrf": token.group(1), "choice": "later"})
        assert answer.status_code == 302
        assert "events came" not in shown()
        lost, duplicated, changed = compare(journal, server_rows(db, TABLE))
    finally:
        tables.close()
        services(app).close()
    print(f"{FORGED} events forged ahead of the table; {final} journalled; after the "
          f"director's choice lost {len(lost)}, duplicated {len(duplicated)}, changed "
          f"{len(changed)}")
    assert (lost, duplicated, changed) == ([], [], [])
