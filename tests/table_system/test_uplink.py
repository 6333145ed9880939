"""The table's MQTT side against a real Mosquitto on a free loopback port (tests/mqtt).

A small collector stands in for the server's ingest: it stores each table event once by its
sequence number, and when it sees a gap, or a retained state whose ``seq`` is ahead of what
it holds, it asks the table to resend - the end-to-end check that QoS 1 alone cannot give
when the broker itself dies between its PUBACK and the delivery.
"""

from __future__ import annotations

import itertools
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from bidbox.broker import Broker, BrokerUsers, Credentials
from laws import Seat
from laws.formats import load_path
from mqttlink import BrokerSettings, close_sockets
from sim.recorded import BoardScript, RecordedPlayers, playable
from sim.simtable import SimulatedTable
from tablemodel.roundclock import RoundClock
from tablemodel.wire import Command, Event, clock_payload, clock_topic, table_topic
from tests.fixtures.broker import EVENT, TIMEOUT, MqttConnect
from tests.processes import spawned
from tests.records import REALBRIDGE

WAIT = 20.0  # seconds: generous bounds for a whole board to cross the broker


class Collector:
    """What the server's ingest does with a table's stream, reduced to the essentials."""

    def __init__(self, broker: Broker, creds: Credentials, table: int = 1) -> None:
        self.table = table
        self.topics = {k: table_topic(EVENT, table, k)
                       for k in ("events", "state", "status", "cmd")}
        self.events: dict[int, Event] = {}
        self.arrivals: list[int] = []
        self.statuses: list[bytes] = []
        self.resends = 0
        self.changed = threading.Condition()
        self._ids = itertools.count(1)
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"collector-{table}",
                                  protocol=mqtt.MQTTv5)
        self.client.username_pw_set(creds.username, creds.password)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.reconnect_delay_set(0.05, 0.5)
        self.client.connect(broker.host, broker.port, keepalive=10)
        self.client.loop_start()

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, code: Any,
                    properties: Any) -> None:
        client.subscribe([(self.topics["events"], 1), (self.topics["state"], 1),
                          (self.topics["status"], 1)])

    def _on_message(self, client: mqtt.Client, userdata: Any, message: Any) -> None:
        with self.changed:
            if message.topic == self.topics["status"]:
                self.statuses.append(bytes(message.payload))
            elif message.topic == self.topics["events"]:
                event = Event.from_payload(bytes(message.payload))
                self.arrivals.append(event.seq)
                previous = self.events.setdefault(event.seq, event)
                assert previous.to_json() == event.to_json()  # a repeat is the same event
                if event.seq > 1 and event.seq - 1 not in self.events:
                    self._resend()
            elif message.topic == self.topics["state"]:
                import json

                seq = json.loads(message.payload)["seq"]
                if seq > self.contiguous():
                    self._resend()
            self.changed.notify_all()

    def contiguous(self) -> int:
        """The highest seq up to which nothing is missing."""
        seq = 0
        while seq + 1 in self.events:
            seq += 1
        return seq

    def _resend(self) -> None:
        self.resends += 1
        command = Command(f"resend-{next(self._ids)}", "resend",
                          {"since": self.contiguous() + 1})
        self.client.publish(self.topics["cmd"], command.to_payload(), qos=1)

    def send(self, command: Command) -> None:
        self.client.publish(self.topics["cmd"], command.to_payload(), qos=1)

    def wait_for(self, predicate: Any, timeout: float = WAIT) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: predicate(self), timeout)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
        close_sockets(self.client)


@pytest.fixture
def collector(broker: Broker, broker_users: BrokerUsers) -> Iterator[Collector]:
    collector = Collector(broker, broker_users.server)
    yield collector
    collector.close()


@pytest.fixture
def script(played_records: Path) -> BoardScript:
    good, _ = playable(load_path(played_records))
    return BoardScript.of(next(p.record for p in good if p.record.auction and
                               len(p.record.auction) > 4))


def settings(broker: Broker, users: BrokerUsers, table: int = 1) -> BrokerSettings:
    creds = users.table(table)
    return BrokerSettings(broker.host, broker.port, creds.username, creds.password,
                          keepalive=5)


def assign(table: SimulatedTable, board: int) -> None:
    table.daemon.inbox.put(Command("round-1", "assign",
                                   {"round": 1, "ns": 1, "ew": 2, "boards": [board]}))
    assert table.daemon.wait_for(lambda s: s.assignment is not None, TIMEOUT)


def seated(table: SimulatedTable, collector: Collector,
           script: BoardScript) -> RecordedPlayers:
    """The table online, its round assigned, its players seated: ready for the board."""
    assert collector.wait_for(lambda c: c.statuses[-1:] == [b"online"])
    assign(table, script.board)
    players = RecordedPlayers(table)
    players.enter_players({seat: 10 + i for i, seat in enumerate(Seat)})
    return players


def journal_events(table: SimulatedTable) -> list[dict[str, Any]]:
    return [e.to_json() for e in table.journal.events()]


def test_a_board_arrives_once_in_order_and_the_outbox_drains(
        tmp_path: Path, broker: Broker, broker_users: BrokerUsers, collector: Collector,
        script: BoardScript) -> None:
    with SimulatedTable(tmp_path / "t1.db", event=EVENT, number=1,
                        broker=settings(broker, broker_users)) as table:
        players = seated(table, collector, script)
        players.play_board(script)
        total = table.journal.last_seq
        assert collector.wait_for(lambda c: c.contiguous() == total)
        assert table.daemon.wait_for(lambda _: table.journal.outbox_size() == 0, WAIT)
        assert [e.to_json() for _, e in sorted(collector.events.items())] == \
            journal_events(table)
        assert collector.arrivals == list(range(1, total + 1))  # no loss, no repeat, in order
        result = [e for e in collector.events.values() if e.type == "result"]
        assert [r.data["score_ns"] for r in result] == [table.state.results[script.board]
                                                        .score_ns]
    # A clean stop says "offline" itself (the will is not sent on a clean disconnect).
    assert collector.wait_for(lambda c: c.statuses[-1:] == [b"offline"])


def test_commands_are_answered_once_and_bad_ones_change_nothing(
        tmp_path: Path, broker: Broker, broker_users: BrokerUsers,
        collector: Collector) -> None:
    with SimulatedTable(tmp_path / "t1.db", event=EVENT, number=1,
                        broker=settings(broker, broker_users)) as table:
        assert collector.wait_for(lambda c: c.statuses[-1:] == [b"online"])
        collector.client.publish(collector.topics["cmd"], b'{"v":1,"id":"x","type":"nuke"}', 1)
        collector.client.publish(collector.topics["cmd"], b"\xff not json", 1)
        assignment = Command("a-1", "assign", {"round": 1, "ns": 3, "ew": 4, "boards": [1, 2]})
        collector.send(assignment)
        collector.send(assignment)  # the same id again: answered, not applied twice
        assert collector.wait_for(lambda c: len(c.arrivals) >= 2)
        assert [e.type for e in table.journal.events()] == ["assign"]
        assert table.journal.last_seq == 1
        assert collector.arrivals == [1, 1]
        assert collector.events[1].data["cmd"] == "a-1"
        assert table.state.assignment is not None and table.state.assignment.ns == 3


def test_the_broker_killed_mid_board_loses_nothing(
        tmp_path: Path, broker: Broker, broker_users: BrokerUsers, collector: Collector,
        script: BoardScript) -> None:
    with SimulatedTable(tmp_path / "t1.db", event=EVENT, number=1,
                        broker=settings(broker, broker_users)) as table:
        players = seated(table, collector, script)
        for _ in range(40):  # the hand scans of North, East, part of South's
            players.step(script)
        broker.kill()
        for _ in range(30):  # the table plays on while the broker is away
            players.step(script)
        assert table.journal.outbox_size() > 0
        broker.start()
        players.play_board(script)
        total = table.journal.last_seq
        assert collector.wait_for(lambda c: c.contiguous() == total)
        assert [e.to_json() for _, e in sorted(collector.events.items())] == \
            journal_events(table)
        assert table.daemon.wait_for(lambda _: table.journal.outbox_size() == 0, WAIT)


def test_a_table_that_dies_is_marked_offline_by_its_will(
        broker: Broker, broker_users: BrokerUsers, collector: Collector) -> None:
    creds = broker_users.table(1)
    url = f"mqtt://{creds.username}:{creds.password}@{broker.host}:{broker.port}"
    with spawned([sys.executable, "-m", "bidbox", "table", "--sim", "--broker", url,
                  "--event", EVENT, "--number", "1"], stdin=subprocess.PIPE,
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as child:
        assert collector.wait_for(lambda c: c.statuses[-1:] == [b"online"])
        child.send_signal(signal.SIGKILL)
        child.wait(TIMEOUT)
    assert collector.wait_for(lambda c: c.statuses[-1:] == [b"offline"])


def test_every_realbridge_record_played_at_four_tables_publishes_replays_result(
        tmp_path: Path, broker: Broker, broker_users: BrokerUsers, played_records: Path,
        mqtt_connect: MqttConnect) -> None:
    """The whole file (the real qualifier, or the golden pairs session without ../shared)
    through keypads and card readers; the results on the wire are the ones `bidbox replay`
    computes for the same records."""
    import json

    from laws.replay import replay
    from sim.simulation import Simulation

    path = played_records  # the real qualifier's 299 records, or the golden pairs' 60
    records = load_path(path)
    good, skipped = playable(records, str(path))
    assert skipped == [] and len(good) == len(records) == (299 if path == REALBRIDGE else 60)
    results: dict[int, list[dict[str, Any]]] = {}
    done = threading.Condition()

    def on_message(client: mqtt.Client, userdata: Any, message: Any) -> None:
        event = json.loads(message.payload)
        if event["type"] == "result":
            table = int(message.topic.split("/")[4])
            with done:
                results.setdefault(table, []).append(event["data"])
                done.notify_all()

    server = mqtt_connect(broker_users.server)
    server.paho.on_message = on_message
    # The tables start only once the broker holds the subscription (subscribe waits for the
    # SUBACK): what they publish before it would not be delivered to a clean session.
    server.subscribe(f"bidbox/v1/{EVENT}/table/+/events")
    simulation = Simulation(good, tables=4, folder=tmp_path, event=EVENT,
                            broker_for=lambda t: settings(broker, broker_users, t))
    runs = simulation.run()
    assert [r.error for r in runs] == [None] * 4
    with done:
        assert done.wait_for(lambda: sum(map(len, results.values())) == len(records), WAIT)
    for run in runs:
        played = [item for round_ in run.rounds for item in round_]
        wire = results[run.number]
        assert len(wire) == len(played)
        for item, data in zip(played, wire, strict=True):
            expected = replay(item.record)
            assert (data["contract"], data["declarer"], data["tricks"], data["score_ns"]) == \
                (expected.contract, expected.declarer, expected.tricks, expected.score_ns), \
                f"record {item.record.source_index}"


def test_the_retained_round_clock_reaches_the_table_and_its_displays(
        tmp_path: Path, broker: Broker, broker_users: BrokerUsers,
        collector: Collector) -> None:
    """The server's retained clock (an extension) is read with the table's own login, on
    connecting; the displays count to the new end. The table's clock is the test's."""
    now = 1_800_000_000.0
    server = collector  # the server's login: the only one that may write the clock
    try:
        with SimulatedTable(tmp_path / "t1.db", event=EVENT, number=1,
                            broker=settings(broker, broker_users)) as table:
            table.daemon.clock = lambda: now
            assert collector.wait_for(lambda c: c.statuses[-1:] == [b"online"])
            collector.send(Command("a-1", "assign", {
                "round": 1, "ns": 3, "ew": 4, "boards": [1, 2],
                "clock": {"ends_at": now + 600, "warning": 2}}))
            assert table.daemon.wait_for(lambda s: s.assignment is not None, TIMEOUT)
            assert table.daemon.view(Seat.N)[3] == "10 min left"
            server.client.publish(clock_topic(EVENT),
                                  clock_payload(RoundClock(1, now + 1500, 2)), 1, retain=True)
            assert table.daemon.wait_for(
                lambda _: table.daemon.round_clock is not None, TIMEOUT)
            assert table.daemon.view(Seat.N)[3] == "25 min left"
        # A table that starts later gets the retained clock when it connects.
        with SimulatedTable(tmp_path / "t1.db", event=EVENT, number=1,
                            broker=settings(broker, broker_users)) as again:
            assert again.daemon.wait_for(
                lambda _: again.daemon.round_clock == RoundClock(1, now + 1500, 2), TIMEOUT)
    finally:
        server.client.publish(clock_topic(EVENT), b"", 1, retain=True)  # the broker forgets it
