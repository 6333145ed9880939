"""Nothing a seat may not see leaves the table where anyone but the server can read it.

A table behind screens, on a real Mosquitto with the generated ACL, plays a board with an
alert, a written question and its answer, and a face-down opening lead. The server's
credentials receive all of it (the director sees everything); the display's credentials
(the results screen) receive the retained state, which holds no call, card, alert, question
or answer; another table's credentials receive nothing of this table at all.
"""

from __future__ import annotations

import json
from pathlib import Path

from bidbox.broker import Broker, BrokerUsers
from laws import Seat
from sim.recorded import RecordedPlayers
from sim.simtable import SimulatedTable
from tablemodel.syscard import example
from tablemodel.wire import Command, table_topic
from tests.fixtures.broker import EVENT, TIMEOUT, MqttConnect

from .test_uplink import WAIT, settings

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
# Board 1 of a deal in which North opens 1NT and South bids Stayman (any deal will do: the
# keys are pressed here, the laws only check that they are legal).
PBN = "N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96"
SNAPSHOT_KEYS = {"v", "seq", "ts", "phase", "round", "board", "boards_done", "boards_left",
                 "director", "calls", "cards"}


def test_screens_traffic_reaches_the_server_only(tmp_path: Path, broker: Broker,
                                                 broker_users: BrokerUsers,
                                                 mqtt_connect: MqttConnect) -> None:
    server = mqtt_connect(broker_users.server)
    server.subscribe(f"bidbox/v1/{EVENT}/#")
    assert broker_users.display is not None
    display = mqtt_connect(broker_users.display)
    display.subscribe(f"bidbox/v1/{EVENT}/#")
    other = mqtt_connect(broker_users.table(2))
    other.subscribe("#")
    with SimulatedTable(tmp_path / "t1.db", event=EVENT, number=1,
                        broker=settings(broker, broker_users), timeout=WAIT) as table:
        card = example().to_json()
        table.daemon.inbox.put(Command("round-1", "assign", {
            "round": 1, "ns": 1, "ew": 2, "boards": [1], "deals": {"1": PBN},
            "conduct": {"screens": {"north_with": "E", "tray_delay": 0.02},
                        "cards": {"NS": card, "EW": card}}}))
        assert table.daemon.wait_for(lambda s: s.assignment is not None, TIMEOUT)
        players = RecordedPlayers(table)
        players.enter_players({seat: 10 + i for i, seat in enumerate(Seat)})
        table.press(N, "OK")                                  # board 1
        table.press(N, "1", "NT", "OK")
        table.press(E, "PASS", "OK")
        players.wait_for_tray()
        table.press(S, "2", "C", "ALERT", "OK")               # Stayman, alerted to West
        table.press(W, "INFO", "INFO", "OK")                  # West asks South, in writing
        table.press(S, "OK")                                  # South answers from the card
        table.press(W, "PASS", "OK")
        players.wait_for_tray()
        table.press(N, "2", "H", "OK")
        table.press(E, "PASS", "OK")
        players.wait_for_tray()
        table.press(S, "PASS", "OK")
        table.press(W, "PASS", "OK")
        players.wait_for_tray()
        table.scan("D4")                                      # East leads face down
        assert table.daemon.wait_for(lambda s: s.board is not None and s.board.face_down,
                                     TIMEOUT)
        table.press(N, "OK")                                  # East's screenmate: faced
        last = table.journal.last_seq
        types = [e.type for e in table.journal.events()]
        assert {"question", "answer", "tray", "faced"} <= set(types)
        assert any(e.type == "call" and e.data.get("alert") for e in table.journal.events())
        events_topic = table_topic(EVENT, 1, "events")
        # The server receives every event, the question and its answer among them.
        got: dict[int, str] = {}
        while len(got) < last:
            message = server.expect(events_topic)
            body = json.loads(message.payload)
            got[body["seq"]] = body["type"]
        assert [got[seq] for seq in sorted(got)] == types
    # The display saw the table's state and status, never its events; the state it saw has
    # no call, card, alert, question or answer in it.
    state_topic = table_topic(EVENT, 1, "state")
    display.expect(state_topic)
    seen = [*display.seen]
    while not display.messages.empty():
        seen.append(display.messages.get_nowait())
    topics = {m.topic for m in seen}
    assert topics <= {state_topic, table_topic(EVENT, 1, "status")}
    for message in seen:
        if message.topic == state_topic:
            assert set(json.loads(message.payload)) <= SNAPSHOT_KEYS
        for secret in (b"2C", b"D4", b"question", b"answer", b"Stayman", b"alert"):
            assert secret not in bytes(message.payload)
    # Another table reads nothing of table 1: a marker on its own cmd proves it listens.
    assert server.publish(table_topic(EVENT, 2, "cmd"), b"marker").value == 0
    other.expect(table_topic(EVENT, 2, "cmd"), b"marker")
    assert [m.topic for m in other.seen] == []
