"""Two ingest workers that split the tables, against a real Mosquitto, on SQLite and on
PostgreSQL: a backlog queued while both were away is stored whole and once, each table by its
own worker, in order (no resend asked), with the results derived from it."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from sqlalchemy import func, select

from bench.ingest import stream
from bidbox.broker import Broker, BrokerUsers
from laws.formats import load_path
from mqttlink import BrokerSettings
from server.link.bus import SUBSCRIBE_BYTES, Bus, split_tables, subscription_packets
from server.link.ingest import Ingest, Outcome
from server.link.live import Hub
from server.storage import schema as s
from server.storage.db import Database
from sim.recorded import playable
from tablemodel.wire import Event, table_topic
from tests.fixtures.broker import EVENT, TABLES, MqttConnect
from tests.records import played_pbn

EVENTS = 150  # a table's first boards: calls, cards, claims, a result or two, each round's assign
TIMEOUT = 30.0


class SeenIngest(Ingest):
    """Ingest noting the tables whose messages reached it, and the resends it asked."""

    def __init__(self, db: Database, event: str) -> None:
        super().__init__(db, event)
        self.tables: set[int] = set()
        self.resends = 0

    def many(self, messages: Any) -> list[Outcome]:
        outcomes = super().many(messages)
        self.tables |= {o.table for o in outcomes if o.table is not None}
        self.resends += sum(len(o.commands) for o in outcomes)
        return outcomes


def test_split_tables_deals_them_in_turn() -> None:
    assert split_tables([4, 1, 3, 2, 5, 3], 2) == [[1, 3, 5], [2, 4]]
    assert split_tables(range(1, 4), 1) == [[1, 2, 3]]
    with pytest.raises(ValueError):
        split_tables([1, 2], 0)


def test_a_worker_has_its_tables_or_a_shared_subscription(db: Database) -> None:
    with pytest.raises(ValueError, match="not both"):
        Bus(Ingest(db, EVENT), Hub(), BrokerSettings(), tables=[1], shared_group="ingest")
    with pytest.raises(ValueError, match="no table"):
        Bus(Ingest(db, EVENT), Hub(), BrokerSettings(), tables=[])
    bus = Bus(Ingest(db, EVENT), Hub(), BrokerSettings(), tables=[3, 1])
    assert [topic for topic, _ in bus.topics] == [
        table_topic(EVENT, t, kind) for t in (1, 3) for kind in ("events", "status", "state")]


def test_two_workers_store_a_backlog_once_each_its_own_tables(
        db: Database, broker: Broker, broker_users: BrokerUsers,
        mqtt_connect: MqttConnect) -> None:
    creds = broker_users.server
    settings = BrokerSettings(broker.host, broker.port, creds.username, creds.password)
    shares = split_tables(TABLES, 2)
    hub = Hub()

    def worker(k: int) -> Bus:
        return Bus(SeenIngest(db, EVENT), hub, settings, client_id=f"worker-{k + 1}",
                   tables=shares[k])

    for k in range(2):  # each worker's persistent session, then the workers are away
        bus = worker(k)
        bus.start()
        try:
            assert bus.subscribed.wait(10.0)
        finally:
            bus.stop()
    good, _ = playable(load_path(played_pbn()))
    payloads = stream(good, len(TABLES), EVENTS)
    for table in TABLES:  # acknowledged by the broker: queued for the sessions
        client = mqtt_connect(broker_users.table(table))
        for payload in payloads[table]:
            client.publish(table_topic(EVENT, table, "events"), payload)
    workers = [worker(0), worker(1)]
    try:
        for bus in workers:
            bus.start()
        deadline = time.monotonic() + TIMEOUT
        seen = hub.version
        while sum(bus.stored for bus in workers) < len(TABLES) * EVENTS:
            left = deadline - time.monotonic()
            assert left > 0, f"stored {[bus.stored for bus in workers]} of {EVENTS} a table"
            seen = hub.wait(seen, left).version
    finally:
        for bus in workers:
            bus.stop()
    for bus, share in zip(workers, shares, strict=True):
        assert isinstance(bus.ingest, SeenIngest)
        assert bus.ingest.tables == set(share)  # no message of another worker's table
        assert bus.stored == EVENTS * len(share)
        assert bus.ingest.resends == 0  # each table's stream came whole and in order
    results = {(table, json.loads(p)["board"]) for table in TABLES for p in payloads[table]
               if json.loads(p)["type"] == "result"}
    assert results  # the stream holds results: the projections ran
    with db.read() as conn:
        keys = select(s.events.c.table_no, s.events.c.seq)
        assert conn.execute(select(func.count()).select_from(keys.subquery())).scalar_one() \
            == len(TABLES) * EVENTS
        assert conn.execute(select(func.count()).select_from(
            keys.distinct().subquery())).scalar_one() == len(TABLES) * EVENTS
        marks = dict(conn.execute(select(s.table_status.c.table_no,
                                         s.table_status.c.contiguous_seq)).all())
        stored_results = set(conn.execute(select(s.results.c.table_no,
                                                 s.results.c.board)).all())
    assert marks == {table: EVENTS for table in TABLES}
    assert stored_results == results


def test_subscriptions_go_in_packets_the_broker_takes() -> None:
    topics = [(table_topic(EVENT, t, kind), 1) for t in range(1, 2501)
              for kind in ("events", "status", "state")]
    packets = subscription_packets(topics)
    assert [topic for packet in packets for topic in packet] == topics  # all, in order
    assert len(packets) > 1
    assert all(sum(len(t.encode()) + 3 for t, _ in packet) <= SUBSCRIBE_BYTES
               for packet in packets)
    assert subscription_packets(topics[:3]) == [topics[:3]]


def test_a_worker_of_thousands_of_tables_subscribes_and_stores(
        db: Database, broker: Broker, broker_users: BrokerUsers,
        mqtt_connect: MqttConnect) -> None:
    """2,500 tables of its own: 7,500 topic filters, more than one SUBSCRIBE packet the
    project's broker takes (it dropped the worker, "oversize packet", at 1,000 tables)."""
    creds = broker_users.server
    settings = BrokerSettings(broker.host, broker.port, creds.username, creds.password)
    hub = Hub()
    bus = Bus(Ingest(db, EVENT), hub, settings, client_id="worker-big",
              tables=range(1, 2501))
    bus.start()
    try:
        assert bus.subscribed.wait(TIMEOUT), "the broker never granted the subscriptions"
        table = TABLES[-1]
        client = mqtt_connect(broker_users.table(table))
        client.publish(table_topic(EVENT, table, "events"),
                       Event(1, "board", 1.7e9, 1, {"board": 1, "dealer": "N",
                                                    "vul": "None"}).to_payload())
        deadline = time.monotonic() + TIMEOUT
        seen = hub.version
        while bus.stored < 1:
            left = deadline - time.monotonic()
            assert left > 0, "the worker stored nothing"
            seen = hub.wait(seen, left).version
        assert bus.connected.is_set()
    finally:
        bus.stop()
